"""Actions writes commit statuses: each job of a run triggered by ``push`` or ``pull_request`` reports
``<workflow name> / <job name> (<event>)`` on the commit the run is about, as the job moves (Gitea's
``services/actions/commit_status.go``). Runs of other events (``workflow_dispatch``, schedules) report
nothing. A report identical to the context's latest one is not repeated.
"""

from __future__ import annotations

from urllib.parse import quote

from ..actions.models import Job, Run, get_job, get_run
from ..actions.status import Status
from ..context import forge
from ..events import JobStatusEvent
from ..repos import models as repos
from ..users.tokens import ACTIONS_USER_ID
from .models import latest_status_of_context, record_status

__all__ = ["commit_of_run", "go_duration", "on_job_status", "status_state"]

STATES: dict[Status, str] = {
    Status.SUCCESS: "success",
    Status.FAILURE: "failure",
    Status.CANCELLED: "failure",
    Status.WAITING: "pending",
    Status.BLOCKED: "pending",
    Status.RUNNING: "pending",
    Status.SKIPPED: "skipped",
}
"""Gitea's ``toCommitStatus``: a cancelled job is a failure; anything unknown is an error."""


def status_state(status: Status) -> str:
    return STATES.get(status, "error")


def go_duration(seconds: int) -> str:
    """A whole number of seconds as Go prints a ``time.Duration`` (``0s``, ``42s``, ``1m5s``, ``2h0m3s``)."""
    seconds = max(seconds, 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes}m{secs}s"
    if minutes:
        return f"{minutes}m{secs}s"
    return f"{secs}s"


def _description(job: Job) -> str:
    took = go_duration(job.stopped - job.started if job.started and job.stopped >= job.started else 0)
    return {
        Status.SUCCESS: f"Successful in {took}",
        Status.FAILURE: f"Failing after {took}",
        Status.CANCELLED: "Has been cancelled",
        Status.SKIPPED: "Has been skipped",
        Status.RUNNING: "Has started running",
        Status.WAITING: "Waiting to run",
        Status.BLOCKED: "Blocked by required conditions",
    }.get(job.status, f"Unknown status: {int(job.status)}")


def commit_of_run(run: Run) -> tuple[str, str] | None:
    """``(event, commit)`` a run's statuses go to: a push's head commit, a pull request's head; else None."""
    if run.event == "push":
        return ("push", run.head_sha) if run.head_sha else None
    if run.event.startswith("pull_request"):
        pull = run.event_payload.get("pull_request")
        head = pull.get("head") if isinstance(pull, dict) else None
        sha = head.get("sha") if isinstance(head, dict) else None
        event = "pull_request_target" if run.event == "pull_request_target" else "pull_request"
        return (event, sha) if isinstance(sha, str) and sha else None
    return None


def on_job_status(event: JobStatusEvent) -> None:
    """Report the job's new state on its run's commit (listener of ``JobStatusEvent``)."""
    job, run = get_job(event.job_id), get_run(event.run_id)
    if job is None or run is None:
        return
    target = commit_of_run(run)
    if target is None:
        return
    trigger, sha = target
    repo = repos.get_repo_by_id(run.repo_id)
    context = f"{run.name} / {job.name} ({trigger})".strip()
    state, description = status_state(job.status), _description(job)
    run_url = forge().url(f"{quote(repo.owner_name)}/{quote(repo.name)}/actions/runs/{run.id}")
    target_url = f"{run_url}/jobs/{job.id}"
    latest = latest_status_of_context(repo.id, sha, context)  # one indexed row, not every context of the commit
    if (
        latest is not None
        and latest.context == context
        and (latest.state, latest.target_url, latest.description) == (state, target_url, description)
    ):
        return
    record_status(
        repo.id,
        sha,
        state=state,
        target_url=target_url,
        description=description,
        context=context,
        creator_id=ACTIONS_USER_ID,
    )
