"""Organization rename: validation, the old name's 307 redirect, and the repositories' Git directories."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    make_user(client, admin, "olga")
    make_user(client, admin, "pete")
    make_org(client, "olga", "guild")
    created = client.post(f"{API}/orgs/guild/repos", headers=basic("olga"), json={"name": "Vault", "auto_init": True})
    assert created.status_code == 201


def test_rename_moves_repositories_and_redirects(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    setup(client, admin_headers)
    data_dir = app.extensions["forge"].config.data_dir
    assert (data_dir / "git" / "guild" / "vault.git").is_dir()
    assert client.post(f"{API}/orgs/guild/rename", headers=basic("olga"), json={"new_name": "Union"}).status_code == 204
    assert not (data_dir / "git" / "guild").exists()
    assert (data_dir / "git" / "union" / "vault.git").is_dir()
    assert client.get(f"{API}/orgs/union", headers=basic("olga")).get_json()["name"] == "Union"
    moved = client.get(f"{API}/orgs/guild?x=1", headers=basic("olga"))
    assert moved.status_code == 307 and moved.headers["Location"] == f"{API}/orgs/Union?x=1"
    repo_moved = client.get(f"{API}/repos/guild/Vault/contents/README.md", headers=basic("olga"))
    assert (
        repo_moved.status_code == 307
        and repo_moved.headers["Location"] == f"{API}/repos/Union/Vault/contents/README.md"
    )
    readme = client.get(f"{API}/repos/Union/Vault/contents/README.md", headers=basic("olga"))
    assert readme.status_code == 200
    # a token without the scope is refused before the redirect; another account taking the name wins
    assert client.post(f"{API}/orgs", headers=basic("pete"), json={"username": "guild"}).status_code == 201
    assert client.get(f"{API}/orgs/guild", headers=basic("olga")).status_code == 200


def test_rename_rules(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    make_org(client, "pete", "other")
    url = f"{API}/orgs/guild/rename"
    assert_error(client.post(url, headers=basic("olga"), json={"new_name": "other"}), 422, "already exists")
    assert_error(client.post(url, headers=basic("olga"), json={"new_name": "api"}), 422, "reserved")
    assert_error(client.post(url, headers=basic("olga"), json={"new_name": "bad name"}), 422)
    assert_error(client.post(url, headers=basic("olga"), json={}), 422, "[NewName]: Required")
    assert_error(client.post(url, headers=basic("pete"), json={"new_name": "mine"}), 403)
    assert_error(client.post(f"{API}/orgs/nowhere/rename", headers=basic("olga"), json={"new_name": "x1"}), 404)
    assert client.post(url, headers=basic("olga"), json={"new_name": "guild"}).status_code == 204
    assert client.post(url, headers=basic("olga"), json={"new_name": "GUILD"}).status_code == 204
    assert client.get(f"{API}/orgs/guild", headers=basic("olga")).get_json()["name"] == "GUILD"
    assert client.get(f"{API}/repos/GUILD/Vault", headers=basic("olga")).status_code == 200


def test_interrupted_move_is_completed_at_start(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    from reference_server.orgs import rename, store

    setup(client, admin_headers)
    data_dir = app.extensions["forge"].config.data_dir
    with app.test_request_context():
        forge = app.extensions["forge"]
        with forge.db.transaction():
            org_id = forge.db.scalar("SELECT id FROM accounts WHERE lower_name = 'guild'")
            store.rename_account(int(org_id), "moved", 0)
            store.record_move(int(org_id), "guild", "moved")
        assert (data_dir / "git" / "guild" / "vault.git").is_dir()
        rename.finish_pending_moves()
        assert (data_dir / "git" / "moved" / "vault.git").is_dir()
        assert store.pending_moves() == []
    assert client.get(f"{API}/repos/moved/Vault/contents/README.md", headers=basic("olga")).status_code == 200
