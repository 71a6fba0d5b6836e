"""Repository-scope REST of the actions family: runs, jobs, tasks, registration tokens, shapes and filters."""

from __future__ import annotations

import re

import pytest
from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, World, world

__all__ = ["world"]

ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$")


def _two_runs(world: World) -> tuple[int, int]:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/first.yml", SIMPLE_WORKFLOW.replace("CI", "First"))
    world.push("alice", "app", ".gitea/workflows/second.yml", "on: [push]\njobs:\n  j:\n    runs-on: other\n")
    runs = world.runs("alice", "app")
    return runs[1]["id"], runs[0]["id"]


def test_run_shape_numbers_and_order(world: World) -> None:
    first_id, second_id = _two_runs(world)
    runs = world.runs("alice", "app")
    # the second push runs both workflows: three runs, newest first
    assert [run["run_number"] for run in runs] == [3, 2, 1]
    names = {run["id"]: run["path"] for run in runs}
    assert names[first_id] == "first.yml@refs/heads/main" and names[second_id] in (
        "first.yml@refs/heads/main",
        "second.yml@refs/heads/main",
    )
    run = world.api("GET", f"repos/alice/app/actions/runs/{runs[-1]['id']}", "alice").get_json()
    assert set(run) >= {
        "id", "url", "html_url", "display_title", "path", "event", "run_attempt", "run_number", "repository_id",
        "head_sha", "head_branch", "status", "actor", "trigger_actor", "repository", "started_at", "completed_at",
        "previous_attempt_url", "pull_requests",
    }  # fmt: skip
    assert run["url"] == f"http://forge.test/api/v1/repos/alice/app/actions/runs/{run['id']}"
    assert run["html_url"] == f"http://forge.test/alice/app/actions/runs/{run['id']}"
    assert run["actor"]["login"] == "alice" and run["trigger_actor"]["login"] == "alice"
    assert run["repository"]["full_name"] == "alice/app" and run["repository_id"] == run["repository"]["id"]
    assert run["previous_attempt_url"] is None and run["pull_requests"] == []
    assert "conclusion" not in run and run["completed_at"] == "0001-01-01T00:00:00Z"


def test_run_ids_are_unique_across_repositories_and_runs_are_404_elsewhere(world: World) -> None:
    world.repo("alice", "app")
    world.repo("bob", "lib")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    world.push("bob", "lib", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    [alice_run], [bob_run] = world.runs("alice", "app"), world.runs("bob", "lib")
    assert alice_run["id"] != bob_run["id"] and alice_run["run_number"] == bob_run["run_number"] == 1
    assert world.api("GET", f"repos/alice/app/actions/runs/{bob_run['id']}", "alice").status_code == 404
    assert world.api("GET", f"repos/alice/app/actions/runs/{bob_run['id']}/jobs", "alice").status_code == 404
    for bad in ("0", "-1", "abc", "99999"):
        assert world.api("GET", f"repos/alice/app/actions/runs/{bad}", "alice").status_code == 404
    [bob_job] = world.jobs("bob", "lib", bob_run["id"])
    assert world.api("GET", f"repos/alice/app/actions/jobs/{bob_job['id']}", "alice").status_code == 404
    assert world.api("GET", f"repos/bob/lib/actions/jobs/{bob_job['id']}", "bob").status_code == 200


def test_run_filters_and_paging(world: World) -> None:
    _two_runs(world)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task = world.fetch(runner).task
    world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)
    assert len(world.runs("alice", "app", status="completed")) == 1
    assert len(world.runs("alice", "app", status="success")) == 1
    assert len(world.runs("alice", "app", status="queued")) == 2
    assert len(world.runs("alice", "app", status=["queued", "success"])) == 3
    assert world.runs("alice", "app", status="failure") == []
    assert len(world.runs("alice", "app", event="push")) == 3 and world.runs("alice", "app", event="schedule") == []
    assert len(world.runs("alice", "app", branch="main")) == 3 and world.runs("alice", "app", branch="dev") == []
    assert len(world.runs("alice", "app", actor="alice")) == 3 and world.runs("alice", "app", actor="nobody") == []
    head = world.runs("alice", "app")[0]["head_sha"]
    assert len(world.runs("alice", "app", head_sha=head)) == 2
    bad = world.api("GET", "repos/alice/app/actions/runs", "alice", query_string={"status": "bogus"})
    assert bad.status_code == 400 and "bogus" in bad.get_json()["message"]
    page = world.api("GET", "repos/alice/app/actions/runs", "alice", query_string={"limit": 2, "page": 1})
    assert page.headers["X-Total-Count"] == "3" and len(page.get_json()["workflow_runs"]) == 2
    assert page.get_json()["total_count"] == 3 and 'rel="next"' in page.headers["Link"]
    last = world.api("GET", "repos/alice/app/actions/runs", "alice", query_string={"limit": 2, "page": 2})
    assert [run["run_number"] for run in last.get_json()["workflow_runs"]] == [1]


