"""PATCH /admin/users/{username}: Gitea's EditUserOption, its refusals and the limits it sets."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

API = "/api/v1"
PASSWORD = "edit-password-1"


def _user(client: FlaskClient, admin: dict[str, str], name: str) -> None:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201


def _edit(client: FlaskClient, headers: dict[str, str], name: str, **fields: Any) -> tuple[int, Any]:
    body = {"source_id": 0, "login_name": name, **fields}
    answer = client.patch(f"{API}/admin/users/{name}", headers=headers, json=body)
    return answer.status_code, answer.get_json()


def test_the_last_administrator_keeps_the_role(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    me = client.get(f"{API}/user", headers=admin_headers).get_json()["login"]
    status, body = _edit(client, admin_headers, me, admin=False)
    assert (status, body["message"]) == (400, "can not delete the last admin user [uid: 1]")
    assert client.get(f"{API}/user", headers=admin_headers).get_json()["is_admin"] is True


def test_a_second_administrator_can_be_demoted(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _user(client, admin_headers, "deputy")
    assert _edit(client, admin_headers, "deputy", admin=True)[1]["is_admin"] is True
    status, body = _edit(client, admin_headers, "deputy", admin=False)
    assert status == 200 and body["is_admin"] is False


def test_refusals_change_nothing(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _user(client, admin_headers, "bob")
    before = client.get(f"{API}/users/bob", headers=admin_headers).get_json()
    for fields, status, message in (
        ({"source_id": 3}, 422, "login source does not exist [id: 3]"),
        ({"max_repo_creation": -2}, 422, "[MaxRepoCreation]"),
        ({"website": "ftp://x"}, 422, "[Website]: ValidUrl"),
        ({"visibility": "secret"}, 422, "[Visibility]"),
        ({"email": "not-an-address"}, 400, "e-mail invalid"),
        ({"password": "short", "full_name": "Changed"}, 400, "password must be at least 8 characters"),
    ):
        answer, body = _edit(client, admin_headers, "bob", **fields)
        assert answer == status and message in body["message"], (fields, answer, body)
    assert client.get(f"{API}/users/bob", headers=admin_headers).get_json() == before


def test_an_organization_is_not_edited_as_a_user(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    assert client.post(f"{API}/orgs", headers=admin_headers, json={"username": "guild"}).status_code == 201
    status, body = _edit(client, admin_headers, "guild", full_name="x")
    assert (status, body["message"]) == (422, "guild is an organization not a user")


def test_an_unknown_user_is_404(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    status, body = _edit(client, admin_headers, "nobody", full_name="x")
    assert status == 404 and "user does not exist" in body["message"]


def test_site_administrators_are_not_bound_by_the_repository_limit(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    me = client.get(f"{API}/user", headers=admin_headers).get_json()["login"]
    assert _edit(client, admin_headers, me, max_repo_creation=0)[0] == 200
    assert client.post(f"{API}/user/repos", headers=admin_headers, json={"name": "more"}).status_code == 201
