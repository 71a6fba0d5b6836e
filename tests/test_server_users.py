"""Users, access tokens, organizations and the bootstrap admin of the reference server."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.app import create_app
from reference_server.config import Config
from reference_server.permissions import is_org_member, is_org_owner
from reference_server.users import models as users

ADMIN_TOKEN = "0123456789abcdef0123456789abcdef01234567"  # the token tests/conftest.py configures
ADMIN_PASSWORD = "admin-password-1"  # the password tests/conftest.py configures

PASSWORD = "correct-horse-battery"


def basic(user: str, password: str = PASSWORD) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def token_header(token: str) -> dict[str, str]:
    return {"Authorization": f"token {token}"}


def make_user(client: FlaskClient, admin: dict[str, str], name: str, **extra: Any) -> dict[str, Any]:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, **extra}
    response = client.post("/api/v1/admin/users", headers=admin, json=body)
    assert response.status_code == 201, response.json
    created = response.json
    assert isinstance(created, dict)
    return created


def make_token(client: FlaskClient, name: str, scopes: list[str], label: str = "t") -> str:
    body = {"name": label, "scopes": scopes}
    response = client.post(f"/api/v1/users/{name}/tokens", headers=basic(name), json=body)
    assert response.status_code == 201, response.json
    assert response.json is not None
    return str(response.json["sha1"])


def assert_error(response: Any, status: int, contains: str = "") -> None:
    assert response.status_code == status, (response.status_code, response.data)
    body = response.json
    assert set(body) == {"message", "url"}, body
    assert contains.lower() in body["message"].lower(), body["message"]


# -- bootstrap admin -------------------------------------------------------------------------------


def test_admin_token_from_config_authenticates_as_site_admin(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    response = client.get("/api/v1/user", headers=admin_headers)
    assert response.status_code == 200
    assert response.json is not None
    assert response.json["login"] == "forge_admin"
    assert response.json["is_admin"] is True


def test_generated_admin_token_is_returned_once_and_works(tmp_path: Path) -> None:
    config = Config(data_dir=tmp_path / "d", base_url="http://forge.test/")
    app = create_app(config)
    generated = app.config["GENERATED_ADMIN_TOKEN"]
    assert isinstance(generated, str) and len(generated) == 40
    response = app.test_client().get("/api/v1/user", headers=token_header(generated))
    assert response.status_code == 200
    app.extensions["forge"].db.close()
    again = create_app(Config(data_dir=tmp_path / "d", base_url="http://forge.test/"))
    assert again.config["GENERATED_ADMIN_TOKEN"] is None
    assert again.test_client().get("/api/v1/user", headers=token_header(generated)).status_code == 200
    again.extensions["forge"].db.close()


def test_rotating_the_configured_admin_token_revokes_the_previous_one(tmp_path: Path) -> None:
    def start(token: str | None) -> Flask:
        config = Config(
            data_dir=tmp_path / "d", base_url="http://forge.test/", admin_token=token, admin_password="pw-12345"
        )
        return create_app(config)

    first = start("a" * 40)
    client = first.test_client()
    own = client.post(
        "/api/v1/users/forge_admin/tokens",
        headers=basic("forge_admin", "pw-12345"),
        json={"name": "mine", "scopes": ["all"]},
    ).json
    assert own is not None
    first.extensions["forge"].db.close()
    second = start("b" * 40)
    client = second.test_client()
    assert_error(client.get("/api/v1/user", headers=token_header("a" * 40)), 401)
    assert client.get("/api/v1/user", headers=token_header("b" * 40)).status_code == 200
    assert (
        client.get("/api/v1/user", headers=token_header(own["sha1"])).status_code == 200
    )  # the admin's own token stays
    second.extensions["forge"].db.close()
    third = start(None)  # no configured token: the admin still has tokens, so none is generated
    assert third.config["GENERATED_ADMIN_TOKEN"] is None
    assert third.test_client().get("/api/v1/user", headers=token_header("b" * 40)).status_code == 200
    third.extensions["forge"].db.close()


def test_configured_admin_name_of_an_existing_user_makes_it_site_admin(tmp_path: Path) -> None:
    first = create_app(Config(data_dir=tmp_path / "d", admin_token=ADMIN_TOKEN))
    make_user(first.test_client(), token_header(ADMIN_TOKEN), "boss")
    first.extensions["forge"].db.close()
    second = create_app(Config(data_dir=tmp_path / "d", admin_username="boss", admin_token="c" * 40))
    me = second.test_client().get("/api/v1/user", headers=token_header("c" * 40)).json
    assert me is not None and me["login"] == "boss" and me["is_admin"] is True
    second.extensions["forge"].db.close()


def test_admin_password_from_config_logs_in(tmp_path: Path) -> None:
    config = Config(data_dir=tmp_path / "d", admin_password="admin-password-1", admin_token="T" * 8)
    app = create_app(config)
    response = app.test_client().get("/api/v1/user", headers=basic("forge_admin", "admin-password-1"))
    assert response.status_code == 200
    app.extensions["forge"].db.close()


# -- creating and reading users ------------------------------------------------------------------


def test_admin_creates_user_and_gets_gitea_user(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    user = make_user(client, admin_headers, "alice", full_name="Alice A")
    expected = {
        "id", "login", "login_name", "source_id", "full_name", "email", "avatar_url", "html_url", "language",
        "is_admin", "last_login", "created", "restricted", "active", "prohibit_login", "location", "website",
        "description", "visibility", "followers_count", "following_count", "starred_repos_count", "username",
    }  # fmt: skip
    assert set(user) == expected
    assert user["login"] == user["username"] == "alice"
    assert user["email"] == "alice@example.com"
    assert user["full_name"] == "Alice A"
    assert user["is_admin"] is False
    assert user["html_url"] == "http://forge.test/alice"
    assert user["created"].endswith("+00:00")


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"email": "x@example.com", "password": PASSWORD}, 422, "[Username]: Required"),
        ({"username": "bob", "password": PASSWORD}, 422, "[Email]: Required"),
        ({"username": "bob", "email": "not-an-email", "password": PASSWORD}, 422, "[Email]"),
        ({"username": "-bob", "email": "b@example.com", "password": PASSWORD}, 422, "[Username]"),
        ({"username": "bo..b", "email": "b@example.com", "password": PASSWORD}, 422, "[Username]"),
        ({"username": "b" * 41, "email": "b@example.com", "password": PASSWORD}, 422, "MaxSize"),
        ({"username": "api", "email": "b@example.com", "password": PASSWORD}, 422, "reserved"),
        ({"username": "bob.keys", "email": "b@example.com", "password": PASSWORD}, 422, "pattern"),
        ({"username": "bob", "email": "b@example.com"}, 400, "password"),
        ({"username": "bob", "email": "b@example.com", "password": "short"}, 400, "password"),
        ({"username": "bob", "email": "b@example.com", "password": PASSWORD, "visibility": "x"}, 422, "Visibility"),
        ({"username": "bob", "email": "b@example.com", "password": PASSWORD, "full_name": 7}, 422, "FullName"),
        # the lone surrogate becomes U+FFFD, as Go decodes it, and no e-mail address holds that
        ({"username": "bob", "email": "b\ud800@example.com", "password": PASSWORD}, 422, "[Email]"),
    ],
)
def test_create_user_refuses_bad_input(
    client: FlaskClient, admin_headers: dict[str, str], body: dict[str, Any], status: int, message: str
) -> None:
    assert_error(client.post("/api/v1/admin/users", headers=admin_headers, json=body), status, message)
    assert client.get("/api/v1/users/bob", headers=admin_headers).status_code == 404


def test_create_user_keeps_a_given_creation_time(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    user = make_user(client, admin_headers, "old", created_at="2020-02-03T04:05:06Z")
    assert user["created"] == "2020-02-03T04:05:06+00:00"
    naive = make_user(client, admin_headers, "old2", created_at="2020-02-03T04:05:06")
    assert naive["created"] == "2020-02-03T04:05:06+00:00"
    body = {"username": "old3", "email": "o3@example.com", "password": PASSWORD, "created_at": "last year"}
    assert_error(client.post("/api/v1/admin/users", headers=admin_headers, json=body), 422, "CreatedAt")


def test_create_user_refuses_taken_name_and_email(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "carol")
    same_name = {"username": "CAROL", "email": "other@example.com", "password": PASSWORD}
    assert_error(client.post("/api/v1/admin/users", headers=admin_headers, json=same_name), 422, "already exists")
    same_email = {"username": "carol2", "email": "Carol@Example.com", "password": PASSWORD}
    assert_error(client.post("/api/v1/admin/users", headers=admin_headers, json=same_email), 422, "e-mail")


def test_create_user_needs_a_site_admin_with_admin_scope(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "dave")
    body = {"username": "eve", "email": "eve@example.com", "password": PASSWORD}
    assert_error(client.post("/api/v1/admin/users", json=body), 401, "token is required")
    assert_error(client.post("/api/v1/admin/users", headers=basic("dave"), json=body), 403, "site admin")
    token = make_token(client, "dave", ["write:user"])
    assert_error(client.post("/api/v1/admin/users", headers=token_header(token), json=body), 403, "write:admin")
    assert_error(client.post("/api/v1/admin/users", headers=token_header("bad" * 10), json=body), 401, "invalid")
    assert_error(client.post("/api/v1/admin/users", headers=admin_headers, data="{not json"), 422, "JSON")


def test_get_user_by_name_and_visibility(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "frank")
    make_user(client, admin_headers, "grace", visibility="private")
    make_user(client, admin_headers, "heidi", visibility="limited")
    anonymous = client.get("/api/v1/users/Frank")
    assert anonymous.status_code == 200 and anonymous.json is not None
    assert anonymous.json["login"] == "frank"
    assert anonymous.json["email"] == "frank@noreply.forge.test"  # e-mail hidden from anonymous callers
    assert_error(client.get("/api/v1/users/grace"), 404)
    assert_error(client.get("/api/v1/users/heidi"), 404)
    assert client.get("/api/v1/users/heidi", headers=basic("frank")).status_code == 200
    assert_error(client.get("/api/v1/users/grace", headers=basic("frank")), 404)
    assert client.get("/api/v1/users/grace", headers=basic("grace")).status_code == 200
    assert client.get("/api/v1/users/grace", headers=admin_headers).status_code == 200
    assert_error(client.get("/api/v1/users/nobody", headers=admin_headers), 404)


def test_account_details_only_for_self_or_admin(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "ivan")
    make_user(client, admin_headers, "judy")
    as_other = client.get("/api/v1/users/forge_admin", headers=basic("ivan")).json
    assert as_other is not None and as_other["is_admin"] is False and as_other["login_name"] == ""
    as_self = client.get("/api/v1/user", headers=basic("judy")).json
    assert as_self is not None and as_self["login_name"] == "judy" and as_self["last_login"] != "0001-01-01T00:00:00Z"


def test_get_current_user_needs_credentials_and_user_scope(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "kim")
    assert_error(client.get("/api/v1/user"), 401, "token is required")
    repo_only = make_token(client, "kim", ["read:repository"])
    assert_error(client.get("/api/v1/user", headers=token_header(repo_only)), 403, "read:user")
    reader = make_token(client, "kim", ["read:user"], "reader")
    response = client.get("/api/v1/user", headers=token_header(reader))
    assert response.status_code == 200 and response.json is not None and response.json["login"] == "kim"
    assert_error(client.get("/api/v1/user", headers=basic("kim", "wrong-password")), 401, "invalid")


def test_login_by_email_and_prohibited_accounts(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "leo")
    assert client.get("/api/v1/user", headers=basic("leo@example.com")).status_code == 200
    with app.app_context():
        forge = app.extensions["forge"]
        forge.db.execute("UPDATE accounts SET prohibit_login = 1 WHERE lower_name = 'leo'")
    assert_error(client.get("/api/v1/user", headers=basic("leo")), 401)


# -- deleting users ------------------------------------------------------------------------------


def test_admin_deletes_user_and_its_tokens(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "mallory")
    token = make_token(client, "mallory", ["all"])
    assert client.delete("/api/v1/admin/users/mallory", headers=admin_headers).status_code == 204
    assert_error(client.get("/api/v1/users/mallory", headers=admin_headers), 404)
    assert_error(client.get("/api/v1/user", headers=token_header(token)), 401)
    assert_error(client.delete("/api/v1/admin/users/mallory", headers=admin_headers), 404)


def test_delete_user_with_repositories_needs_purge(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "nina")
    token = make_token(client, "nina", ["write:repository", "write:user"])
    created = client.post("/api/v1/user/repos", headers=token_header(token), json={"name": "keep", "auto_init": True})
    assert created.status_code == 201
    assert_error(client.delete("/api/v1/admin/users/nina", headers=admin_headers), 422, "repositories")
    assert client.get("/api/v1/repos/nina/keep", headers=admin_headers).status_code == 200
    assert client.delete("/api/v1/admin/users/nina?purge=true", headers=admin_headers).status_code == 204
    assert_error(client.get("/api/v1/repos/nina/keep", headers=admin_headers), 404)
    assert_error(client.delete("/api/v1/admin/users/nina?purge=maybe", headers=admin_headers), 400)


def test_admin_cannot_delete_itself_and_non_admins_cannot_delete(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    make_user(client, admin_headers, "oscar")
    assert_error(client.delete("/api/v1/admin/users/forge_admin", headers=admin_headers), 422, "yourself")
    assert_error(client.delete("/api/v1/admin/users/forge_admin", headers=basic("oscar")), 403)


# -- access tokens -------------------------------------------------------------------------------


def test_create_list_and_delete_tokens(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "peggy")
    created = client.post(
        "/api/v1/users/peggy/tokens",
        headers=basic("peggy"),
        json={"name": "ci", "scopes": ["read:repository", "write:repository", "read:user"]},
    )
    assert created.status_code == 201
    body = created.json
    assert body is not None
    assert set(body) == {"id", "name", "sha1", "token_last_eight", "scopes", "created_at", "last_used_at"}
    assert len(body["sha1"]) == 40 and int(body["sha1"], 16) >= 0
    assert body["token_last_eight"] == body["sha1"][-8:]
    assert body["scopes"] == ["write:repository", "read:user"]  # write swallows read
    assert client.get("/api/v1/user", headers=token_header(body["sha1"])).status_code == 200
    listed = client.get("/api/v1/users/peggy/tokens", headers=basic("peggy"))
    assert listed.status_code == 200 and listed.headers["X-Total-Count"] == "1"
    assert listed.json is not None
    assert [t["name"] for t in listed.json] == ["ci"]
    assert listed.json[0]["sha1"] == ""  # the plaintext is shown once only
    assert listed.json[0]["last_used_at"] != "0001-01-01T00:00:00Z"
    assert client.delete("/api/v1/users/peggy/tokens/ci", headers=basic("peggy")).status_code == 204
    assert_error(client.get("/api/v1/user", headers=token_header(body["sha1"])), 401)
    assert_error(client.delete("/api/v1/users/peggy/tokens/ci", headers=basic("peggy")), 404)


def test_delete_token_by_id(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "quinn")
    created = client.post("/api/v1/users/quinn/tokens", headers=basic("quinn"), json={"name": "x", "scopes": ["all"]})
    assert created.json is not None
    token_id = created.json["id"]
    assert client.delete(f"/api/v1/users/quinn/tokens/{token_id}", headers=basic("quinn")).status_code == 204
    listed = client.get("/api/v1/users/quinn/tokens", headers=basic("quinn"))
    assert listed.json == []


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"scopes": ["all"]}, 422, "[Name]: Required"),
        ({"name": "x", "scopes": ["write:everything"]}, 400, "scope"),
        ({"name": "x", "scopes": ["delete:repository"]}, 400, "scope"),
        ({"name": "x", "scopes": []}, 400, "must have a scope"),
        ({"name": "x"}, 400, "must have a scope"),
        ({"name": "x", "scopes": ["public-only"]}, 400, "must have a scope"),
        ({"name": "x", "scopes": "write:user"}, 422, "[Scopes]"),
        ({"name": "x", "scopes": [1]}, 422, "[Scopes]"),
    ],
)
def test_create_token_refuses_bad_input(
    client: FlaskClient, admin_headers: dict[str, str], body: dict[str, Any], status: int, message: str
) -> None:
    make_user(client, admin_headers, "rupert")
    response = client.post("/api/v1/users/rupert/tokens", headers=basic("rupert"), json=body)
    assert_error(response, status, message)
    assert client.get("/api/v1/users/rupert/tokens", headers=basic("rupert")).json == []


def test_token_name_must_be_unique_per_user(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "sybil")
    make_user(client, admin_headers, "trent")
    make_token(client, "sybil", ["all"], "same")
    make_token(client, "trent", ["all"], "same")  # another user may reuse the name
    response = client.post(
        "/api/v1/users/sybil/tokens", headers=basic("sybil"), json={"name": "same", "scopes": ["all"]}
    )
    assert_error(response, 400, "has been used")


def test_token_routes_need_basic_auth_and_self_or_admin(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "uma")
    make_user(client, admin_headers, "victor")
    token = make_token(client, "uma", ["all"])
    body = {"name": "n", "scopes": ["all"]}
    assert_error(client.post("/api/v1/users/uma/tokens", json=body), 401, "token is required")
    assert_error(client.post("/api/v1/users/uma/tokens", headers=token_header(token), json=body), 401, "auth required")
    assert_error(client.post("/api/v1/users/uma/tokens", headers=basic("victor"), json=body), 403, "contextUser")
    assert_error(client.get("/api/v1/users/uma/tokens", headers=basic("victor")), 403)
    # a token given as the basic-auth password proves no password: it never mints, lists or deletes tokens
    as_uma = basic("uma", token)
    assert_error(client.post("/api/v1/users/uma/tokens", headers=as_uma, json=body), 401, "auth required")
    assert_error(client.get("/api/v1/users/uma/tokens", headers=as_uma), 401, "auth required")
    assert_error(client.post("/api/v1/users/uma/tokens", headers=basic("forge_admin", ADMIN_TOKEN), json=body), 401)
    assert client.post("/api/v1/users/uma/tokens", headers=basic("uma"), json=body).status_code == 201
    # a site admin acts for anyone, with its password
    as_admin = basic("forge_admin", ADMIN_PASSWORD)
    created = client.post("/api/v1/users/uma/tokens", headers=as_admin, json={"name": "by-admin", "scopes": ["all"]})
    assert created.status_code == 201
    assert client.delete("/api/v1/users/uma/tokens/by-admin", headers=as_admin).status_code == 204
    assert_error(client.get("/api/v1/users/nobody/tokens", headers=as_admin), 404)


def test_a_token_as_the_password_is_refused_before_the_user_lookup(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    make_user(client, admin_headers, "wendy")
    token = make_token(client, "wendy", ["read:repository"])
    response = client.post("/api/v1/users/nobody/tokens", headers=basic("wendy", token), json={"name": "x"})
    assert_error(response, 401, "auth required")


def test_token_list_is_paged(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "xena")
    for index in range(3):
        make_token(client, "xena", ["all"], f"t{index}")
    page = client.get("/api/v1/users/xena/tokens?limit=2&page=2", headers=basic("xena"))
    assert page.status_code == 200 and page.json is not None
    assert page.headers["X-Total-Count"] == "3"
    assert [t["name"] for t in page.json] == ["t0"]
    assert 'rel="first"' in page.headers["Link"]
    far = client.get("/api/v1/users/xena/tokens?page=99999999999999999999", headers=basic("xena"))
    assert far.status_code == 200 and far.json == []
    assert_error(client.get("/api/v1/users/xena/tokens?limit=many", headers=basic("xena")), 400, "limit")


def test_public_only_token_hides_private_repositories(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "yara")
    full = make_token(client, "yara", ["write:repository", "write:user"])
    client.post("/api/v1/user/repos", headers=token_header(full), json={"name": "secret", "private": True})
    public_only = make_token(client, "yara", ["read:repository", "public-only"], "pub")
    assert client.get("/api/v1/repos/yara/secret", headers=token_header(full)).status_code == 200
    assert_error(client.get("/api/v1/repos/yara/secret", headers=token_header(public_only)), 404)


# -- organizations -------------------------------------------------------------------------------


def test_create_get_and_delete_organization(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "zoe")
    token = make_token(client, "zoe", ["write:organization", "write:repository"])
    created = client.post(
        "/api/v1/orgs", headers=token_header(token), json={"username": "acme", "full_name": "Acme", "website": "w"}
    )
    assert created.status_code == 201
    org = created.json
    assert org is not None
    assert set(org) == {
        "id", "name", "full_name", "email", "avatar_url", "description", "website", "location", "visibility",
        "repo_admin_change_team_access", "username",
    }  # fmt: skip
    assert (org["name"], org["username"], org["full_name"], org["visibility"]) == ("acme", "acme", "Acme", "public")
    fetched = client.get("/api/v1/orgs/ACME")
    assert fetched.status_code == 200 and fetched.json == org
    assert client.delete("/api/v1/orgs/acme", headers=token_header(token)).status_code == 204
    assert_error(client.get("/api/v1/orgs/acme"), 404)


def test_organization_errors(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "olga")
    make_user(client, admin_headers, "pete")
    token = make_token(client, "olga", ["write:organization", "write:repository"])
    headers = token_header(token)
    assert_error(client.post("/api/v1/orgs", headers=headers, json={}), 422, "[Username]: Required")
    assert_error(client.post("/api/v1/orgs", headers=headers, json={"username": "pete"}), 422, "already exists")
    assert_error(client.post("/api/v1/orgs", headers=headers, json={"username": "x", "visibility": "?"}), 422)
    assert_error(client.post("/api/v1/orgs", json={"username": "anon"}), 401)
    user_only = make_token(client, "olga", ["write:user"], "u")
    assert_error(client.post("/api/v1/orgs", headers=token_header(user_only), json={"username": "o2"}), 403)
    assert (
        client.post("/api/v1/orgs", headers=headers, json={"username": "hidden", "visibility": "private"}).status_code
        == 201
    )
    assert_error(client.get("/api/v1/orgs/hidden"), 404)
    assert_error(client.get("/api/v1/orgs/hidden", headers=basic("pete")), 404)
    assert client.get("/api/v1/orgs/hidden", headers=basic("olga")).status_code == 200
    assert client.get("/api/v1/orgs/hidden", headers=admin_headers).status_code == 200
    assert_error(client.get("/api/v1/orgs/pete"), 404)  # a user is not an organization
    assert_error(client.delete("/api/v1/orgs/hidden", headers=basic("pete")), 404)
    client.post("/api/v1/orgs", headers=headers, json={"username": "shared"})
    assert_error(client.delete("/api/v1/orgs/shared", headers=basic("pete")), 403, "organization owner")
    repo = client.post("/api/v1/orgs/shared/repos", headers=headers, json={"name": "r"})
    assert repo.status_code == 201
    assert_error(client.delete("/api/v1/orgs/shared", headers=headers), 422, "repositories")
    assert client.delete("/api/v1/repos/shared/r", headers=headers).status_code == 204
    assert client.delete("/api/v1/orgs/shared", headers=admin_headers).status_code == 204


def test_org_membership_helpers(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:

    make_user(client, admin_headers, "quentin")
    make_user(client, admin_headers, "rita")
    client.post("/api/v1/orgs", headers=basic("quentin"), json={"username": "guild"})
    with app.app_context():
        org = users.get_user_by_name("guild")
        owner = users.get_user_by_name("quentin")
        other = users.get_user_by_name("rita")
        assert org.is_org and not owner.is_org
        assert is_org_owner(owner.id, org.id) and is_org_member(owner.id, org.id)
        assert not is_org_owner(other.id, org.id) and not is_org_member(other.id, org.id)
    assert_error(client.delete("/api/v1/admin/users/quentin", headers=admin_headers), 422, "organizations")
    assert client.delete("/api/v1/admin/users/quentin?purge=true", headers=admin_headers).status_code == 204


# -- restart -------------------------------------------------------------------------------------


def test_restart_keeps_users_tokens_orgs_and_repositories(tmp_path: Path) -> None:
    def start() -> Flask:
        return create_app(Config(data_dir=tmp_path / "data", base_url="http://forge.test/", admin_token=ADMIN_TOKEN))

    admin = token_header(ADMIN_TOKEN)
    first = start()
    client = first.test_client()
    make_user(client, admin, "sam")
    token = make_token(client, "sam", ["write:repository", "write:user", "write:organization"])
    client.post("/api/v1/orgs", headers=token_header(token), json={"username": "sam-org"})
    made = client.post("/api/v1/user/repos", headers=token_header(token), json={"name": "kept", "auto_init": True})
    assert made.status_code == 201
    first.extensions["forge"].db.close()

    second = start()
    client = second.test_client()
    me = client.get("/api/v1/user", headers=token_header(token))
    assert me.status_code == 200 and me.json is not None and me.json["login"] == "sam"
    assert client.get("/api/v1/orgs/sam-org").status_code == 200
    repo = client.get("/api/v1/repos/sam/kept", headers=token_header(token))
    assert repo.status_code == 200 and repo.json is not None and repo.json["empty"] is False
    readme = client.get("/api/v1/repos/sam/kept/contents/README.md")
    assert readme.status_code == 200 and readme.json is not None
    assert base64.b64decode(readme.json["content"]) == b"# kept\n\n\n"
    assert client.get("/api/v1/user", headers=basic("sam")).status_code == 200
    second.extensions["forge"].db.close()
