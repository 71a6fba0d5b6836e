"""Shared set-up of the issues and pulls tests: an owner with a public repository, a second user who
only reads it, and small request helpers."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from flask.testing import FlaskClient

__all__ = ["API", "Forge", "assert_error"]

API = "/api/v1/repos/ann/code"
PASSWORD = "correct horse battery"


def assert_error(response: Any, status: int, contains: str = "") -> None:
    """The one shape of a refusal: the status and Gitea's ``{message, url}`` body."""
    assert response.status_code == status, (response.status_code, response.data)
    assert set(response.json) == {"message", "url"}
    assert contains.lower() in response.json["message"].lower(), response.json["message"]


class Forge:
    """Requests as ``ann`` (owner of ``ann/code``), ``bob`` (a reader) or anonymously."""

    def __init__(self, client: FlaskClient, admin_headers: dict[str, str]) -> None:
        self.client = client
        self.admin = admin_headers
        self.ann = self._user("ann")
        self.bob = self._user("bob")
        assert client.post("/api/v1/user/repos", headers=self.ann, json={"name": "code"}).status_code == 201

    def _user(self, name: str) -> dict[str, str]:
        body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD}
        assert self.client.post("/api/v1/admin/users", headers=self.admin, json=body).status_code == 201
        basic = {"Authorization": "Basic " + base64.b64encode(f"{name}:{PASSWORD}".encode()).decode()}
        token = self.client.post(f"/api/v1/users/{name}/tokens", headers=basic, json={"name": "t", "scopes": ["all"]})
        assert token.json is not None
        return {"Authorization": f"token {token.json['sha1']}"}

    def call(self, method: str, path: str, who: dict[str, str] | None = None, **kwargs: Any) -> Any:
        return self.client.open(f"{API}{path}", method=method, headers=who or {}, **kwargs)

    def ok(self, method: str, path: str, who: dict[str, str] | None, status: int, **kwargs: Any) -> Any:
        response = self.call(method, path, who, **kwargs)
        assert response.status_code == status, (response.status_code, response.data)
        return response.json

    def commit(self, path: str, content: str, *, branch: str = "main", new_branch: str | None = None) -> str:
        """A file written through the contents API; returns the new commit's SHA."""
        current = self.call("GET", f"/contents/{path}", self.ann, query_string={"ref": branch})
        body: dict[str, Any] = {"content": base64.b64encode(content.encode()).decode(), "branch": branch}
        if new_branch:
            body["new_branch"] = new_branch
        if current.status_code == 200:
            body["sha"] = current.json["sha"]
            response = self.call("PUT", f"/contents/{path}", self.ann, json=body)
        else:
            response = self.call("POST", f"/contents/{path}", self.ann, json=body)
        assert response.status_code in (200, 201), response.json
        sha: str = response.json["commit"]["sha"]
        return sha

    def issue(self, title: str = "A bug", who: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = self.ok("POST", "/issues", who or self.ann, 201, json={"title": title, **extra})
        return body


@pytest.fixture
def forge_env(client: FlaskClient, admin_headers: dict[str, str]) -> Forge:
    return Forge(client, admin_headers)
