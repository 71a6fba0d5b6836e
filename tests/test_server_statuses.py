"""Commit statuses: creation by writers, lists by SHA and by ref with Gitea's sort and state filters, the
combined status (latest per context, Gitea's aggregation), and the statuses Actions jobs write."""

from __future__ import annotations

from flask import Flask
from test_server_issues_support import Forge, assert_error, forge_env

from reference_server.actions.models import Run
from reference_server.actions.status import Status
from reference_server.repos.models import get_repo
from reference_server.statuses.from_actions import commit_of_run, go_duration, status_state
from reference_server.statuses.models import CommitStatus, combine, required_contexts_state

__all__ = ["forge_env"]


def _status(forge: Forge, sha: str, state: str, context: str = "ci/build", **extra: str) -> dict[str, object]:
    body = {"state": state, "context": context, **extra}
    created: dict[str, object] = forge.ok("POST", f"/statuses/{sha}", forge.ann, 201, json=body)
    return created


def test_create_and_list_statuses(forge_env: Forge) -> None:
    sha = forge_env.commit("a.txt", "a\n")
    first = _status(forge_env, sha, "pending", target_url="https://ci.example/1", description=" building ")
    assert (first["id"], first["status"], first["description"], first["context"]) == (
        1,
        "pending",
        "building",
        "ci/build",
    )
    assert str(first["url"]).endswith(f"/api/v1/repos/ann/code/statuses/{sha}")
    assert first["creator"]["login"] == "ann"  # type: ignore[index]
    assert first["created_at"] == first["updated_at"]
    second = _status(forge_env, sha[:10], "success")
    assert second["id"] == 2
    listed = forge_env.call("GET", f"/statuses/{sha}")
    assert listed.status_code == 200 and listed.headers["X-Total-Count"] == "2"
    assert [item["id"] for item in listed.json] == [2, 1]
    oldest = forge_env.ok("GET", f"/statuses/{sha}", None, 200, query_string={"sort": "oldest"})
    assert [item["id"] for item in oldest] == [1, 2]
    highest_first = forge_env.ok("GET", f"/statuses/{sha}", None, 200, query_string={"sort": "leastindex"})
    assert [item["id"] for item in highest_first] == [2, 1]
    only = forge_env.ok("GET", "/commits/main/statuses", None, 200, query_string={"state": "pending"})
    assert [item["status"] for item in only] == ["pending"]
    paged = forge_env.call("GET", "/commits/main/statuses", query_string={"limit": 1})
    assert len(paged.json) == 1 and 'rel="next"' in paged.headers["Link"]
    assert forge_env.ok("GET", "/statuses/0123456789abcdef", None, 200) == []


def test_refusals(forge_env: Forge) -> None:
    sha = forge_env.commit("a.txt", "a\n")
    assert_error(forge_env.call("POST", f"/statuses/{sha}", forge_env.bob, json={"state": "success"}), 403)
    assert forge_env.call("POST", f"/statuses/{sha}", None, json={"state": "success"}).status_code == 401
    assert_error(forge_env.call("POST", f"/statuses/{sha}", forge_env.ann, json={"state": "green"}), 400)
    missing = "0" * 40
    assert_error(forge_env.call("POST", f"/statuses/{missing}", forge_env.ann, json={"state": "success"}), 404)
    assert_error(forge_env.call("GET", "/commits/no-such-branch/status"), 404)
    assert_error(forge_env.call("GET", "/commits/no-such-branch/statuses"), 404)
    assert forge_env.ok("GET", f"/statuses/{sha}", None, 200) == []


