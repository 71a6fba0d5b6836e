"""Helpers shared by the commits, branches and forks tests: repositories with commits, heads, push events."""

from __future__ import annotations

import base64
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from test_server_orgs_support import API, basic, make_user

from reference_server.events import PushEvent, RepoCreatedEvent

__all__ = ["API", "basic", "commit_file", "head_of", "make_repo", "make_user", "record_events"]


def make_repo(client: FlaskClient, owner: str, name: str, **extra: Any) -> dict[str, Any]:
    """A repository of ``owner`` (a user made with ``make_user``) with an initial commit on ``main``."""
    response = client.post(f"{API}/user/repos", headers=basic(owner), json={"name": name, "auto_init": True, **extra})
    assert response.status_code == 201, response.get_data(as_text=True)
    return dict(response.get_json())


def commit_file(
    client: FlaskClient, owner: str, repo: str, path: str, *, content: str = "x", branch: str | None = None
) -> str:
    """Add one file in one commit (through the contents API); the new commit's SHA."""
    body: dict[str, Any] = {"content": base64.b64encode(content.encode()).decode()}
    if branch:
        body["branch"] = branch
    response = client.post(f"{API}/repos/{owner}/{repo}/contents/{path}", headers=basic(owner), json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return str(response.get_json()["commit"]["sha"])


def head_of(client: FlaskClient, owner: str, repo: str, branch: str) -> str | None:
    """The commit a branch points at, None when it does not exist."""
    response = client.get(f"{API}/repos/{owner}/{repo}/branches/{branch}", headers=basic(owner))
    if response.status_code == 404:
        return None
    return str(response.get_json()["commit"]["id"])


def record_events(app: Flask) -> list[object]:
    """Every ``PushEvent`` and ``RepoCreatedEvent`` published from now on, in order."""
    seen: list[object] = []
    bus = app.extensions["forge"].events
    bus.subscribe(PushEvent, seen.append)
    bus.subscribe(RepoCreatedEvent, seen.append)
    return seen