def test_jobs_of_a_run_and_of_the_repository(world: World) -> None:
    _two_runs(world)
    runs = world.runs("alice", "app")
    jobs = world.jobs("alice", "app", runs[-1]["id"])
    [job] = jobs
    assert job["name"] == "build" and job["labels"] == ["ubuntu-latest"] and job["steps"] == []
    assert job["status"] == "queued" and job["run_id"] == runs[-1]["id"]
    assert job["url"] == f"http://forge.test/api/v1/repos/alice/app/actions/jobs/{job['id']}"
    assert job["run_url"] == runs[-1]["url"] and ISO.match(job["created_at"])
    listing = world.api("GET", "repos/alice/app/actions/jobs", "alice")
    assert listing.status_code == 200 and listing.get_json()["total_count"] == 3
    assert listing.headers["X-Total-Count"] == "3"
    queued = world.api("GET", "repos/alice/app/actions/jobs", "alice", query_string={"status": "queued"})
    assert queued.get_json()["total_count"] == 3
    got = world.api("GET", f"repos/alice/app/actions/jobs/{job['id']}", "alice")
    assert got.status_code == 200 and got.get_json()["id"] == job["id"]
    no_log = world.api("GET", f"repos/alice/app/actions/jobs/{job['id']}/logs", "alice")
    assert no_log.status_code == 404


def test_tasks_in_the_shape_of_section_2_2(world: World) -> None:
    world.repo("alice", "app")
    sha = world.push("alice", "app", ".gitea/workflows/build.yml", SIMPLE_WORKFLOW.replace("CI", "Build"))
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task_id = world.fetch(runner).task.id
    response = world.api("GET", "repos/alice/app/actions/tasks", "alice")
    assert response.status_code == 200 and response.headers["X-Total-Count"] == "1"
    body = response.get_json()
    assert body["total_count"] == 1
    [entry] = body["workflow_runs"]
    run = world.runs("alice", "app")[0]
    assert entry == {
        "id": task_id,
        "name": "Build",
        "head_branch": "main",
        "head_sha": sha,
        "run_number": 1,
        "event": "push",
        "display_title": "Add workflow",
        "status": "running",
        "workflow_id": "build.yml",
        "url": f"/alice/app/actions/runs/{run['id']}",
        "created_at": entry["created_at"],
        "updated_at": entry["updated_at"],
        "run_started_at": entry["run_started_at"],
    }
    assert all(ISO.match(entry[key]) for key in ("created_at", "updated_at", "run_started_at"))
    world.finish(runner, task_id, runner_pb2.RESULT_FAILURE)
    [done] = world.api("GET", "repos/alice/app/actions/tasks", "alice").get_json()["workflow_runs"]
    assert done["status"] == "failure"


