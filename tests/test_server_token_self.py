"""``GET|DELETE /token``: a token introspects and deletes itself; only a token in the Authorization header counts."""

from __future__ import annotations

import base64

import pytest
from flask.testing import FlaskClient

PASSWORD = "pw-carol-carol-carol"


def _user_with_token(client: FlaskClient, admin_headers: dict[str, str], scopes: list[str]) -> tuple[int, str]:
    created = client.post(
        "/api/v1/admin/users",
        json={"username": "carol", "email": "carol@example.test", "password": PASSWORD},
        headers=admin_headers,
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    basic = base64.b64encode(f"carol:{PASSWORD}".encode()).decode()
    token = client.post(
        "/api/v1/users/carol/tokens",
        json={"name": "self", "scopes": scopes},
        headers={"Authorization": f"Basic {basic}"},
    )
    assert token.status_code == 201, token.get_data(as_text=True)
    return int(token.get_json()["id"]), str(token.get_json()["sha1"])


@pytest.mark.parametrize("scheme", ["token", "Bearer"])
def test_a_token_sees_itself(client: FlaskClient, admin_headers: dict[str, str], scheme: str) -> None:
    token_id, secret = _user_with_token(client, admin_headers, ["read:repository"])
    response = client.get("/api/v1/token", headers={"Authorization": f"{scheme} {secret}"})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert (body["id"], body["name"], body["scopes"]) == (token_id, "self", ["read:repository"])
    assert body["user"]["login"] == "carol" and isinstance(body["user"]["id"], int)
    assert body["created_at"].endswith("+00:00") and body["last_used_at"].endswith("+00:00")
    assert secret not in response.get_data(as_text=True)


def test_a_token_deletes_itself_and_is_refused_afterwards(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _, secret = _user_with_token(client, admin_headers, ["all"])
    headers = {"Authorization": f"token {secret}"}
    assert client.delete("/api/v1/token", headers=headers).status_code == 204
    assert client.get("/api/v1/token", headers=headers).status_code == 401
    assert client.delete("/api/v1/token", headers=headers).status_code == 401
    assert client.get("/api/v1/user", headers=headers).status_code == 401


def test_other_credentials_are_not_a_current_token(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _, secret = _user_with_token(client, admin_headers, ["all"])
    password = base64.b64encode(f"carol:{PASSWORD}".encode()).decode()
    token_as_password = base64.b64encode(f"carol:{secret}".encode()).decode()
    for headers, query in (
        ({"Authorization": f"Basic {password}"}, {}),
        ({"Authorization": f"Basic {token_as_password}"}, {}),
        ({}, {"token": secret}),
    ):
        for method in ("GET", "DELETE"):
            response = client.open("/api/v1/token", method=method, headers=headers, query_string=query)
            assert response.status_code == 404, (method, headers, query)
            assert response.get_json()["message"] == "invalid access token"
    assert client.get("/api/v1/token", headers={"Authorization": f"token {secret}"}).status_code == 200


def test_no_or_bad_credentials_are_unauthorized(client: FlaskClient) -> None:
    assert client.get("/api/v1/token").status_code == 401
    assert client.delete("/api/v1/token").status_code == 401
    bad = {"Authorization": "token 0000000000000000000000000000000000000000"}
    assert client.get("/api/v1/token", headers=bad).status_code == 401
    assert client.delete("/api/v1/token", headers=bad).status_code == 401


def test_deleting_one_token_leaves_the_others(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _, secret = _user_with_token(client, admin_headers, ["all"])
    assert client.delete("/api/v1/token", headers={"Authorization": f"token {secret}"}).status_code == 204
    assert client.get("/api/v1/token", headers=admin_headers).status_code == 200
