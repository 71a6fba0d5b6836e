"""Notification threads, issue subscriptions and stopwatches: who is told what, who changes whose watch."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_branches_support import API, basic, make_repo, make_user

from reference_server.context import forge

ISSUES = f"{API}/repos/ann/demo/issues"


@pytest.fixture
def repo(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    """``ann/demo`` (public), watched by its owner; Bob and Carol are strangers."""
    for name in ("ann", "bob", "carol"):
        make_user(client, admin_headers, name)
    make_repo(client, "ann", "demo")


def _threads(client: FlaskClient, who: str, **query: Any) -> list[dict[str, Any]]:
    response = client.get(f"{API}/notifications", headers=basic(who), query_string=query)
    assert response.status_code == 200, response.get_json()
    return list(response.get_json())


def test_opened_and_commented_reach_watchers_not_the_actor(client: FlaskClient, repo: None) -> None:
    assert client.post(ISSUES, headers=basic("bob"), json={"title": "broken"}).status_code == 201
    assert _threads(client, "bob") == []
    (thread,) = _threads(client, "ann")
    assert thread["subject"]["type"] == "Issue" and thread["subject"]["title"] == "broken"
    assert thread["subject"]["state"] == "open" and thread["unread"] and not thread["pinned"]
    assert thread["subject"]["html_url"].endswith("/ann/demo/issues/1")
    assert thread["repository"]["full_name"] == "ann/demo" and "permissions" not in thread["repository"]
    comment = client.post(f"{ISSUES}/1/comments", headers=basic("ann"), json={"body": "thanks @carol"})
    assert comment.status_code == 201
    (for_bob,) = _threads(client, "bob")
    assert for_bob["subject"]["latest_comment_url"].endswith(f"/issues/comments/{comment.get_json()['id']}")
    assert [item["subject"]["title"] for item in _threads(client, "carol")] == ["broken"]
    assert client.get(f"{API}/notifications/new", headers=basic("ann")).get_json() == {"new": 1}


def test_read_pin_and_thread_ownership(client: FlaskClient, repo: None, admin_headers: dict[str, str]) -> None:
    client.post(ISSUES, headers=basic("bob"), json={"title": "one"})
    (thread,) = _threads(client, "ann")
    url = f"{API}/notifications/threads/{thread['id']}"
    assert client.get(url, headers=basic("bob")).status_code == 403
    assert client.get(url, headers=admin_headers).status_code == 200
    assert client.get(f"{API}/notifications/threads/999", headers=basic("ann")).status_code == 404
    pinned = client.patch(url, headers=basic("ann"), query_string={"to-status": "pinned"})
    assert pinned.status_code == 205 and pinned.get_json()["pinned"] and not pinned.get_json()["unread"]
    changed = client.put(f"{API}/notifications", headers=basic("ann"))
    assert changed.status_code == 205 and changed.get_json() == []  # pinned threads are not unread
    read = client.patch(url, headers=basic("ann"))
    assert read.status_code == 205 and not read.get_json()["unread"] and not read.get_json()["pinned"]
    assert _threads(client, "ann") == []
    assert [item["id"] for item in _threads(client, "ann", all="true")] == [thread["id"]]
    client.post(f"{ISSUES}/1/comments", headers=basic("bob"), json={"body": "ping"})
    assert [item["unread"] for item in _threads(client, "ann")] == [True]  # a read thread comes back unread
    repo_list = client.put(f"{API}/repos/ann/demo/notifications", headers=basic("ann"))
    assert repo_list.status_code == 205 and [item["id"] for item in repo_list.get_json()] == [thread["id"]]
    assert client.get(f"{API}/notifications/new", headers=basic("ann")).get_json() == {"new": 0}


def test_assignee_and_release_and_private_repository(
    client: FlaskClient, repo: None, admin_headers: dict[str, str]
) -> None:
    client.put(f"{API}/repos/ann/demo/collaborators/bob", headers=basic("ann"), json={"permission": "write"})
    client.post(ISSUES, headers=basic("ann"), json={"title": "yours", "assignees": ["bob"]})
    assert [item["subject"]["title"] for item in _threads(client, "bob")] == ["yours"]
    client.patch(f"{API}/repos/ann/demo", headers=basic("ann"), json={"private": True})
    client.delete(f"{API}/repos/ann/demo/collaborators/bob", headers=basic("ann"))
    assert _threads(client, "bob") == []  # no longer readable: not shown
    client.post(f"{API}/repos/ann/demo/releases", headers=basic("ann"), json={"tag_name": "v1", "name": "One"})
    assert _threads(client, "ann", **{"subject-type": "release"}) == []  # the publisher is not told


def test_subscriptions_who_changes_whose(client: FlaskClient, repo: None, admin_headers: dict[str, str]) -> None:
    client.post(ISSUES, headers=basic("bob"), json={"title": "sub"})
    check = client.get(f"{ISSUES}/1/subscriptions/check", headers=basic("bob")).get_json()
    assert check["subscribed"] and not check["ignored"] and check["url"].endswith("/issues/1/subscriptions")
    assert not client.get(f"{ISSUES}/1/subscriptions/check", headers=basic("carol")).get_json()["subscribed"]
    assert client.put(f"{ISSUES}/1/subscriptions/carol", headers=basic("carol")).status_code == 201
    assert client.put(f"{ISSUES}/1/subscriptions/carol", headers=basic("carol")).status_code == 200
    assert client.put(f"{ISSUES}/1/subscriptions/carol", headers=basic("bob")).status_code == 403
    assert client.put(f"{ISSUES}/1/subscriptions/nobody", headers=basic("bob")).status_code == 404
    listed = client.get(f"{ISSUES}/1/subscriptions", headers=basic("bob"))
    assert [user["login"] for user in listed.get_json()] == ["carol"] and listed.headers["X-Total-Count"] == "1"
    assert client.delete(f"{ISSUES}/1/subscriptions/bob", headers=admin_headers).status_code == 201
    assert client.delete(f"{ISSUES}/1/subscriptions/bob", headers=basic("bob")).status_code == 200
    client.post(f"{ISSUES}/1/comments", headers=basic("ann"), json={"body": "hi"})
    assert _threads(client, "bob") == [] and len(_threads(client, "carol")) == 1


def test_stopwatch_start_stop_cancel(client: FlaskClient, repo: None, admin_headers: dict[str, str]) -> None:
    client.post(ISSUES, headers=basic("ann"), json={"title": "timed"})
    client.post(ISSUES, headers=basic("ann"), json={"title": "other"})
    start = f"{ISSUES}/1/stopwatch/start"
    assert client.post(start, headers=basic("bob")).status_code == 403
    assert client.post(start, headers=basic("ann")).status_code == 201
    again = client.post(start, headers=basic("ann"))
    assert again.status_code == 409 and "already exists" in again.get_json()["message"]
    (watch,) = client.get(f"{API}/user/stopwatches", headers=basic("ann")).get_json()
    assert watch["issue_index"] == 1 and watch["issue_title"] == "timed" and watch["repo_name"] == "demo"
    client.put(f"{API}/-/reference/clock", headers=admin_headers, json={"offset_seconds": 125})
    assert client.post(f"{ISSUES}/2/stopwatch/start", headers=basic("ann")).status_code == 201  # stops #1
    (times,) = client.get(f"{ISSUES}/1/times", headers=basic("ann")).get_json()
    assert 120 <= times["time"] <= 135
    assert client.post(f"{ISSUES}/1/stopwatch/stop", headers=basic("ann")).status_code == 409
    assert client.delete(f"{ISSUES}/2/stopwatch/delete", headers=basic("ann")).status_code == 204
    assert client.delete(f"{ISSUES}/2/stopwatch/delete", headers=basic("ann")).status_code == 409
    assert client.get(f"{ISSUES}/2/times", headers=basic("ann")).get_json() == []
    assert client.get(f"{API}/user/stopwatches", headers=basic("ann")).get_json() == []


def test_issue_search_across_visible_repositories(client: FlaskClient, repo: None) -> None:
    make_repo(client, "ann", "secret", private=True)
    client.post(ISSUES, headers=basic("bob"), json={"title": "public bug"})
    client.post(f"{API}/repos/ann/secret/issues", headers=basic("ann"), json={"title": "hidden bug", "body": "@bob"})
    client.post(ISSUES, headers=basic("ann"), json={"title": "closed one", "closed": True})
    search = f"{API}/repos/issues/search"
    mine = client.get(search, headers=basic("ann"), query_string={"q": "bug"})
    assert [item["title"] for item in mine.get_json()] == ["hidden bug", "public bug"]
    assert mine.headers["X-Total-Count"] == "2"
    assert [item["title"] for item in client.get(search, headers=basic("bob")).get_json()] == ["public bug"]
    assert [item["title"] for item in client.get(search).get_json()] == ["public bug"]
    created = client.get(search, headers=basic("bob"), query_string={"created": "true", "state": "all"})
    assert [item["title"] for item in created.get_json()] == ["public bug"]
    closed = client.get(search, headers=basic("ann"), query_string={"state": "closed"})
    assert [item["title"] for item in closed.get_json()] == ["closed one"]
    assert client.get(search, headers=basic("ann"), query_string={"owner": "nobody"}).status_code == 400
    assert client.get(search, headers=basic("ann"), query_string={"team": "x"}).status_code == 400
    assert client.get(search, headers=basic("ann"), query_string={"since": "soon"}).status_code == 422


def test_a_deleted_issue_takes_its_threads(app: Flask, client: FlaskClient, repo: None) -> None:
    """Whoever deletes an issue (Gitea's issueDelete, served by another family) needs no hook here."""
    client.post(ISSUES, headers=basic("bob"), json={"title": "gone soon"})
    (thread,) = _threads(client, "ann")
    with app.app_context(), forge().db.transaction():
        forge().db.execute("DELETE FROM issue WHERE idx = 1")
    assert _threads(client, "ann", all="true") == []
    assert client.get(f"{API}/notifications/threads/{thread['id']}", headers=basic("ann")).status_code == 404
