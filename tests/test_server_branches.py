"""Branches: list, get, create, delete, rename and move through the one ref-update choke point."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_branches_support import API, basic, commit_file, head_of, make_repo, make_user, record_events
from test_server_orgs_support import assert_error

from reference_server.branches import models as branch_models
from reference_server.errors import Forbidden
from reference_server.events import DefaultBranchChangedEvent, PushEvent
from reference_server.gitcli import ZERO_SHA

BRANCHES = f"{API}/repos/ann/code/branches"


@pytest.fixture
def repo(client: FlaskClient, admin_headers: dict[str, str]) -> str:
    """``ann/code`` with a second commit on main and a branch ``dev`` at main's first commit; main's head."""
    make_user(client, admin_headers, "ann")
    make_repo(client, "ann", "code")
    first = head_of(client, "ann", "code", "main")
    response = client.post(BRANCHES, headers=basic("ann"), json={"new_branch_name": "dev", "old_ref_name": first})
    assert response.status_code == 201
    return commit_file(client, "ann", "code", "two.txt")


def test_list_is_sorted_paged_and_counted(client: FlaskClient, repo: str) -> None:
    client.post(BRANCHES, headers=basic("ann"), json={"new_branch_name": "zeta"})
    response = client.get(f"{BRANCHES}?limit=2&page=2", headers=basic("ann"))
    assert response.status_code == 200
    assert [item["name"] for item in response.get_json()] == ["zeta"]
    assert response.headers["X-Total-Count"] == "3"
    filtered = client.get(f"{BRANCHES}?q=DE", headers=basic("ann")).get_json()
    assert [item["name"] for item in filtered] == ["dev"]


def test_get_gives_the_head_and_the_callers_rights(
    client: FlaskClient, admin_headers: dict[str, str], repo: str
) -> None:
    body = client.get(f"{BRANCHES}/main", headers=basic("ann")).get_json()
    assert body["commit"]["id"] == repo
    assert body["commit"]["author"]["username"] == "ann"
    assert body["user_can_push"] is True
    make_user(client, admin_headers, "bob")
    assert client.get(f"{BRANCHES}/main", headers=basic("bob")).get_json()["user_can_push"] is False
    assert_error(client.get(f"{BRANCHES}/nope", headers=basic("ann")), 404)


def test_create_publishes_a_push_from_zeros(app: Flask, client: FlaskClient, repo: str) -> None:
    events = record_events(app)
    response = client.post(BRANCHES, headers=basic("ann"), json={"new_branch_name": "topic", "old_branch_name": "main"})
    assert response.status_code == 201
    assert response.get_json()["commit"]["id"] == repo
    assert events == [PushEvent(1, "refs/heads/topic", ZERO_SHA, repo, 2)]


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"new_branch_name": "dev"}, 409, "already exists"),
        ({"new_branch_name": "dev/sub"}, 409, "conflicts"),
        ({"new_branch_name": "x", "old_ref_name": "missing"}, 404, "does not exist"),
        ({"new_branch_name": "x", "old_branch_name": "missing"}, 404, "does not exist"),
        ({"new_branch_name": "bad..name"}, 422, "GitRefName"),
        ({}, 422, "[NewBranchName]: Required"),
    ],
)
def test_create_refusals_change_nothing(
    client: FlaskClient, repo: str, body: dict[str, str], status: int, fragment: str
) -> None:
    before = client.get(BRANCHES, headers=basic("ann")).get_json()
    assert_error(client.post(BRANCHES, headers=basic("ann"), json=body), status, fragment)
    assert client.get(BRANCHES, headers=basic("ann")).get_json() == before


def test_delete_and_its_refusals(app: Flask, client: FlaskClient, repo: str) -> None:
    dev = head_of(client, "ann", "code", "dev")
    events = record_events(app)
    assert_error(client.delete(f"{BRANCHES}/main", headers=basic("ann")), 403, "default branch")
    assert client.delete(f"{BRANCHES}/dev", headers=basic("ann")).status_code == 204
    assert head_of(client, "ann", "code", "dev") is None
    assert events == [PushEvent(1, "refs/heads/dev", str(dev), ZERO_SHA, 2)]
    assert_error(client.delete(f"{BRANCHES}/dev", headers=basic("ann")), 404)


def test_rename_moves_the_ref_atomically_and_the_default_follows(app: Flask, client: FlaskClient, repo: str) -> None:
    events = record_events(app)
    changes: list[DefaultBranchChangedEvent] = []
    app.extensions["forge"].events.subscribe(DefaultBranchChangedEvent, changes.append)
    assert client.patch(f"{BRANCHES}/main", headers=basic("ann"), json={"name": "trunk"}).status_code == 204
    assert head_of(client, "ann", "code", "trunk") == repo
    assert head_of(client, "ann", "code", "main") is None
    assert client.get(f"{API}/repos/ann/code", headers=basic("ann")).get_json()["default_branch"] == "trunk"
    assert events == [
        PushEvent(1, "refs/heads/trunk", ZERO_SHA, repo, 2),
        PushEvent(1, "refs/heads/main", repo, ZERO_SHA, 2),
    ]
    assert changes == [DefaultBranchChangedEvent(1, "main", "trunk")]


@pytest.mark.parametrize(
    "case",
    [
        ("dev", {"name": "main"}, 422, "already exists"),
        ("dev", {"name": "dev"}, 422, "same name"),
        ("nope", {"name": "other"}, 404, "Branch doesn't exist."),
        ("dev", {"name": "a b"}, 422, "GitRefName"),
        ("dev", {}, 422, "[Name]: Required"),
    ],
)
def test_rename_refusals_change_nothing(
    client: FlaskClient, repo: str, case: tuple[str, dict[str, str], int, str]
) -> None:
    branch, body, status, fragment = case
    before = client.get(BRANCHES, headers=basic("ann")).get_json()
    assert_error(client.patch(f"{BRANCHES}/{branch}", headers=basic("ann"), json=body), status, fragment)
    assert client.get(BRANCHES, headers=basic("ann")).get_json() == before


def test_update_fast_forward_old_check_and_force(client: FlaskClient, repo: str) -> None:
    dev = head_of(client, "ann", "code", "dev")
    wrong = {"new_commit_id": repo, "old_commit_id": repo}
    assert_error(client.put(f"{BRANCHES}/dev", headers=basic("ann"), json=wrong), 422, "does not match")
    assert head_of(client, "ann", "code", "dev") == dev
    body = {"new_commit_id": repo, "old_commit_id": dev}
    assert client.put(f"{BRANCHES}/dev", headers=basic("ann"), json=body).status_code == 204
    assert head_of(client, "ann", "code", "dev") == repo
    back = {"new_commit_id": dev}
    assert_error(client.put(f"{BRANCHES}/dev", headers=basic("ann"), json=back), 422, "fast-forward")
    assert head_of(client, "ann", "code", "dev") == repo
    assert client.put(f"{BRANCHES}/dev", headers=basic("ann"), json={**back, "force": True}).status_code == 204
    assert head_of(client, "ann", "code", "dev") == dev


def test_update_refusals(client: FlaskClient, repo: str) -> None:
    assert_error(client.put(f"{BRANCHES}/nope", headers=basic("ann"), json={"new_commit_id": repo}), 404)
    missing = {"new_commit_id": "0" * 40}
    assert_error(client.put(f"{BRANCHES}/dev", headers=basic("ann"), json=missing), 404, "commit does not exist")
    assert_error(client.put(f"{BRANCHES}/dev", headers=basic("ann"), json={}), 422, "[NewCommitID]: Required")


def test_writers_only(client: FlaskClient, admin_headers: dict[str, str], repo: str) -> None:
    make_user(client, admin_headers, "bob")
    assert_error(client.post(BRANCHES, headers=basic("bob"), json={"new_branch_name": "x"}), 403)
    assert_error(client.delete(f"{BRANCHES}/dev", headers=basic("bob")), 403)
    assert client.post(BRANCHES, json={"new_branch_name": "x"}).status_code == 401


def test_the_choke_point_refusal_moves_no_ref(
    app: Flask, client: FlaskClient, repo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal of the second ref of a rename leaves both refs as they were and publishes nothing."""

    def refuse_deletes(repo_: object, principal: object, ref: str, old: str, new: str) -> None:
        if new == ZERO_SHA:
            raise Forbidden("refused by policy")

    monkeypatch.setattr(branch_models, "authorize_ref_update", refuse_deletes)
    events = record_events(app)
    dev = head_of(client, "ann", "code", "dev")
    assert_error(client.patch(f"{BRANCHES}/dev", headers=basic("ann"), json={"name": "next"}), 403, "policy")
    assert head_of(client, "ann", "code", "dev") == dev
    assert head_of(client, "ann", "code", "next") is None
    assert events == []


