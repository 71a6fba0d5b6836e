"""Helpers shared by the organization, rename and collaborator tests: users, organizations, error checks."""

from __future__ import annotations

import base64
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

__all__ = ["API", "PASSWORD", "assert_error", "basic", "make_org", "make_user"]

API = "/api/v1"
PASSWORD = "correct-horse-9"


def basic(name: str) -> dict[str, str]:
    raw = base64.b64encode(f"{name}:{PASSWORD}".encode()).decode()
    return {"Authorization": f"Basic {raw}"}


def make_user(client: FlaskClient, admin: dict[str, str], name: str) -> None:
    body = {"username": name, "email": f"{name}@example.test", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201


def make_org(client: FlaskClient, owner: str, name: str, **extra: Any) -> dict[str, Any]:
    response = client.post(f"{API}/orgs", headers=basic(owner), json={"username": name, **extra})
    assert response.status_code == 201, response.get_data(as_text=True)
    return dict(response.get_json())


def assert_error(response: TestResponse, status: int, fragment: str = "") -> None:
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) >= {"message", "url"}
    assert fragment in body["message"], body["message"]
