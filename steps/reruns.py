"""Reruns and attempts of workflow runs: finishing a run with the mock runner, rerunning it (all of it,
its failed jobs, one job), reading earlier attempts, and the runs of one workflow.

The run is "the run of <file>" of the CI world's repository; jobs are named by their workflow key.
Gitea 1.27 shows a blocked job as ``waiting`` or ``pending``: features write ``blocked`` for either.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.actions import ActionsApi
from conformance.api.reruns import RerunsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.ci import CiWorld, find_run, owner_actions, report_result, take_job, wait_for
from steps.common import expect_status
from steps.parsing import phrase

__all__: list[str] = []

BLOCKED = ("waiting", "pending")


@dataclass
class RerunNotes:
    """The answers of reruns sent together (the scenario's last response is only one of them)."""

    together: list[requests.Response] = field(default_factory=list)


@pytest.fixture
def rerun_notes() -> RerunNotes:
    return RerunNotes()


def _results(text: str) -> dict[str, str]:
    """``"lint: failure, build: success"`` as a mapping."""
    pairs = (item.split(":", 1) for item in text.split(",") if ":" in item)
    return {name.strip(): value.strip() for name, value in pairs}


def _run_id(ci_world: CiWorld, file_name: str) -> int:
    return int(find_run(ci_world.ctx, ci_world.repository(), file_name)["id"])


def _jobs(ci_world: CiWorld, file_name: str) -> list[dict[str, Any]]:
    repo = ci_world.repository()
    response = owner_actions(ci_world.ctx, repo).list_run_jobs(repo.owner, repo.name, _run_id(ci_world, file_name))
    body = expect_status(response, 200, f'list the jobs of the run of "{file_name}"')
    jobs = body.get("jobs")
    assert isinstance(jobs, list), f"no jobs array: {str(body)[:300]}"
    return jobs


def _state(job: dict[str, Any]) -> str:
    """A job's conclusion once completed, ``blocked`` for Gitea's two blocked words, else its status."""
    status = str(job.get("status"))
    if status == "completed":
        return str(job.get("conclusion"))
    return "blocked" if status in BLOCKED else status


def _job_id(ci_world: CiWorld, file_name: str, name: str) -> int:
    for job in _jobs(ci_world, file_name):
        if job.get("name") == name:
            return int(job["id"])
    raise AssertionError(f'no job "{name}" in the run of "{file_name}"')


# ---------------------------------------------------------------- Given


@given(phrase('the mock runner has run the jobs of "{file_name}" with the results "{results}"'))
def given_run_finished(ci_world: CiWorld, file_name: str, results: str) -> None:
    """Take and finish every job the run hands out (success unless named) until the run is completed."""
    wanted = _results(results)
    repo = ci_world.repository()

    def finished() -> bool | None:
        return True if find_run(ci_world.ctx, repo, file_name).get("status") == "completed" else None

    for _ in range(20):
        if find_run(ci_world.ctx, repo, file_name).get("status") == "completed":
            return
        job = take_job(ci_world.mock_runner(), repo)
        report_result(job, wanted.get(job.name, "success"))
    wait_for(finished, f'the run of "{file_name}" completing')


@given(phrase('"{who}" has rerun the run of "{file_name}"'))
def given_rerun(ci_world: CiWorld, who: str, file_name: str) -> None:
    repo = ci_world.repository()
    response = acting(ci_world.ctx, who, RerunsApi).rerun(repo.owner, repo.name, _run_id(ci_world, file_name))
    expect_status(response, 201, f'rerun the run of "{file_name}"')


# ---------------------------------------------------------------- When


@when(phrase('"{who}" reruns the run of "{file_name}"'))
def when_rerun(ci_world: CiWorld, who: str, file_name: str) -> None:
    repo = ci_world.repository()
    ctx = ci_world.ctx
    ctx.response = acting(ctx, who, RerunsApi).rerun(repo.owner, repo.name, _run_id(ci_world, file_name))


@when(phrase('"{who}" sends {count:d} reruns of the run of "{file_name}" at once'))
def when_reruns_together(ci_world: CiWorld, rerun_notes: RerunNotes, who: str, count: int, file_name: str) -> None:
    """The reruns leave together from a thread each, so a forge must settle which one opens the attempt."""
    repo = ci_world.repository()
    run_id = _run_id(ci_world, file_name)
    api = acting(ci_world.ctx, who, RerunsApi)
    with ThreadPoolExecutor(count) as pool:
        rerun_notes.together = list(pool.map(lambda _: api.rerun(repo.owner, repo.name, run_id), range(count)))
    ci_world.ctx.response = rerun_notes.together[-1]


@when(phrase('"{who}" reruns the failed jobs of the run of "{file_name}"'))
def when_rerun_failed(ci_world: CiWorld, who: str, file_name: str) -> None:
    repo = ci_world.repository()
    ctx = ci_world.ctx
    ctx.response = acting(ctx, who, RerunsApi).rerun_failed(repo.owner, repo.name, _run_id(ci_world, file_name))


@when(phrase('"{who}" reruns the job "{name}" of the run of "{file_name}"'))
def when_rerun_job(ci_world: CiWorld, who: str, name: str, file_name: str) -> None:
    repo = ci_world.repository()
    ctx = ci_world.ctx
    run_id, job_id = _run_id(ci_world, file_name), _job_id(ci_world, file_name, name)
    ctx.response = acting(ctx, who, RerunsApi).rerun_job(repo.owner, repo.name, run_id, job_id)


@when(phrase('"{who}" reruns the job "{name}" of "{other}" through the run of "{file_name}"'))
def when_rerun_foreign_job(ci_world: CiWorld, who: str, name: str, other: str, file_name: str) -> None:
    """A job of another run named through this run: not one of its jobs."""
    repo = ci_world.repository()
    ctx = ci_world.ctx
    run_id, job_id = _run_id(ci_world, file_name), _job_id(ci_world, other, name)
    ctx.response = acting(ctx, who, RerunsApi).rerun_job(repo.owner, repo.name, run_id, job_id)


@when(phrase('"{who}" reads attempt {attempt:d} of the run of "{file_name}"'))
def when_read_attempt(ci_world: CiWorld, who: str, attempt: int, file_name: str) -> None:
    repo = ci_world.repository()
    ctx = ci_world.ctx
    ctx.response = acting(ctx, who, RerunsApi).attempt(repo.owner, repo.name, _run_id(ci_world, file_name), attempt)


@when(phrase('"{who}" lists the jobs of attempt {attempt:d} of the run of "{file_name}"'))
def when_attempt_jobs(ci_world: CiWorld, who: str, attempt: int, file_name: str) -> None:
    repo = ci_world.repository()
    ctx = ci_world.ctx
    run_id = _run_id(ci_world, file_name)
    ctx.response = acting(ctx, who, RerunsApi).attempt_jobs(repo.owner, repo.name, run_id, attempt)


@when(phrase('"{who}" lists the runs of the workflow "{file_name}"'))
def when_workflow_runs(ci_world: CiWorld, who: str, file_name: str) -> None:
    repo = ci_world.repository()
    ctx = ci_world.ctx
    ctx.response = acting(ctx, who, RerunsApi).workflow_runs(repo.owner, repo.name, file_name)


# ---------------------------------------------------------------- Then


@then(phrase('the jobs of the run of "{file_name}" are "{states}"'))
def then_job_states(ci_world: CiWorld, file_name: str, states: str) -> None:
    """Each named job's conclusion (completed) or status (``blocked`` for waiting/pending)."""
    found = {str(job.get("name")): _state(job) for job in _jobs(ci_world, file_name)}
    expected = _results(states)
    assert found == expected, f"the jobs are {found}, expected {expected}"


@then(phrase('the listed jobs are "{states}"'))
def then_listed_job_states(ctx: ScenarioContext, states: str) -> None:
    """The jobs of the last ActionWorkflowJobsResponse, by name, with their state."""
    body = json_of(ctx.last_response())
    found = {str(job.get("name")): _state(job) for job in body.get("jobs", [])}
    expected = _results(states)
    assert found == expected, f"the listed jobs are {found}, expected {expected}"
    assert body.get("total_count") == len(expected), f"total_count is {body.get('total_count')}"


@then(phrase("one of the reruns sent at once is accepted and the others are refused with 409 or 400"))
def then_one_rerun_won(rerun_notes: RerunNotes) -> None:
    """Gitea answers 409 to a rerun whose attempt another one opened first, 400 to one that arrives once the
    run is running again; either way exactly one is accepted."""
    statuses = sorted(response.status_code for response in rerun_notes.together)
    assert statuses.count(201) == 1, f"the reruns sent at once were answered {statuses}"
    refused = [status for status in statuses if status != 201]
    assert all(status in (400, 409) for status in refused), f"the refused reruns were answered {refused}"


@then(phrase('the run of "{file_name}" is in attempt {attempt:d}'))
def then_in_attempt(ci_world: CiWorld, file_name: str, attempt: int) -> None:
    """``run_attempt`` is the number and ``previous_attempt_url`` names the attempt before (null for the first)."""
    repo = ci_world.repository()
    run_id = _run_id(ci_world, file_name)
    response = acting(ci_world.ctx, ADMIN, ActionsApi).get_run(repo.owner, repo.name, run_id)
    run = expect_status(response, 200, f'read the run of "{file_name}"')
    assert run.get("run_attempt") == attempt, f"run_attempt is {run.get('run_attempt')}, expected {attempt}"
    previous = run.get("previous_attempt_url")
    if attempt == 1:
        assert previous is None, f"previous_attempt_url is {previous!r} on the first attempt"
    else:
        wanted = f"/actions/runs/{run_id}/attempts/{attempt - 1}"
        assert str(previous).endswith(wanted), f"previous_attempt_url is {previous!r}, expected ...{wanted}"


@then(phrase('the listed runs are the {count:d} of "{file_name}"'))
def then_workflow_runs(ctx: ScenarioContext, count: int, file_name: str) -> None:
    body = json_of(ctx.last_response())
    runs = body.get("workflow_runs", [])
    paths = [str(run.get("path", "")).split("@", 1)[0] for run in runs]
    assert len(runs) == count and all(path == file_name for path in paths), f"the runs listed are of {paths}"
    assert body.get("total_count") == count, f"total_count is {body.get('total_count')}"