def test_empty_repository(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "ann")
    client.post(f"{API}/user/repos", headers=basic("ann"), json={"name": "void"})
    assert client.get(f"{API}/repos/ann/void/branches", headers=basic("ann")).get_json() == []
    body = {"new_branch_name": "x"}
    assert_error(client.post(f"{API}/repos/ann/void/branches", headers=basic("ann"), json=body), 404, "empty")


def test_a_protected_branch_shows_its_rule_and_refuses_the_push_right(client: FlaskClient, repo: str) -> None:
    rule = {"rule_name": "ma*", "enable_push": False, "required_approvals": 2, "enable_status_check": True}
    rule["status_check_contexts"] = ["ci"]
    created = client.post(f"{API}/repos/ann/code/branch_protections", headers=basic("ann"), json=rule)
    assert created.status_code == 201, created.get_data(as_text=True)
    body = client.get(f"{BRANCHES}/main", headers=basic("ann")).get_json()
    assert body["protected"] is True
    assert body["effective_branch_protection_name"] == "ma*"
    assert body["user_can_push"] is False
    assert (body["required_approvals"], body["enable_status_check"], body["status_check_contexts"]) == (2, True, ["ci"])
    assert client.get(f"{BRANCHES}/dev", headers=basic("ann")).get_json()["protected"] is False


def test_only_repository_admins_rename_default_or_protected_branches(
    client: FlaskClient, admin_headers: dict[str, str], repo: str
) -> None:
    make_user(client, admin_headers, "wes")
    added = client.put(f"{API}/repos/ann/code/collaborators/wes", headers=basic("ann"), json={"permission": "write"})
    assert added.status_code == 204, added.get_data(as_text=True)
    rule = {"rule_name": "dev"}
    assert client.post(f"{API}/repos/ann/code/branch_protections", headers=basic("ann"), json=rule).status_code == 201
    for branch in ("main", "dev"):
        refused = client.patch(f"{BRANCHES}/{branch}", headers=basic("wes"), json={"name": "renamed"})
        assert_error(refused, 403, "must be a repo or site admin")
    assert head_of(client, "ann", "code", "renamed") is None
    assert client.post(BRANCHES, headers=basic("wes"), json={"new_branch_name": "free"}).status_code == 201
    assert client.patch(f"{BRANCHES}/free", headers=basic("wes"), json={"name": "freed"}).status_code == 204
