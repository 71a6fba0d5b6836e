"""Stars and watches: marking, the lists on both sides, the counts of ``Repository``, new repositories watched."""

from __future__ import annotations

from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin, name)
    for name, private in (("vault", True), ("open", False)):
        body = {"name": name, "private": private}
        assert client.post(f"{API}/user/repos", headers=basic("olga"), json=body).status_code == 201


def test_star_and_unstar(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert_error(client.get(f"{API}/user/starred/olga/open", headers=basic("pete")), 404)
    assert client.put(f"{API}/user/starred/olga/open", headers=basic("pete")).status_code == 204
    assert client.put(f"{API}/user/starred/olga/open", headers=basic("pete")).status_code == 204
    assert client.get(f"{API}/user/starred/olga/open", headers=basic("pete")).status_code == 204
    assert client.get(f"{API}/repos/olga/open").get_json()["stars_count"] == 1
    gazers = client.get(f"{API}/repos/olga/open/stargazers")
    assert [user["login"] for user in gazers.get_json()] == ["pete"] and gazers.headers["X-Total-Count"] == "1"
    starred = client.get(f"{API}/users/pete/starred").get_json()
    assert [repo["full_name"] for repo in starred] == ["olga/open"]
    assert client.delete(f"{API}/user/starred/olga/open", headers=basic("pete")).status_code == 204
    assert client.delete(f"{API}/user/starred/olga/open", headers=basic("pete")).status_code == 204
    assert client.get(f"{API}/repos/olga/open").get_json()["stars_count"] == 0
    # a repository the caller cannot see cannot be starred, and says nothing of itself
    assert_error(client.put(f"{API}/user/starred/olga/vault", headers=basic("pete")), 404)
    assert_error(client.put(f"{API}/user/starred/olga/open"), 401)


def test_private_stars_only_for_the_user(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    for name in ("vault", "open"):
        assert client.put(f"{API}/user/starred/olga/{name}", headers=basic("olga")).status_code == 204
    own = client.get(f"{API}/user/starred", headers=basic("olga")).get_json()
    assert sorted(repo["name"] for repo in own) == ["open", "vault"]
    seen = client.get(f"{API}/users/olga/starred", headers=basic("pete"))
    assert [repo["name"] for repo in seen.get_json()] == ["open"] and seen.headers["X-Total-Count"] == "1"


def test_creator_watches_and_watch_routes(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    repo = client.get(f"{API}/repos/olga/open").get_json()
    assert repo["watchers_count"] == 1
    watchers = client.get(f"{API}/repos/olga/open/subscribers").get_json()
    assert [user["login"] for user in watchers] == ["olga"]
    assert_error(client.get(f"{API}/repos/olga/open/subscription", headers=basic("pete")), 404)
    info = client.put(f"{API}/repos/olga/open/subscription", headers=basic("pete"))
    assert info.status_code == 200
    body = info.get_json()
    assert body["subscribed"] is True and body["ignored"] is False and body["reason"] is None
    assert body["url"].endswith("/api/v1/repos/olga/open/subscription")
    assert body["repository_url"].endswith("/api/v1/repos/olga/open")
    assert body["created_at"] == repo["created_at"]
    assert client.get(f"{API}/repos/olga/open/subscription", headers=basic("pete")).status_code == 200
    watched = client.get(f"{API}/user/subscriptions", headers=basic("pete")).get_json()
    assert [item["full_name"] for item in watched] == ["olga/open"]
    assert client.delete(f"{API}/repos/olga/open/subscription", headers=basic("pete")).status_code == 204
    assert client.get(f"{API}/repos/olga/open").get_json()["watchers_count"] == 1
    assert_error(client.get(f"{API}/repos/olga/open/subscription"), 401)


def test_org_repository_watched_by_owners(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_org(client, "olga", "acme")
    assert client.post(f"{API}/orgs/acme/repos", headers=basic("olga"), json={"name": "tool"}).status_code == 201
    watchers = client.get(f"{API}/repos/acme/tool/subscribers").get_json()
    assert [user["login"] for user in watchers] == ["olga"]


def test_deleted_repository_leaves_the_lists(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert client.put(f"{API}/user/starred/olga/open", headers=basic("rosa")).status_code == 204
    assert client.delete(f"{API}/repos/olga/open", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/user/starred", headers=basic("rosa")).get_json() == []