def test_anonymous_reads_follow_repository_visibility(world: World) -> None:
    world.repo("alice", "public")
    world.repo("alice", "secret", private=True)
    for repo in ("public", "secret"):
        world.push("alice", repo, ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    public_run = world.runs("alice", "public")[0]["id"]
    secret_run = world.runs("alice", "secret")[0]["id"]
    assert world.api("GET", f"repos/alice/public/actions/runs/{public_run}").status_code == 200
    assert world.api("GET", f"repos/alice/public/actions/runs/{public_run}/jobs").status_code == 200
    assert world.api("GET", "repos/alice/public/actions/tasks").status_code == 200
    assert world.api("GET", "repos/alice/public/actions/runs").status_code == 401  # lists need a token
    assert world.api("GET", f"repos/alice/secret/actions/runs/{secret_run}").status_code == 404
    world.user("mallory")
    assert world.api("GET", f"repos/alice/secret/actions/runs/{secret_run}", "mallory").status_code == 404
    assert world.api("GET", "repos/alice/secret/actions/runs", "mallory").status_code == 404


def test_scopes_are_checked_before_lookups(world: World) -> None:
    world.repo("alice", "app")
    read_only = world.token("alice", ["read:repository"])
    wrong_category = world.token("alice", ["read:user"])
    assert world.api("GET", "repos/alice/app/actions/runs", headers=read_only).status_code == 200
    assert world.api("GET", "repos/alice/nope/actions/runs", headers=wrong_category).status_code == 403
    for method in ("POST", "GET"):
        refused = world.api(method, "repos/alice/app/actions/runners/registration-token", headers=read_only)
        assert refused.status_code == 403, method
        assert (
            world.api(method, "repos/alice/nope/actions/runners/registration-token", headers=read_only).status_code
            == 403
        )
    delete = world.api("DELETE", "repos/alice/app/actions/runs/1", headers=read_only)
    assert delete.status_code == 403


def test_registration_tokens_are_reused_per_scope_and_need_the_owner(world: World) -> None:
    world.repo("alice", "app")
    world.repo("alice", "other")
    posted = world.api("POST", "repos/alice/app/actions/runners/registration-token", "alice")
    legacy = world.api("GET", "repos/alice/app/actions/runners/registration-token", "alice")
    assert posted.status_code == legacy.status_code == 200
    assert posted.get_json()["token"] == legacy.get_json()["token"] and len(posted.get_json()["token"]) == 40
    assert world.registration_token("alice", "other") != posted.get_json()["token"]
    world.user("bob")
    assert world.api("POST", "repos/alice/app/actions/runners/registration-token", "bob").status_code == 403
    assert world.api("POST", "repos/alice/app/actions/runners/registration-token").status_code == 401
    assert world.api("DELETE", "repos/alice/app/actions/runners/registration-token", "bob").status_code == 403


def test_deleting_a_run_needs_it_done_and_takes_its_jobs_and_tasks(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    run = world.runs("alice", "app")[0]
    [job] = world.jobs("alice", "app", run["id"])
    not_done = world.api("DELETE", f"repos/alice/app/actions/runs/{run['id']}", "alice")
    assert not_done.status_code == 400 and not_done.get_json()["message"] == "this workflow run is not done"
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task_id = world.fetch(runner).task.id
    assert world.api("DELETE", f"repos/alice/app/actions/runs/{run['id']}", "alice").status_code == 400
    world.finish(runner, task_id, runner_pb2.RESULT_SUCCESS)
    world.user("bob")
    assert world.api("DELETE", f"repos/alice/app/actions/runs/{run['id']}", "bob").status_code == 403
    assert world.api("DELETE", f"repos/alice/app/actions/runs/{run['id']}", "alice").status_code == 204
    assert world.api("GET", f"repos/alice/app/actions/runs/{run['id']}", "alice").status_code == 404
    assert world.api("GET", f"repos/alice/app/actions/jobs/{job['id']}", "alice").status_code == 404
    assert world.api("GET", "repos/alice/app/actions/tasks", "alice").get_json()["total_count"] == 0
    assert world.api("DELETE", f"repos/alice/app/actions/runs/{run['id']}", "alice").status_code == 404
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW + "# again\n")
    assert world.runs("alice", "app")[0]["run_number"] == 2  # numbers of deleted runs are not reused


def test_deleting_a_repository_forgets_its_runs(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    run_id = world.runs("alice", "app")[0]["id"]
    assert world.api("DELETE", "repos/alice/app", "alice").status_code == 204
    world.repo("alice", "app")
    assert world.runs("alice", "app") == []
    assert world.api("GET", f"repos/alice/app/actions/runs/{run_id}", "alice").status_code == 404
    refused = world.call("FetchTask", runner_pb2.FetchTaskRequest(), runner=runner)
    assert refused.status_code == 401


@pytest.mark.parametrize("path", ["runs", "jobs", "tasks", "workflows"])
def test_unknown_repository_is_404(world: World, path: str) -> None:
    world.user("alice")
    assert world.api("GET", f"repos/alice/missing/actions/{path}", "alice").status_code == 404


@pytest.mark.parametrize(
    ("method", "path", "options", "status"),
    [
        ("GET", "runs", {"query_string": {"page": "abc"}}, 400),
        ("GET", "runs", {"query_string": {"limit": "-5", "page": "-2"}}, 200),
        ("GET", "jobs", {"query_string": {"status": "nope"}}, 400),
        ("GET", "jobs/99999999999999999999999", {}, 404),
        ("GET", "runs/99999999999999999999999", {}, 404),
        ("GET", "runs/99999999999999999999999/jobs", {}, 404),
        ("DELETE", "runs/9223372036854775807", {}, 404),
        ("PATCH", "runners/99999999999999999999999", {"json": {"disabled": True}}, 404),
        ("POST", "workflows/ci.yml/dispatches", {"data": "[]", "content_type": "application/json"}, 422),
        ("POST", "workflows/ci.yml/dispatches", {"data": "{bad", "content_type": "application/json"}, 422),
        ("POST", "workflows/ci.yml/dispatches?return_run_details=maybe", {"json": {"ref": "main"}}, 400),
        ("POST", "workflows/ci.yml/dispatches", {"json": {"ref": "-rf"}}, 404),
        ("POST", "workflows/ci.yml/dispatches", {"json": {"ref": "main\x00x"}}, 404),
        ("POST", "workflows/..%2F..%2Fetc/dispatches", {"json": {"ref": "main"}}, 404),
    ],
)
def test_bad_input_gets_a_clear_4xx(
    world: World, method: str, path: str, options: dict[str, object], status: int
) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    response = world.api(method, f"repos/alice/app/actions/{path}", "alice", **options)
    assert response.status_code == status, response.get_data(as_text=True)
    if status >= 400:
        assert response.get_json()["message"]


def test_a_pathologically_nested_workflow_is_listed_but_never_runs(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/deep.yml", "a: " + "[" * 5000 + "]" * 5000 + "\n")
    listed = world.api("GET", "repos/alice/app/actions/workflows", "alice")
    assert listed.status_code == 200 and [w["name"] for w in listed.get_json()["workflows"]] == ["deep.yml"]
    assert world.runs("alice", "app") == []


def test_cancelling_a_run_cancels_its_queued_jobs_and_running_task(world: World) -> None:
    world.repo("alice", "app")
    two_jobs = SIMPLE_WORKFLOW + "  later:\n    needs: build\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"
    world.push("alice", "app", ".gitea/workflows/ci.yml", two_jobs)
    run = world.runs("alice", "app")[0]
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task_id = world.fetch(runner).task.id
    world.user("bob")
    assert world.api("POST", f"repos/alice/app/actions/runs/{run['id']}/cancel", "bob").status_code == 403
    assert world.api("POST", f"repos/alice/app/actions/runs/{run['id']}/cancel", "alice").status_code == 204
    cancelled = world.api("GET", f"repos/alice/app/actions/runs/{run['id']}", "alice").get_json()
    assert (cancelled["status"], cancelled["conclusion"]) == ("completed", "cancelled")
    jobs = world.jobs("alice", "app", run["id"])
    assert [(job["name"], job["conclusion"]) for job in jobs] == [("build", "cancelled"), ("later", "cancelled")]
    assert [step["conclusion"] for step in jobs[0]["steps"]] == ["cancelled", "cancelled"]
    heartbeat = runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=task_id))
    answer = world.reply(world.call("UpdateTask", heartbeat, runner=runner), runner_pb2.UpdateTaskResponse)
    assert answer.state.result == runner_pb2.RESULT_CANCELLED  # the runner learns it and stops
    assert world.finish(runner, task_id, runner_pb2.RESULT_SUCCESS).state.result == runner_pb2.RESULT_CANCELLED
    assert not world.fetch(runner).HasField("task")
    again = world.api("POST", f"repos/alice/app/actions/runs/{run['id']}/cancel", "alice")
    assert again.status_code == 409 and again.get_json()["message"] == "this workflow run is already done"
    assert world.api("DELETE", f"repos/alice/app/actions/runs/{run['id']}", "alice").status_code == 204
