"""Assignees: the assignable list and checks, adding and removing an issue's assignees, and the one
assignability rule shared with issue creation and edit, against the reference app."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from test_server_issues_support import Forge, assert_error, forge_env

__all__ = ["forge_env"]


def _logins(items: list[dict[str, Any]] | None) -> list[str]:
    return [item["login"] for item in items or []]


def _collaborate(env: Forge, name: str, permission: str) -> None:
    env.ok("PUT", f"/collaborators/{name}", env.ann, 204, json={"permission": permission})


def test_list_holds_owner_and_writers_and_checks_agree(forge_env: Forge) -> None:
    assert _logins(forge_env.ok("GET", "/assignees", forge_env.bob, 200)) == ["ann"]
    forge_env.ok("GET", "/assignees/ann", forge_env.bob, 204)
    assert_error(forge_env.call("GET", "/assignees/bob", forge_env.bob), 404)
    assert_error(forge_env.call("GET", "/assignees/nobody", forge_env.bob), 404)
    _collaborate(forge_env, "bob", "read")
    assert _logins(forge_env.ok("GET", "/assignees", forge_env.bob, 200)) == ["ann"]
    _collaborate(forge_env, "bob", "write")
    assert _logins(forge_env.ok("GET", "/assignees", forge_env.bob, 200)) == ["ann", "bob"]
    forge_env.ok("GET", "/assignees/bob", forge_env.bob, 204)
    assert_error(forge_env.call("GET", "/assignees", None), 401)


def test_issue_check_needs_the_issue_and_answers_for_assignability(forge_env: Forge) -> None:
    forge_env.issue()
    forge_env.ok("GET", "/issues/1/assignees/ann", None, 204)
    assert_error(forge_env.call("GET", "/issues/1/assignees/bob", None), 404)
    assert_error(forge_env.call("GET", "/issues/9/assignees/ann", None), 404)


def test_add_and_remove_record_the_timeline_and_skip_what_is_done(forge_env: Forge) -> None:
    forge_env.issue()
    _collaborate(forge_env, "bob", "write")
    added = forge_env.ok("POST", "/issues/1/assignees", forge_env.ann, 201, json={"assignees": ["bob", "ann"]})
    assert _logins(added["assignees"]) == ["bob", "ann"]
    assert added["assignee"]["login"] == "bob"
    again = forge_env.ok("POST", "/issues/1/assignees", forge_env.bob, 201, json={"assignees": ["ann"]})
    assert _logins(again["assignees"]) == ["bob", "ann"]
    removed = forge_env.ok("DELETE", "/issues/1/assignees", forge_env.ann, 200, json={"assignees": ["bob", "bob"]})
    assert _logins(removed["assignees"]) == ["ann"]
    forge_env.ok("DELETE", "/issues/1/assignees", forge_env.ann, 200, json={"assignees": ["bob"]})
    timeline = forge_env.ok("GET", "/issues/1/timeline", None, 200)
    entries = [(entry["type"], entry["assignee"]["login"], entry["removed_assignee"]) for entry in timeline]
    assert entries == [("assignees", "bob", False), ("assignees", "ann", False), ("assignees", "bob", True)]
    assert all(entry["user"]["login"] == "ann" for entry in timeline)


def test_refusals_change_nothing(forge_env: Forge) -> None:
    forge_env.issue()
    names = {"assignees": ["ann", "bob"]}
    assert_error(forge_env.call("POST", "/issues/1/assignees", forge_env.ann, json=names), 403, "access to repo")
    assert_error(forge_env.call("POST", "/issues/1/assignees", forge_env.bob, json={"assignees": ["ann"]}), 403)
    unknown = forge_env.call("POST", "/issues/1/assignees", forge_env.ann, json={"assignees": ["ann", "nobody"]})
    assert_error(unknown, 422, "user does not exist [name: nobody]")
    assert_error(forge_env.call("POST", "/issues/1/assignees", forge_env.ann, json={"assignees": "ann"}), 422)
    assert_error(forge_env.call("POST", "/issues/1/assignees", None, json=names), 401)
    assert_error(forge_env.call("POST", "/issues/7/assignees", forge_env.ann, json=names), 404)
    assert_error(forge_env.call("DELETE", "/issues/1/assignees", forge_env.ann, json={"assignees": ["x"]}), 422)
    assert forge_env.ok("GET", "/issues/1", None, 200)["assignees"] is None
    assert forge_env.ok("GET", "/issues/1/timeline", None, 200) == []


def test_archived_repository_refuses_changes(forge_env: Forge) -> None:
    forge_env.issue()
    forge_env.ok("PATCH", "", forge_env.ann, 200, json={"archived": True})
    refused = forge_env.call("POST", "/issues/1/assignees", forge_env.ann, json={"assignees": ["ann"]})
    assert_error(refused, 423, "repo is archived")
    assert forge_env.ok("GET", "/issues/1", None, 200)["assignees"] is None


def test_create_and_edit_share_the_rule_and_the_deprecated_field(forge_env: Forge) -> None:
    created = forge_env.issue("Single", assignee="ann")
    assert _logins(created["assignees"]) == ["ann"]
    refused = forge_env.call("POST", "/issues", forge_env.ann, json={"title": "t", "assignees": ["bob"]})
    assert_error(refused, 422, "access to repo")
    _collaborate(forge_env, "bob", "write")
    edited = forge_env.ok("PATCH", "/issues/1", forge_env.ann, 201, json={"assignees": ["bob"], "assignee": "ann"})
    assert sorted(_logins(edited["assignees"])) == ["ann", "bob"]
    cleared = forge_env.ok("PATCH", "/issues/1", forge_env.ann, 201, json={"assignees": []})
    assert cleared["assignees"] is None and cleared["assignee"] is None


def test_organization_teams_writing_issues_are_assignable(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    env = Forge(client, admin_headers)
    assert client.post("/api/v1/orgs", headers=env.ann, json={"username": "acme"}).status_code == 201
    assert client.post("/api/v1/orgs/acme/repos", headers=env.ann, json={"name": "app"}).status_code == 201
    team = {"name": "triage", "includes_all_repositories": True, "units_map": {"repo.issues": "write"}}
    created = client.post("/api/v1/orgs/acme/teams", headers=env.ann, json=team)
    assert created.status_code == 201 and created.json is not None, created.data
    assert client.put(f"/api/v1/teams/{created.json['id']}/members/bob", headers=env.ann).status_code == 204
    listed = client.get("/api/v1/repos/acme/app/assignees", headers=env.bob)
    assert _logins(listed.json) == ["ann", "bob"]
    assert client.get("/api/v1/repos/acme/app/assignees/acme", headers=env.bob).status_code == 404
