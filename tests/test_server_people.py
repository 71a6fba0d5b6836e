"""Follows, blocks (and what they refuse and undo), the user search, user repositories, the heatmap and
OAuth2 applications of the reference server."""

from __future__ import annotations

import hashlib

from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin, name)
    for name, private in (("vault", True), ("open", False)):
        body = {"name": name, "private": private}
        assert client.post(f"{API}/user/repos", headers=basic("olga"), json=body).status_code == 201


def test_follow_lists_counts_and_checks(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert_error(client.get(f"{API}/user/following/olga", headers=basic("pete")), 404)
    for _ in range(2):
        assert client.put(f"{API}/user/following/olga", headers=basic("pete")).status_code == 204
    assert client.put(f"{API}/user/following/olga", headers=basic("rosa")).status_code == 204
    assert client.put(f"{API}/user/following/olga", headers=basic("olga")).status_code == 204  # oneself: no-op
    assert client.get(f"{API}/user/following/olga", headers=basic("pete")).status_code == 204
    assert client.get(f"{API}/users/pete/following/olga").status_code == 204
    assert_error(client.get(f"{API}/users/olga/following/pete"), 404)
    assert_error(client.get(f"{API}/users/pete/following/nobody"), 404)
    followers = client.get(f"{API}/users/olga/followers")
    assert sorted(u["login"] for u in followers.get_json()) == ["pete", "rosa"]
    assert followers.headers["X-Total-Count"] == "2"
    olga = client.get(f"{API}/users/olga").get_json()
    assert (olga["followers_count"], olga["following_count"]) == (2, 0)
    assert [u["login"] for u in client.get(f"{API}/user/following", headers=basic("pete")).get_json()] == ["olga"]
    assert client.delete(f"{API}/user/following/olga", headers=basic("pete")).status_code == 204
    assert [u["login"] for u in client.get(f"{API}/user/followers", headers=basic("olga")).get_json()] == ["rosa"]
    assert_error(client.put(f"{API}/user/following/nobody", headers=basic("pete")), 404)
    hide = {"login_name": "rosa", "source_id": 0, "visibility": "private"}
    assert client.patch(f"{API}/admin/users/rosa", headers=admin_headers, json=hide).status_code == 200
    assert client.get(f"{API}/users/olga/followers").get_json() == []
    assert client.get(f"{API}/users/olga").get_json()["followers_count"] == 1


def test_block_refuses_and_undoes(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    pete = basic("pete")
    assert client.put(f"{API}/user/following/olga", headers=pete).status_code == 204
    assert client.put(f"{API}/user/starred/olga/open", headers=pete).status_code == 204
    assert client.put(f"{API}/repos/olga/open/subscription", headers=pete).status_code == 200
    assert client.put(f"{API}/repos/olga/vault/collaborators/pete", headers=basic("olga"), json={}).status_code == 204
    issue = client.post(f"{API}/repos/olga/open/issues", headers=basic("olga"), json={"title": "t"}).get_json()
    assert client.put(f"{API}/user/blocks/pete?note=spam", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/user/blocks/pete", headers=basic("olga")).status_code == 204
    assert [u["login"] for u in client.get(f"{API}/user/blocks", headers=basic("olga")).get_json()] == ["pete"]
    # undone
    assert client.get(f"{API}/users/olga").get_json()["followers_count"] == 0
    assert client.get(f"{API}/repos/olga/open").get_json()["stars_count"] == 0
    assert [u["login"] for u in client.get(f"{API}/repos/olga/open/subscribers").get_json()] == ["olga"]
    assert_error(client.get(f"{API}/repos/olga/vault", headers=pete), 404)
    # refused
    assert_error(client.put(f"{API}/user/following/olga", headers=pete), 403, "user is blocked")
    assert_error(client.put(f"{API}/user/starred/olga/open", headers=pete), 403, "user is blocked")
    assert_error(client.put(f"{API}/repos/olga/open/subscription", headers=pete), 403, "user is blocked")
    assert_error(client.post(f"{API}/repos/olga/open/issues", headers=pete, json={"title": "x"}), 403)
    comment = client.post(f"{API}/repos/olga/open/issues/{issue['number']}/comments", headers=pete, json={"body": "b"})
    assert_error(comment, 403, "user is blocked")
    added = client.put(f"{API}/repos/olga/open/collaborators/pete", headers=basic("olga"), json={})
    assert_error(added, 403, "user is blocked")
    # refusals of the block itself, then unblocking
    assert_error(client.put(f"{API}/user/blocks/pete", headers=basic("olga")), 400, "cannot block")
    assert_error(client.put(f"{API}/user/blocks/olga", headers=basic("olga")), 400, "cannot block")
    assert client.delete(f"{API}/user/blocks/pete", headers=basic("olga")).status_code == 204
    assert_error(client.delete(f"{API}/user/blocks/pete", headers=basic("olga")), 400, "cannot unblock")
    assert_error(client.get(f"{API}/user/blocks/pete", headers=basic("olga")), 404)
    assert client.put(f"{API}/user/starred/olga/open", headers=pete).status_code == 204


def test_organization_blocks(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_org(client, "olga", "guild")
    assert client.post(f"{API}/orgs/guild/repos", headers=basic("olga"), json={"name": "hall"}).status_code == 201
    assert client.put(f"{API}/orgs/guild/blocks/rosa", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/orgs/guild/blocks/rosa", headers=basic("olga")).status_code == 204
    assert [u["login"] for u in client.get(f"{API}/orgs/guild/blocks", headers=basic("olga")).get_json()] == ["rosa"]
    assert_error(client.put(f"{API}/user/starred/guild/hall", headers=basic("rosa")), 403, "user is blocked")
    assert_error(client.put(f"{API}/orgs/guild/blocks/olga", headers=basic("olga")), 400)  # a member
    assert_error(client.put(f"{API}/user/blocks/guild", headers=basic("olga")), 400, "organization")
    assert_error(client.get(f"{API}/orgs/guild/blocks", headers=basic("pete")), 403)
    assert client.delete(f"{API}/orgs/guild/blocks/rosa", headers=basic("olga")).status_code == 204


def test_user_search_and_repos(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_user(client, admin_headers, "quiet")
    edit = client.patch(
        f"{API}/admin/users/quiet",
        headers=admin_headers,
        json={"login_name": "quiet", "source_id": 0, "visibility": "private"},
    )
    assert edit.status_code == 200
    found = client.get(f"{API}/users/search?q=o&limit=2")
    body = found.get_json()
    assert body["ok"] is True and [u["login"] for u in body["data"]][1:] == ["olga"]
    assert found.headers["X-Total-Count"] == "3" and 'rel="next"' in found.headers["Link"]
    assert [u["login"] for u in client.get(f"{API}/users/search?q=quiet").get_json()["data"]] == []
    seen = client.get(f"{API}/users/search?q=quiet", headers=admin_headers).get_json()["data"]
    assert [u["login"] for u in seen] == ["quiet"]
    pete_id = client.get(f"{API}/users/pete").get_json()["id"]
    assert [u["login"] for u in client.get(f"{API}/users/search?uid={pete_id}").get_json()["data"]] == ["pete"]
    assert [r["name"] for r in client.get(f"{API}/users/olga/repos").get_json()] == ["open"]
    own = client.get(f"{API}/users/olga/repos", headers=basic("olga"))
    assert [r["name"] for r in own.get_json()] == ["vault", "open"] and own.headers["X-Total-Count"] == "2"
    assert_error(client.get(f"{API}/users/quiet/repos"), 404)


def test_heatmap_counts_own_visible_actions(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    for title in ("a", "b"):
        assert (
            client.post(f"{API}/repos/olga/open/issues", headers=basic("olga"), json={"title": title}).status_code
            == 201
        )
    assert client.post(f"{API}/repos/olga/vault/issues", headers=basic("olga"), json={"title": "c"}).status_code == 201
    public = client.get(f"{API}/users/olga/heatmap").get_json()
    own = client.get(f"{API}/users/olga/heatmap", headers=basic("olga")).get_json()
    assert all(item["timestamp"] % 900 == 0 for item in public)
    assert sum(item["contributions"] for item in own) - sum(item["contributions"] for item in public) >= 2
    assert client.get(f"{API}/users/pete/heatmap").get_json() == []


def test_oauth2_application_lifecycle(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    body = {"name": "app", "redirect_uris": ["https://example.com/cb"], "confidential_client": True}
    created = client.post(f"{API}/user/applications/oauth2", headers=basic("olga"), json=body)
    assert created.status_code == 201
    app = created.get_json()
    assert app["client_secret"].startswith("gto_") and len(app["client_secret"]) == 56
    assert len(app["client_id"]) == 36 and app["confidential_client"] is True
    assert app["skip_secondary_authorization"] is False and app["redirect_uris"] == body["redirect_uris"]
    url = f"{API}/user/applications/oauth2/{app['id']}"
    got = client.get(url, headers=basic("olga")).get_json()
    assert got["client_secret"] == "" and got["client_id"] == app["client_id"]
    listed = client.get(f"{API}/user/applications/oauth2", headers=basic("olga")).get_json()
    assert [(a["id"], a["client_secret"]) for a in listed] == [(app["id"], "")]
    assert_error(client.get(url, headers=basic("pete")), 404)
    changed = client.patch(url, headers=basic("olga"), json={**body, "confidential_client": False}).get_json()
    assert changed["client_secret"] not in ("", app["client_secret"]) and changed["confidential_client"] is False
    stored = client.application.extensions["forge"].db.one("SELECT secret_hash FROM oauth2_application")
    assert stored["secret_hash"] == hashlib.sha256(changed["client_secret"].encode()).hexdigest()
    bad = {**body, "redirect_uris": ["my-app:foo"]}
    assert_error(client.post(f"{API}/user/applications/oauth2", headers=basic("olga"), json=bad), 400)
    assert_error(client.post(f"{API}/user/applications/oauth2", headers=basic("olga"), json={"name": "x"}), 422)
    assert_error(client.delete(url, headers=basic("pete")), 404)
    assert client.delete(url, headers=basic("olga")).status_code == 204
    assert_error(client.delete(url, headers=basic("olga")), 404)


def test_block_cancels_and_refuses_transfers(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert client.post(f"{API}/user/repos", headers=basic("pete"), json={"name": "tool"}).status_code == 201
    offer = client.post(f"{API}/repos/pete/tool/transfer", headers=basic("pete"), json={"new_owner": "olga"})
    assert offer.status_code == 201
    assert client.put(f"{API}/user/blocks/pete", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/repos/pete/tool").get_json()["repo_transfer"] is None
    again = client.post(f"{API}/repos/pete/tool/transfer", headers=basic("pete"), json={"new_owner": "olga"})
    assert_error(again, 403, "user is blocked")
