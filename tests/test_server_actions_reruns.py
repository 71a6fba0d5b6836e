"""Reruns and attempts of workflow runs: which jobs are re-queued, attempt numbering, refusals while a run
is running, the answers of earlier attempts, and the runs of one workflow."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, RunnerIdentity, World, world

from reference_server.actions import reruns
from reference_server.actions.models import Job

__all__ = ["world"]

CHAIN = """\
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
  test:
    runs-on: ubuntu-latest
    needs: build
    steps:
      - run: echo test
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: echo lint
"""


def _run_all(world: World, runner: RunnerIdentity, results: dict[str, int]) -> None:
    """Hand out tasks until none is left, finishing each job with its result by name (success by default)."""
    while True:
        task = world.fetch(runner).task
        if not task.id:
            return
        name = str(task.context["job"]) if "job" in task.context else ""  # a Struct has no get()
        world.finish(runner, task.id, results.get(name, runner_pb2.RESULT_SUCCESS))


def _finished_chain(world: World, results: dict[str, int]) -> tuple[int, dict[str, int]]:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/chain.yml", CHAIN)
    [run] = world.runs("alice", "app")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    _run_all(world, runner, results)
    return run["id"], {job["name"]: job["id"] for job in world.jobs("alice", "app", run["id"])}


def test_a_running_run_is_not_rerun(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    [run] = world.runs("alice", "app")
    answer = world.api("POST", f"repos/alice/app/actions/runs/{run['id']}/rerun", "alice")
    assert answer.status_code == 400 and answer.get_json()["message"] == "this workflow run is not done"


def test_a_whole_rerun_opens_attempt_two_and_requeues_every_job(world: World) -> None:
    run_id, _ = _finished_chain(world, {})
    answer = world.api("POST", f"repos/alice/app/actions/runs/{run_id}/rerun", "alice")
    assert answer.status_code == 201
    body = answer.get_json()
    assert body["run_attempt"] == 2 and body["status"] in ("queued", "in_progress")
    assert body["previous_attempt_url"].endswith(f"/actions/runs/{run_id}/attempts/1")
    statuses = {job["name"]: job["status"] for job in world.jobs("alice", "app", run_id)}
    assert statuses["build"] == "queued" and statuses["lint"] == "queued"
    assert statuses["test"] in ("waiting", "pending")  # blocked behind build, which reruns too
    first = world.api("GET", f"repos/alice/app/actions/runs/{run_id}/attempts/1", "alice").get_json()
    assert first["run_attempt"] == 1 and first["conclusion"] == "success"
    old_jobs = world.api("GET", f"repos/alice/app/actions/runs/{run_id}/attempts/1/jobs", "alice").get_json()
    assert old_jobs["total_count"] == 3 and {job["conclusion"] for job in old_jobs["jobs"]} == {"success"}
    assert world.api("GET", f"repos/alice/app/actions/runs/{run_id}/attempts/3", "alice").status_code == 404


def test_a_job_rerun_takes_its_dependants_and_leaves_the_rest(world: World) -> None:
    run_id, ids = _finished_chain(world, {})
    answer = world.api("POST", f"repos/alice/app/actions/runs/{run_id}/jobs/{ids['build']}/rerun", "alice")
    assert answer.status_code == 201 and answer.get_json()["id"] == ids["build"]
    statuses = {job["name"]: job.get("conclusion", job["status"]) for job in world.jobs("alice", "app", run_id)}
    assert statuses["lint"] == "success" and statuses["build"] == "queued"
    assert statuses["test"] in ("waiting", "pending")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    _run_all(world, runner, {})
    [run] = world.runs("alice", "app")
    assert run["conclusion"] == "success" and run["run_attempt"] == 2


def test_rerun_failed_jobs(world: World) -> None:
    run_id, _ = _finished_chain(world, {"lint": runner_pb2.RESULT_FAILURE})
    answer = world.api("POST", f"repos/alice/app/actions/runs/{run_id}/rerun-failed-jobs", "alice")
    assert answer.status_code == 201 and not answer.data
    statuses = {job["name"]: job.get("conclusion", job["status"]) for job in world.jobs("alice", "app", run_id)}
    assert statuses == {"build": "success", "test": "success", "lint": "queued"}
    runner = world.register("alice", "app", ["ubuntu-latest"])
    _run_all(world, runner, {})
    again = world.api("POST", f"repos/alice/app/actions/runs/{run_id}/rerun-failed-jobs", "alice")
    assert again.status_code == 400 and "no failed jobs" in again.get_json()["message"]


def test_refusals_of_a_job_rerun(world: World) -> None:
    run_id, _ = _finished_chain(world, {})
    assert world.api("POST", f"repos/alice/app/actions/runs/{run_id}/jobs/999999/rerun", "alice").status_code == 404
    world.user("bob")
    assert world.api("POST", f"repos/alice/app/actions/runs/{run_id}/rerun", "bob").status_code == 403


def test_runs_of_one_workflow(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    world.push("alice", "app", ".gitea/workflows/other.yml", SIMPLE_WORKFLOW)
    listed = world.api("GET", "repos/alice/app/actions/workflows/other.yml/runs", "alice").get_json()
    assert listed["total_count"] == 1 and listed["workflow_runs"][0]["path"].startswith("other.yml@")
    assert world.api("GET", "repos/alice/app/actions/workflows/none.yml/runs", "alice").status_code == 404


def test_a_disabled_workflow_is_not_rerun(world: World) -> None:
    run_id, _ = _finished_chain(world, {})
    assert world.api("PUT", "repos/alice/app/actions/workflows/chain.yml/disable", "alice").status_code == 204
    answer = world.api("POST", f"repos/alice/app/actions/runs/{run_id}/rerun", "alice")
    assert answer.status_code == 400 and answer.get_json()["message"] == "workflow chain.yml is disabled"
    assert world.runs("alice", "app")[0]["run_attempt"] == 1


def test_two_reruns_racing_open_one_attempt_and_the_loser_gets_409(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both reruns see attempt 1 before either opens attempt 2 (a barrier holds them there); the one that
    commits second finds the attempt taken and answers Gitea's 409, opening nothing."""
    run_id, _ = _finished_chain(world, {})
    both_observed = threading.Barrier(2, timeout=10)
    real_jobs_of_run = reruns.jobs_of_run  # type: ignore[attr-defined]

    def jobs_after_both_observed(run: int) -> list[Job]:
        both_observed.wait()
        return real_jobs_of_run(run)

    monkeypatch.setattr(reruns, "jobs_of_run", jobs_after_both_observed)
    url = f"/api/v1/repos/alice/app/actions/runs/{run_id}/rerun"
    headers = world.user("alice")
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: world.app.test_client().post(url, headers=headers), range(2)))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201, 409]
    refused = next(answer for answer in answers if answer.status_code == 409)
    assert refused.get_json()["message"] == f"workflow run attempt 2 for run {run_id} already exists"
    assert world.runs("alice", "app")[0]["run_attempt"] == 2
