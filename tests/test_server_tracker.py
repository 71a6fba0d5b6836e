"""Issue tracker families: milestones (and an issue's milestone), reactions, issue and comment attachments,
deadlines, deleting an issue with everything hanging off it, the old comment routes and the repository's
comment list."""

from __future__ import annotations

import base64
import io

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

API = "/api/v1"
PASSWORD = "correct-horse-battery"
Repo = tuple[str, dict[str, str], dict[str, str]]


def _basic(user: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()}


def _user(client: FlaskClient, admin: dict[str, str], name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201
    return _basic(name)


@pytest.fixture
def repo(client: FlaskClient, admin_headers: dict[str, str]) -> Repo:
    """``ann/demo`` (public), Ann's credentials and Bob's (a reader)."""
    ann = _user(client, admin_headers, "ann")
    bob = _user(client, admin_headers, "bob")
    assert client.post(f"{API}/user/repos", headers=ann, json={"name": "demo"}).status_code == 201
    return f"{API}/repos/ann/demo", ann, bob


def _issue(client: FlaskClient, base: str, who: dict[str, str], **fields: object) -> dict[str, object]:
    answer = client.post(f"{base}/issues", headers=who, json={"title": "t", **fields})
    assert answer.status_code == 201, answer.json
    return answer.json or {}


def test_milestone_lifecycle_and_counts(client: FlaskClient, repo: Repo) -> None:
    base, ann, bob = repo
    created = client.post(f"{base}/milestones", headers=ann, json={"title": "v1", "due_on": "2030-01-02T03:04:05Z"})
    assert created.status_code == 201
    milestone = created.json or {}
    assert (milestone["state"], milestone["due_on"], milestone["closed_at"]) == (
        "open",
        "2030-01-02T03:04:05+00:00",
        None,
    )
    assert client.post(f"{base}/milestones", headers=bob, json={"title": "x"}).status_code == 403
    issue = _issue(client, base, ann, milestone=milestone["id"])
    assert (issue["milestone"] or {})["id"] == milestone["id"]  # type: ignore[index]
    _issue(client, base, ann, milestone=milestone["id"], closed=True)
    by_name = client.get(f"{base}/milestones/v1").json or {}
    assert (by_name["id"], by_name["open_issues"], by_name["closed_issues"]) == (milestone["id"], 1, 1)
    closed = client.patch(f"{base}/milestones/{milestone['id']}", headers=ann, json={"state": "closed"}).json or {}
    assert closed["state"] == "closed" and closed["closed_at"]
    assert client.get(f"{base}/milestones").json == []
    assert [item["title"] for item in client.get(f"{base}/milestones?state=all&name=V").json or []] == ["v1"]
    assert client.post(f"{base}/issues", headers=ann, json={"title": "t", "milestone": 999}).status_code == 422
    assert client.delete(f"{base}/milestones/v1", headers=ann).status_code == 204
    assert client.get(f"{base}/issues/{issue['number']}").json["milestone"] is None  # type: ignore[index]
    assert client.get(f"{base}/milestones/v1").status_code == 404


def test_reactions_allowed_duplicate_locked(client: FlaskClient, repo: Repo) -> None:
    base, ann, bob = repo
    issue = _issue(client, base, ann)
    path = f"{base}/issues/{issue['number']}/reactions"
    first = client.post(path, headers=bob, json={"content": "heart"})
    assert first.status_code == 201 and (first.json or {})["user"]["login"] == "bob"
    again = client.post(path, headers=bob, json={"content": "heart"})
    assert again.status_code == 200 and (again.json or {})["created_at"] == (first.json or {})["created_at"]
    refused = client.post(path, headers=bob, json={"content": "xyz"})
    assert (refused.status_code, (refused.json or {})["message"]) == (403, "'xyz' is not an allowed reaction")
    assert client.get(path).headers["X-Total-Count"] == "1"
    assert client.put(f"{base}/issues/{issue['number']}/lock", headers=ann, json={}).status_code == 204
    assert client.post(path, headers=bob, json={"content": "eyes"}).status_code == 403
    assert client.post(path, headers=ann, json={"content": "eyes"}).status_code == 201
    assert client.delete(path, headers=ann, json={"content": "eyes"}).status_code == 200
    assert [item["content"] for item in client.get(path).json or []] == ["heart"]


def test_comment_reactions_go_with_the_comment(client: FlaskClient, repo: Repo) -> None:
    base, ann, bob = repo
    issue = _issue(client, base, ann)
    comment = client.post(f"{base}/issues/{issue['number']}/comments", headers=bob, json={"body": "hi"}).json or {}
    path = f"{base}/issues/comments/{comment['id']}/reactions"
    assert client.post(path, headers=ann, json={"content": "+1"}).status_code == 201
    assert [item["content"] for item in client.get(path).json or []] == ["+1"]
    deprecated = f"{base}/issues/{issue['number']}/comments/{comment['id']}"
    edited = client.patch(deprecated, headers=bob, json={"body": "changed"})
    assert edited.status_code == 200 and (edited.json or {})["body"] == "changed"
    assert client.delete(deprecated, headers=bob).status_code == 204
    assert client.get(path).status_code == 404


def _upload(client: FlaskClient, path: str, who: dict[str, str], name: str, data: bytes) -> TestResponse:
    form = {"attachment": (io.BytesIO(data), name)}
    return client.post(path, headers=who, data=form, content_type="multipart/form-data")


def test_issue_attachments_download_and_go_with_the_issue(client: FlaskClient, app: Flask, repo: Repo) -> None:
    base, ann, bob = repo
    issue = _issue(client, base, bob)
    path = f"{base}/issues/{issue['number']}/assets"
    answer = _upload(client, path, bob, "notes.txt", b"hello tracker")
    assert answer.status_code == 201
    attachment = answer.json or {}
    assert attachment["size"] == len(b"hello tracker")
    download = client.get(attachment["browser_download_url"].replace("http://forge.test", ""))
    assert download.status_code == 200 and download.data == b"hello tracker"
    refused = _upload(client, path, bob, "tool.exe", b"MZ")
    assert refused.status_code == 422
    assert (client.get(f"{base}/issues/{issue['number']}").json or {})["assets"][0]["uuid"] == attachment["uuid"]
    renamed = client.patch(f"{path}/{attachment['id']}", headers=bob, json={"name": "renamed.md"})
    assert renamed.status_code == 201 and (renamed.json or {})["name"] == "renamed.md"
    blobs = list((app.extensions["forge"].blobs.root / "attachments").rglob(attachment["uuid"]))
    assert len(blobs) == 1
    assert client.delete(f"{base}/issues/{issue['number']}", headers=bob).status_code == 403
    assert client.delete(f"{base}/issues/{issue['number']}", headers=ann).status_code == 204
    assert not blobs[0].exists()
    assert client.get(attachment["browser_download_url"].replace("http://forge.test", "")).status_code == 404


def test_comment_attachments_need_a_writer(client: FlaskClient, repo: Repo) -> None:
    base, ann, bob = repo
    issue = _issue(client, base, ann)
    comment = client.post(f"{base}/issues/{issue['number']}/comments", headers=bob, json={"body": "c"}).json or {}
    path = f"{base}/issues/comments/{comment['id']}/assets"
    assert _upload(client, path, bob, "a.txt", b"x").status_code == 403
    created = _upload(client, path, ann, "a.txt", b"x")
    assert created.status_code == 201
    listed = client.get(path).json or []
    assert [item["name"] for item in listed] == ["a.txt"]
    assert client.get(f"{base}/issues/{issue['number']}/assets").json == []


def test_deadline_and_repo_comments(client: FlaskClient, repo: Repo) -> None:
    base, ann, bob = repo
    issue = _issue(client, base, ann)
    path = f"{base}/issues/{issue['number']}/deadline"
    answer = client.post(path, headers=ann, json={"due_date": "2031-05-06T10:00:00Z"})
    assert answer.status_code == 201 and answer.json == {"due_date": "2031-05-06T23:59:59+00:00"}
    assert client.get(f"{base}/issues/{issue['number']}").json["due_date"] == "2031-05-06T23:59:59+00:00"  # type: ignore[index]
    assert client.post(path, headers=bob, json={"due_date": "2031-05-06T10:00:00Z"}).status_code == 403
    removed = client.post(path, headers=ann, json={"due_date": "0001-01-01T00:00:00Z"})
    assert removed.json == {"due_date": None}
    client.post(f"{base}/issues/{issue['number']}/comments", headers=bob, json={"body": "one"})
    second = _issue(client, base, ann)
    client.post(f"{base}/issues/{second['number']}/comments", headers=ann, json={"body": "two"})
    listed = client.get(f"{base}/issues/comments")
    assert [item["body"] for item in listed.json or []] == ["one", "two"]
    assert listed.headers["X-Total-Count"] == "2"
    assert client.get(f"{base}/issues/comments?since=nonsense").status_code == 422


def test_deleting_an_issue_leaves_no_rows_behind(client: FlaskClient, app: Flask, repo: Repo) -> None:
    base, ann, bob = repo
    milestone = client.post(f"{base}/milestones", headers=ann, json={"title": "v1"}).json or {}
    issue = _issue(client, base, ann, milestone=milestone["id"])
    number = issue["number"]
    comment = client.post(f"{base}/issues/{number}/comments", headers=bob, json={"body": "c"}).json or {}
    client.post(f"{base}/issues/{number}/reactions", headers=bob, json={"content": "heart"})
    client.post(f"{base}/issues/comments/{comment['id']}/reactions", headers=bob, json={"content": "eyes"})
    client.post(f"{base}/issues/{number}/times", headers=ann, json={"time": 60})
    assert client.delete(f"{base}/issues/{number}", headers=ann).status_code == 204
    db = app.extensions["forge"].db
    for table in ("reaction", "issue_attachment", "issue_milestone", "tracked_time", "comment", "issue_deadline"):
        assert db.scalar(f"SELECT COUNT(*) FROM {table}") == 0, table  # noqa: S608
    assert (client.get(f"{base}/milestones/v1").json or {})["open_issues"] == 0
    assert client.get(f"{base}/times", headers=ann).json == []
