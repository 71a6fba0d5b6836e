"""``GET /repos/search``: the envelope, visibility, filters, orders and Gitea's 422 answers."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_user

SEARCH = f"{API}/repos/search"


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete"):
        make_user(client, admin, name)
    repos: list[tuple[str, dict[str, Any]]] = [
        ("olga", {"name": "zeta-tool", "description": "a hammer"}),
        ("olga", {"name": "alpha-tool", "private": True}),
        ("pete", {"name": "beta-lib", "description": "tool box"}),
    ]
    for owner, body in repos:
        assert client.post(f"{API}/user/repos", headers=basic(owner), json=body).status_code == 201


def names(response: Any) -> list[str]:
    body = response.get_json()
    assert body["ok"] is True, body
    return [repo["full_name"] for repo in body["data"]]


def test_visibility_and_envelope(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    anonymous = client.get(SEARCH, query_string={"q": "tool"})
    assert names(anonymous) == ["olga/zeta-tool"] and anonymous.headers["X-Total-Count"] == "1"
    assert names(client.get(SEARCH, query_string={"q": "tool"}, headers=basic("olga"))) == [
        "olga/alpha-tool",
        "olga/zeta-tool",
    ]
    assert names(client.get(SEARCH, query_string={"q": "tool"}, headers=basic("pete"))) == ["olga/zeta-tool"]
    hidden = client.get(SEARCH, query_string={"q": "tool", "private": "false"}, headers=basic("olga"))
    assert names(hidden) == ["olga/zeta-tool"]
    only_private = client.get(SEARCH, query_string={"is_private": "true"}, headers=basic("olga"))
    assert names(only_private) == ["olga/alpha-tool"]


def test_description_topic_owner_and_order(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert names(client.get(SEARCH, query_string={"q": "box", "includeDesc": "true"})) == ["pete/beta-lib"]
    assert names(client.get(SEARCH, query_string={"q": "box"})) == []
    client.put(f"{API}/repos/pete/beta-lib/topics/gadget", headers=basic("pete"))
    assert names(client.get(SEARCH, query_string={"q": "gadget", "topic": "true"})) == ["pete/beta-lib"]
    assert names(client.get(SEARCH, query_string={"q": "gadg", "topic": "true"})) == []
    assert names(client.get(SEARCH, query_string={"q": "gadg"})) == ["pete/beta-lib"]
    pete = client.get(f"{API}/users/pete").get_json()["id"]
    assert names(client.get(SEARCH, query_string={"uid": pete})) == ["pete/beta-lib"]
    ordered = client.get(SEARCH, query_string={"sort": "alpha", "order": "desc"})
    assert names(ordered) == ["pete/beta-lib", "olga/zeta-tool"]
    assert names(client.get(SEARCH, query_string={"priority_owner_id": pete})) == ["pete/beta-lib", "olga/zeta-tool"]
    paged = client.get(SEARCH, query_string={"limit": 1, "page": 1})
    assert len(names(paged)) == 1 and paged.headers["X-Total-Count"] == "2" and 'rel="next"' in paged.headers["Link"]


def test_starred_by_and_collaborative(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    pete = client.get(f"{API}/users/pete").get_json()["id"]
    client.put(f"{API}/user/starred/olga/zeta-tool", headers=basic("pete"))
    assert names(client.get(SEARCH, query_string={"starredBy": pete})) == ["olga/zeta-tool"]
    client.put(f"{API}/repos/olga/alpha-tool/collaborators/pete", headers=basic("olga"), json={"permission": "read"})
    mine_and_shared = client.get(SEARCH, query_string={"uid": pete}, headers=basic("pete"))
    assert names(mine_and_shared) == ["olga/alpha-tool", "pete/beta-lib"]
    shared = client.get(SEARCH, query_string={"uid": pete, "mode": "collaborative"}, headers=basic("pete"))
    assert names(shared) == ["olga/alpha-tool"]
    exclusive = client.get(SEARCH, query_string={"uid": pete, "exclusive": "true"}, headers=basic("pete"))
    assert names(exclusive) == ["pete/beta-lib"]


def test_refusals(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert_error(client.get(SEARCH, query_string={"mode": "weird"}), 422, 'Invalid search mode: "weird"')
    assert_error(client.get(SEARCH, query_string={"sort": "colour"}), 422, 'Invalid sort mode: "colour"')
    assert_error(client.get(SEARCH, query_string={"sort": "id", "order": "up"}), 422, 'Invalid sort order: "up"')
    # a boolean that does not parse is false, as Go's form helpers read it
    assert names(client.get(SEARCH, query_string={"q": "box", "includeDesc": "maybe"})) == []
