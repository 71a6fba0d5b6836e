"""``GET|PATCH /user/settings``: Gitea's UserSettings object, length limits (422, nothing stored), the User JSON."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient


def _user(client: FlaskClient, admin_headers: dict[str, str], scopes: list[str] | None = None) -> dict[str, str]:
    created = client.post(
        "/api/v1/admin/users",
        json={"username": "carol", "email": "carol@example.test", "password": "pw-carol-carol"},
        headers=admin_headers,
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    token = client.post(
        "/api/v1/users/carol/tokens",
        json={"name": "t", "scopes": scopes or ["all"]},
        auth=("carol", "pw-carol-carol"),
    )
    assert token.status_code == 201, token.get_data(as_text=True)
    return {"Authorization": f"token {token.get_json()['sha1']}"}


def test_new_user_has_defaults(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    headers = _user(client, admin_headers)
    response = client.get("/api/v1/user/settings", headers=headers)
    assert response.status_code == 200
    assert response.get_json() == {
        "full_name": "",
        "website": "",
        "description": "",
        "location": "",
        "language": "",
        "theme": "gitea-auto",
        "diff_view_style": "",
        "hide_email": False,
        "hide_activity": False,
    }


def test_patch_changes_only_what_it_names_and_the_user_json_shows_it(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    headers = _user(client, admin_headers)
    first = client.patch(
        "/api/v1/user/settings",
        json={"full_name": "Carol C", "website": "https://carol.example", "hide_email": True, "theme": "gitea-dark"},
        headers=headers,
    )
    assert first.status_code == 200, first.get_data(as_text=True)
    second = client.patch("/api/v1/user/settings", json={"location": "Lyon"}, headers=headers)
    body = second.get_json()
    assert (body["full_name"], body["website"], body["location"]) == ("Carol C", "https://carol.example", "Lyon")
    assert (body["hide_email"], body["theme"], body["hide_activity"]) == (True, "gitea-dark", False)
    me = client.get("/api/v1/user", headers=headers).get_json()
    assert (me["full_name"], me["website"], me["location"]) == ("Carol C", "https://carol.example", "Lyon")
    assert client.get("/api/v1/user/settings", headers=headers).get_json() == body


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"full_name": "x" * 101}, "[FullName]: MaxSize(100)"),
        ({"website": "https://e.example/" + "x" * 240}, "[Website]: MaxSize(255)"),
        ({"website": "not a url"}, "[Website]: ValidUrl"),
        ({"website": "ftp://files.example"}, "[Website]: ValidUrl"),
        ({"description": "x" * 256}, "[Description]: MaxSize(255)"),
        ({"location": "x" * 51}, "[Location]: MaxSize(50)"),
        ({"hide_email": "yes"}, "[HideEmail]: must be a boolean"),
        ({"full_name": 5}, "[FullName]: must be a string"),
        ({"full_name": "ok", "location": "x" * 51}, "[Location]: MaxSize(50)"),
    ],
)
def test_bad_values_are_refused_and_nothing_changes(
    client: FlaskClient, admin_headers: dict[str, str], body: dict[str, Any], message: str
) -> None:
    headers = _user(client, admin_headers)
    before = client.get("/api/v1/user/settings", headers=headers).get_json()
    response = client.patch("/api/v1/user/settings", json=body, headers=headers)
    assert (response.status_code, response.get_json()["message"]) == (422, message)
    assert client.get("/api/v1/user/settings", headers=headers).get_json() == before


def test_limits_are_inclusive_and_empty_website_clears(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    headers = _user(client, admin_headers)
    at_limit = {"full_name": "x" * 100, "description": "d" * 255, "location": "l" * 50, "website": "http://a.example"}
    assert client.patch("/api/v1/user/settings", json=at_limit, headers=headers).status_code == 200
    cleared = client.patch("/api/v1/user/settings", json={"website": ""}, headers=headers).get_json()
    assert cleared["website"] == "" and cleared["full_name"] == "x" * 100


def test_body_must_be_an_object(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    headers = _user(client, admin_headers)
    assert client.patch("/api/v1/user/settings", json=["x"], headers=headers).status_code == 422


def test_scopes_and_authentication(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    assert client.get("/api/v1/user/settings").status_code == 401
    headers = _user(client, admin_headers, ["read:user"])
    assert client.get("/api/v1/user/settings", headers=headers).status_code == 200
    refused = client.patch("/api/v1/user/settings", json={"location": "x"}, headers=headers)
    assert refused.status_code == 403