def test_combined_status_takes_the_latest_of_each_context(forge_env: Forge) -> None:
    sha = forge_env.commit("a.txt", "a\n")
    empty = forge_env.ok("GET", "/commits/main/status", None, 200)
    assert (empty["state"], empty["total_count"], empty["statuses"], empty["sha"]) == ("", 0, None, sha)
    _status(forge_env, sha, "failure", "ci/build")
    _status(forge_env, sha, "success", "ci/lint")
    assert forge_env.ok("GET", "/commits/main/status", None, 200)["state"] == "failure"
    _status(forge_env, sha, "success", "ci/build")
    combined = forge_env.call("GET", f"/commits/{sha}/status")
    body = combined.json
    assert (body["state"], body["total_count"], combined.headers["X-Total-Count"]) == ("success", 2, "2")
    assert sorted(item["context"] for item in body["statuses"]) == ["ci/build", "ci/lint"]
    assert body["repository"]["full_name"] == "ann/code"
    assert body["url"] == body["commit_url"] + "/status" and body["commit_url"].endswith(f"/commits/{sha}")


def test_combined_status_by_tag(app: Flask, forge_env: Forge) -> None:
    sha = forge_env.commit("a.txt", "a\n")
    with app.app_context():
        get_repo("ann", "code").git.run("tag", "v1", sha)
    _status(forge_env, sha, "warning")
    assert forge_env.ok("GET", "/commits/v1/status", None, 200)["state"] == "success"


def _made(state: str, context: str) -> CommitStatus:
    return CommitStatus(1, 1, "a" * 40, 1, state, "", "", context, 0, 0, 0)


def test_combine_and_required_contexts() -> None:
    assert combine([]) == "pending"
    assert combine(["success", "warning", "skipped"]) == "success"
    assert combine(["success", "pending"]) == "pending"
    assert combine(["pending", "error"]) == "failure"
    statuses = [_made("success", "ci/build"), _made("pending", "ci/slow"), _made("failure", "other")]
    assert required_contexts_state([], ["ci/*"]) == "pending"
    assert required_contexts_state(statuses, []) == "failure"
    assert required_contexts_state(statuses, ["ci/build"]) == "success"
    assert required_contexts_state(statuses, ["ci/*"]) == "pending"
    assert required_contexts_state(statuses, ["ci/build", "deploy"]) == "pending"
    assert required_contexts_state(statuses, ["other", "deploy"]) == "failure"
    assert required_contexts_state(statuses, ["nothing*"]) == "pending"


def test_actions_mapping() -> None:
    assert [status_state(s) for s in (Status.SUCCESS, Status.CANCELLED, Status.RUNNING, Status.SKIPPED)] == [
        "success",
        "failure",
        "pending",
        "skipped",
    ]
    assert status_state(Status.UNKNOWN) == "error"
    assert [go_duration(s) for s in (0, 42, 65, 7203)] == ["0s", "42s", "1m5s", "2h0m3s"]
    run = Run(
        1,
        1,
        1,
        1,
        "ci.yml",
        ".gitea/workflows/ci.yml",
        "CI",
        "t",
        "push",
        "refs/heads/main",
        "b" * 40,
        1,
        {},
        None,
        Status.WAITING,
        0,
        0,
        0,
        0,
    )
    assert commit_of_run(run) == ("push", "b" * 40)
    dispatched = Run(**{**run.__dict__, "event": "workflow_dispatch"})
    assert commit_of_run(dispatched) is None
    pulled = Run(
        **{**run.__dict__, "event": "pull_request", "event_payload": {"pull_request": {"head": {"sha": "c" * 40}}}}
    )
    assert commit_of_run(pulled) == ("pull_request", "c" * 40)


def test_refs_with_slashes(forge_env: Forge) -> None:
    forge_env.commit("a.txt", "a\n")
    sha = forge_env.commit("b.txt", "b\n", new_branch="feature/x")
    _status(forge_env, sha, "success")
    assert forge_env.ok("GET", "/commits/feature/x/status", None, 200)["state"] == "success"
    assert len(forge_env.ok("GET", "/commits/feature/x/statuses", None, 200)) == 1
    assert forge_env.ok("GET", "/commits/main/status", None, 200)["state"] == ""
