"""Reruns and attempts of workflow runs (Gitea 1.27's rerunWorkflowRun, rerunFailedWorkflowRun,
rerunWorkflowJob, getWorkflowRunAttempt, listWorkflowRunAttemptJobs) and the runs of one workflow.

A rerun needs a finished run whose workflow is enabled (400 otherwise). It opens the next attempt,
keeps the answers of the one it replaces, and re-queues the chosen jobs with every job that needs
them, transitively: a re-queued job whose needs rerun too waits blocked behind them, the others go
back to the runners at once. Jobs outside that set keep their results (services/actions/rerun.go).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge, now_seconds
from ..endpoints import API, EMPTY, Endpoint
from ..errors import BadRequest, Conflict, NotFound
from ..permissions import current_repo
from ..repos.models import Repo
from ..rest import empty, json_response, page_params, paged_response
from . import attempts, queries, store
from .convert import job_to_api, run_to_api
from .errors import JobNotFound, RunNotDone
from .models import Job, Run, bump_tasks_version, jobs_of_run, publish_job_status, refresh_run, task_queue_signal
from .status import Status

__all__ = ["RERUN_ENDPOINTS"]

RUN = API + "/repos/<owner>/<repo>/actions/runs/<run_id>"


class AttemptNotFound(NotFound):
    default_message = "workflow run attempt not found"


class AttemptExists(Conflict):
    """Another rerun opened the attempt this one meant to open (Gitea's ErrAlreadyExist: 409)."""


def _rerun_set(jobs: list[Job], targets: list[Job]) -> set[int]:
    """The targets and every job that needs one of them, transitively (by job key: matrix siblings share it)."""
    keys = {job.job_key for job in targets}
    chosen = {job.id for job in targets}
    grown = True
    while grown:
        grown = False
        for job in jobs:
            if job.id not in chosen and any(need in keys for need in job.needs):
                chosen.add(job.id)
                keys.add(job.job_key)
                grown = True
    return chosen


def _snapshot(run: Run, repo: Repo, jobs: list[Job]) -> dict[str, Any]:
    return {
        "run": run_to_api(run, repo),
        "jobs": [{"status": int(job.status), "api": job_to_api(job, run, repo)} for job in jobs],
    }


def rerun(run: Run, repo: Repo, targets: list[Job] | None, doer_id: int) -> int:
    """Open the next attempt and re-queue ``targets`` (every job when None) with their dependants."""
    if not run.is_done:
        raise RunNotDone()
    if run.workflow_id in store.disabled_workflows(repo.id):
        raise BadRequest(f"workflow {run.workflow_id} is disabled")
    observed = attempts.current_attempt(run.id)
    jobs = jobs_of_run(run.id)
    chosen = _rerun_set(jobs, jobs if targets is None else targets)
    rerun_keys = {job.job_key for job in jobs if job.id in chosen}
    now = now_seconds()
    with forge().db.transaction():
        if attempts.current_attempt(run.id) != observed:  # a concurrent rerun committed first
            raise AttemptExists(f"workflow run attempt {observed + 1} for run {run.id} already exists")
        attempt = attempts.record_rerun(run.id, run.trigger_user_id, _snapshot(run, repo, jobs), doer_id, now)
        store.update_run_state(run.id, int(Status.WAITING), 0, 0, now)
        for job in jobs:
            if job.id not in chosen:
                continue
            blocked = any(need in rerun_keys for need in job.needs)
            status = Status.BLOCKED if blocked else Status.WAITING
            attempts.requeue_job(job.id, int(status), now)
            publish_job_status(job.id, run.id, run.repo_id, status)
        bump_tasks_version(run.owner_id, run.repo_id, now)
        refresh_run(run.id, now)
    task_queue_signal().notify()
    return attempt


def _run(raw_id: str) -> tuple[Repo, Run]:
    repo = current_repo()
    return repo, queries.run_of_repo(repo, raw_id)


def rerun_workflow_run(owner: str, repo: str, run_id: str) -> Response:
    """Rerun every job; 201 with the run's new attempt."""
    found, run = _run(run_id)
    rerun(run, found, None, current_principal().user_id)
    return json_response(run_to_api(queries.run_of_repo(found, run_id), found), status=201)


def rerun_failed_workflow_run(owner: str, repo: str, run_id: str) -> Response:
    """Rerun the failed and cancelled jobs (400 when there are none); 201 without a body."""
    found, run = _run(run_id)
    failed = [job for job in jobs_of_run(run.id) if job.status in (Status.FAILURE, Status.CANCELLED)]
    if not failed:
        raise BadRequest("this workflow run has no failed jobs to re-run")
    rerun(run, found, failed, current_principal().user_id)
    return empty(201)


def rerun_workflow_job(owner: str, repo: str, run_id: str, job_id: str) -> Response:
    """Rerun one job of the run (and what needs it); 201 with the job."""
    found, run = _run(run_id)
    wanted = queries.parse_id(job_id)
    target = next((job for job in jobs_of_run(run.id) if job.id == wanted), None)
    if target is None:
        raise JobNotFound()
    rerun(run, found, [target], current_principal().user_id)
    fresh = queries.job_of_repo(found, str(target.id))
    return json_response(job_to_api(fresh, queries.run_of_repo(found, run_id), found), status=201)


def _attempt_number(run: Run, raw: str) -> int:
    number = queries.parse_id(raw)
    if number is None or number > attempts.current_attempt(run.id):
        raise AttemptNotFound()
    return number


def _old_attempt(run: Run, number: int) -> dict[str, Any]:
    row = attempts.attempt_row(run.id, number)
    if row is None or not row["snapshot"]:  # pragma: no cover - every attempt before the latest has one
        raise AttemptNotFound()
    snapshot: dict[str, Any] = json.loads(row["snapshot"])
    return snapshot


def get_workflow_run_attempt(owner: str, repo: str, run_id: str, attempt: str) -> Response:
    """The run as it was in one attempt (the latest is the run itself)."""
    found, run = _run(run_id)
    number = _attempt_number(run, attempt)
    if number == attempts.current_attempt(run.id):
        return json_response(run_to_api(run, found))
    return json_response(_old_attempt(run, number)["run"])


def list_workflow_run_attempt_jobs(owner: str, repo: str, run_id: str, attempt: str) -> Response:
    """The jobs of one attempt, filtered by ``status`` and paged."""
    found, run = _run(run_id)
    number = _attempt_number(run, attempt)
    page = page_params()
    if number == attempts.current_attempt(run.id):
        jobs, total = queries.jobs_page(request.args, page.limit, page.offset, repo_id=found.id, run_id=run.id)
        payload = {"jobs": [job_to_api(job, run, found) for job in jobs], "total_count": total}
        return paged_response(payload, page, total)
    wanted = set(queries.status_filter(request.args))
    kept = [item["api"] for item in _old_attempt(run, number)["jobs"] if not wanted or item["status"] in wanted]
    window = kept[page.offset : page.offset + page.limit]
    return paged_response({"jobs": window, "total_count": len(kept)}, page, len(kept))


def actions_list_workflow_runs(owner: str, repo: str, workflow_id: str) -> Response:
    """The runs of one workflow file, newest first, with the filters of the runs list; 404 for a workflow
    the default branch does not have and that never ran."""
    found = current_repo()
    page = page_params()
    runs, total = queries.runs_page(request.args, page.limit, page.offset, repo_id=found.id, workflow_id=workflow_id)
    if total == 0:
        queries.default_branch_workflow(found, workflow_id)
    payload = {"workflow_runs": [run_to_api(run, found) for run in runs], "total_count": total}
    return paged_response(payload, page, total)


_WRITE = token("repository", repo="write")
_READ = token("repository", anonymous_read=True, repo="read")

RERUN_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        RUN + "/rerun",
        "rerunWorkflowRun",
        rerun_workflow_run,
        "repository",
        _WRITE,
        status=201,
        returns="action_workflow_run",
        errors=(400, 403, 404, 409),
    ),
    Endpoint(
        "POST",
        RUN + "/rerun-failed-jobs",
        "rerunFailedWorkflowRun",
        rerun_failed_workflow_run,
        "repository",
        _WRITE,
        status=201,
        returns=EMPTY,
        errors=(400, 403, 404, 409),
    ),
    Endpoint(
        "POST",
        RUN + "/jobs/<job_id>/rerun",
        "rerunWorkflowJob",
        rerun_workflow_job,
        "repository",
        _WRITE,
        status=201,
        returns="action_workflow_job",
        errors=(400, 403, 404, 409),
    ),
    Endpoint(
        "GET",
        RUN + "/attempts/<attempt>",
        "getWorkflowRunAttempt",
        get_workflow_run_attempt,
        "repository",
        _READ,
        returns="action_workflow_run",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        RUN + "/attempts/<attempt>/jobs",
        "listWorkflowRunAttemptJobs",
        list_workflow_run_attempt_jobs,
        "repository",
        _READ,
        returns="action_workflow_job_list",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/actions/workflows/<workflow_id>/runs",
        "actionsListWorkflowRuns",
        actions_list_workflow_runs,
        "repository",
        token("repository", repo="read"),
        returns="action_workflow_run_list",
        errors=(400, 403, 404),
    ),
)
