"""Issues: create, list, edit, comments, timeline and lock against the reference app."""

from __future__ import annotations

from test_server_issues_support import Forge, assert_error, forge_env

__all__ = ["forge_env"]


def test_issue_numbers_are_per_repository_and_listed_newest_first(forge_env: Forge) -> None:
    first = forge_env.issue("First")
    second = forge_env.issue("Second", who=forge_env.bob)
    assert (first["number"], second["number"]) == (1, 2)
    assert second["user"]["login"] == "bob"
    listed = forge_env.call("GET", "/issues", query_string={"limit": 1})
    assert listed.status_code == 200
    assert [item["number"] for item in listed.json] == [2]
    assert listed.headers["X-Total-Count"] == "2"
    assert 'rel="next"' in listed.headers["Link"]
    found = forge_env.ok("GET", "/issues", None, 200, query_string={"q": "First"})
    assert [item["title"] for item in found] == ["First"]


def test_create_validates_and_stores_nothing_on_bad_input(forge_env: Forge) -> None:
    assert_error(forge_env.call("POST", "/issues", forge_env.ann, json={"body": "x"}), 422, "Title")
    missing = forge_env.call("POST", "/issues", forge_env.ann, json={"title": "t", "assignees": ["nobody"]})
    assert_error(missing, 422, "Assignee does not exist: [name: nobody]")
    assert_error(forge_env.call("POST", "/issues", None, json={"title": "t"}), 401)
    assert forge_env.call("GET", "/issues").headers["X-Total-Count"] == "0"


def test_assignees_set_on_create_replaced_on_edit_and_recorded(forge_env: Forge) -> None:
    issue = forge_env.issue("Assigned", assignees=["ann"])
    assert [user["login"] for user in issue["assignees"]] == ["ann"]
    not_writer = forge_env.call("PATCH", "/issues/1", forge_env.ann, json={"assignees": ["bob"]})
    assert_error(not_writer, 422, "access")
    edited = forge_env.ok("PATCH", "/issues/1", forge_env.ann, 201, json={"assignees": []})
    assert edited["assignees"] is None
    kinds = [
        (entry["type"], entry["removed_assignee"]) for entry in forge_env.ok("GET", "/issues/1/timeline", None, 200)
    ]
    assert kinds == [("assignees", False), ("assignees", True)]


def test_poster_edits_own_issue_others_cannot(forge_env: Forge) -> None:
    forge_env.issue("Bob's", who=forge_env.bob)
    edited = forge_env.ok("PATCH", "/issues/1", forge_env.bob, 201, json={"title": "Renamed", "state": "closed"})
    assert (edited["title"], edited["state"]) == ("Renamed", "closed")
    forge_env.issue("Ann's")
    assert_error(forge_env.call("PATCH", "/issues/2", forge_env.bob, json={"title": "x"}), 403)
    assert forge_env.ok("GET", "/issues/2", None, 200)["title"] == "Ann's"
    types = [entry["type"] for entry in forge_env.ok("GET", "/issues/1/timeline", None, 200)]
    assert types == ["change_title", "close"]
    assert_error(forge_env.call("GET", "/issues/99"), 404)


def test_comments_create_edit_delete_and_count(forge_env: Forge) -> None:
    forge_env.issue()
    comment = forge_env.ok("POST", "/issues/1/comments", forge_env.bob, 201, json={"body": "me too"})
    assert comment["issue_url"].endswith("/ann/code/issues/1")
    assert forge_env.ok("GET", "/issues/1", None, 200)["comments"] == 1
    assert_error(forge_env.call("POST", "/issues/1/comments", forge_env.bob, json={"body": ""}), 422)
    assert_error(forge_env.call("PATCH", f"/issues/comments/{comment['id']}", forge_env.admin, json={}), 422)
    edited = forge_env.ok("PATCH", f"/issues/comments/{comment['id']}", forge_env.ann, 200, json={"body": "edited"})
    assert edited["body"] == "edited"
    assert forge_env.ok("GET", f"/issues/comments/{comment['id']}", None, 200)["body"] == "edited"
    forge_env.ok("DELETE", f"/issues/comments/{comment['id']}", forge_env.bob, 204)
    assert_error(forge_env.call("GET", f"/issues/comments/{comment['id']}"), 404)
    assert forge_env.ok("GET", "/issues/1", None, 200)["comments"] == 0


def test_lock_is_idempotent_admin_only_and_blocks_readers_comments(forge_env: Forge) -> None:
    forge_env.issue()
    assert_error(forge_env.call("PUT", "/issues/1/lock", None), 401)
    assert_error(forge_env.call("PUT", "/issues/1/lock", forge_env.bob, json={}), 403)
    assert_error(forge_env.call("PUT", "/issues/9/lock", forge_env.ann, json={}), 404)
    forge_env.ok("PUT", "/issues/1/lock", forge_env.ann, 204, json={"lock_reason": "Too heated"})
    forge_env.ok("PUT", "/issues/1/lock", forge_env.ann, 204)
    assert forge_env.ok("GET", "/issues/1", None, 200)["is_locked"] is True
    refused = forge_env.call("POST", "/issues/1/comments", forge_env.bob, json={"body": "hey"})
    assert_error(refused, 403, "You cannot comment on a locked issue.")
    forge_env.ok("POST", "/issues/1/comments", forge_env.ann, 201, json={"body": "calm down"})
    forge_env.ok("DELETE", "/issues/1/lock", forge_env.ann, 204)
    forge_env.ok("DELETE", "/issues/1/lock", forge_env.ann, 204)
    timeline = forge_env.ok("GET", "/issues/1/timeline", None, 200)
    assert [(entry["type"], entry["body"]) for entry in timeline] == [
        ("lock", "Too heated"),
        ("comment", "calm down"),
        ("unlock", ""),
    ]
    assert forge_env.ok("GET", "/issues/1", None, 200)["is_locked"] is False


def test_repository_deletion_drops_its_issues(forge_env: Forge) -> None:
    forge_env.issue()
    forge_env.ok("DELETE", "", forge_env.ann, 204)
    assert forge_env.client.post("/api/v1/user/repos", headers=forge_env.ann, json={"name": "code"}).status_code == 201
    assert forge_env.issue()["number"] == 1
