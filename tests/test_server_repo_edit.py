"""Editing a repository: fields, rename with its Git directory, default branch with its event, archiving,
and the admin-only rule."""

from __future__ import annotations

import base64
from typing import Any

from flask import Flask
from test_server_contents import API, PASSWORD, ann, assert_error, b64, create

from reference_server.events import DefaultBranchChangedEvent

Client = Any
"""The Flask test client, loosely typed: its ``.json`` is read as the JSON the server sent."""

__all__ = ["ann"]


def test_fields_change_and_show(client: Client, ann: dict[str, str]) -> None:
    body = {
        "description": "d",
        "website": "https://example.com",
        "private": True,
        "template": True,
        "has_issues": False,
    }
    edited = client.patch(API, headers=ann, json=body)
    assert edited.status_code == 200, edited.json
    repo = edited.json
    assert (repo["description"], repo["website"], repo["private"], repo["template"]) == (
        "d",
        "https://example.com",
        True,
        True,
    )
    assert repo["has_issues"] is False and repo["has_pull_requests"] is True
    assert client.get(API, headers=ann).json == repo
    assert_error(client.patch(API, headers=ann, json={"private": "yes"}), 422, "private")
    assert_error(client.patch(API, headers=ann, json={"description": "x" * 3000}), 422, "")


def test_rename_moves_the_git_directory(app: Flask, client: Client, ann: dict[str, str]) -> None:
    create(client, ann, "a.txt", b"a")
    root = app.extensions["forge"].config.data_dir / "git" / "ann"
    renamed = client.patch(API, headers=ann, json={"name": "tools"})
    assert renamed.status_code == 200 and renamed.json["full_name"] == "ann/tools"
    assert not (root / "code.git").exists() and (root / "tools.git").is_dir()
    assert client.get(API, headers=ann).status_code == 404
    read = client.get("/api/v1/repos/ann/tools/contents/a.txt", headers=ann).json
    assert base64.b64decode(read["content"]) == b"a"
    assert client.post("/api/v1/user/repos", headers=ann, json={"name": "other"}).status_code == 201
    other = "/api/v1/repos/ann/other"
    assert_error(client.patch(other, headers=ann, json={"name": "Tools"}), 422, "already taken")
    assert_error(client.patch(other, headers=ann, json={"name": "bad name"}), 422, "")
    assert_error(client.patch(other, headers=ann, json={"name": "x.git"}), 422, "")
    assert (root / "other.git").is_dir()
    assert client.patch(other, headers=ann, json={"name": "OTHER"}).json["name"] == "OTHER"


def test_default_branch(app: Flask, client: Client, ann: dict[str, str]) -> None:
    seen: list[DefaultBranchChangedEvent] = []
    app.extensions["forge"].events.subscribe(DefaultBranchChangedEvent, seen.append)
    create(client, ann, "a.txt", b"a")
    create(client, ann, "b.txt", b"b", new_branch="dev")
    unchanged = client.patch(API, headers=ann, json={"default_branch": "nope"})
    assert unchanged.status_code == 200 and unchanged.json["default_branch"] == "main" and not seen
    changed = client.patch(API, headers=ann, json={"default_branch": "dev"})
    assert changed.json["default_branch"] == "dev"
    assert seen == [DefaultBranchChangedEvent(changed.json["id"], "main", "dev")]
    listing = client.get(f"{API}/contents", headers=ann).json
    assert sorted(entry["name"] for entry in listing) == ["a.txt", "b.txt"]


def test_archive_and_unarchive(client: Client, ann: dict[str, str]) -> None:
    archived = client.patch(API, headers=ann, json={"archived": True}).json
    assert archived["archived"] is True and not archived["archived_at"].startswith("0001")
    assert_error(client.post(f"{API}/contents/x", headers=ann, json={"content": b64(b"x")}), 423, "repo is archived")
    back = client.patch(API, headers=ann, json={"archived": False}).json
    assert back["archived"] is False
    assert client.post(f"{API}/contents/x", headers=ann, json={"content": b64(b"x")}).status_code == 201


def test_only_repository_admins_edit(client: Client, admin_headers: dict[str, str], ann: dict[str, str]) -> None:
    body = {"username": "bo", "email": "bo@example.com", "password": PASSWORD}
    assert client.post("/api/v1/admin/users", headers=admin_headers, json=body).status_code == 201
    basic = {"Authorization": "Basic " + base64.b64encode(f"bo:{PASSWORD}".encode()).decode()}
    assert_error(client.patch(API, headers=basic, json={"description": "mine"}), 403, "")
    assert_error(client.patch(API, json={"description": "anon"}), 401, "")
    assert_error(client.patch("/api/v1/repos/ann/none", headers=ann, json={}), 404, "")
    assert client.get(API, headers=ann).json["description"] == ""
