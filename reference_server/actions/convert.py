"""REST shapes of the actions family, as Gitea 1.27 writes them (ActionWorkflowRun, ActionWorkflowJob...)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..context import forge
from ..errors import ApiError
from ..repos.models import Repo, get_repo_by_id
from ..repos.presenters import repo_to_api
from ..timefmt import iso, iso_or_zero
from ..users.models import get_user
from ..users.presenters import user_to_api
from . import runner_store
from .attempts import current_attempt, trigger_user_of
from .models import Job, Run, Runner, Task, get_job, get_run, get_runner, steps_of_task
from .status import Status, api_status
from .triggers import WorkflowFile

__all__ = ["job_to_api", "run_details", "run_to_api", "runner_to_api", "task_to_api", "workflow_to_api"]


def _repo_api(repo: Repo) -> str:
    return forge().api_url(f"repos/{repo.full_name}")


def _repo_html(repo: Repo) -> str:
    return forge().url(repo.full_name)


def _user(user_id: int) -> dict[str, Any] | None:
    try:
        return user_to_api(get_user(user_id))
    except ApiError:
        return None


def run_to_api(run: Run, repo: Repo) -> dict[str, Any]:
    """Gitea 1.27's ``ActionWorkflowRun``; ``conclusion`` only once completed, ``html_url`` by run id."""
    status, conclusion = api_status(run.status)
    actor = _user(run.trigger_user_id)
    attempt = current_attempt(run.id)
    run_url = f"{_repo_api(repo)}/actions/runs/{run.id}"
    payload: dict[str, Any] = {
        "id": run.id,
        "url": f"{_repo_api(repo)}/actions/runs/{run.id}",
        "html_url": f"{_repo_html(repo)}/actions/runs/{run.id}",
        "display_title": run.display_title,
        "path": f"{run.workflow_id}@{run.ref}",
        "event": run.event,
        "run_attempt": attempt,
        "run_number": run.run_number,
        "repository_id": repo.id,
        "head_sha": run.head_sha,
    }
    if run.head_branch:
        payload["head_branch"] = run.head_branch
    payload["status"] = status
    if conclusion is not None:
        payload["conclusion"] = conclusion
    payload.update(
        {
            "actor": actor,
            "trigger_actor": actor if attempt == 1 else _user(trigger_user_of(run.id, run.trigger_user_id)),
            "repository": repo_to_api(repo),
            "started_at": iso_or_zero(run.started),
            "completed_at": iso_or_zero(run.stopped),
            "previous_attempt_url": f"{run_url}/attempts/{attempt - 1}" if attempt > 1 else None,
            "pull_requests": [],
        }
    )
    return payload


def _step_to_api(index: int, name: str, status: Status, started: int, stopped: int) -> dict[str, Any]:
    state, conclusion = api_status(status)
    step: dict[str, Any] = {"name": name, "number": index, "status": state}
    if conclusion is not None:
        step["conclusion"] = conclusion
    step["started_at"] = iso_or_zero(started)
    step["completed_at"] = iso_or_zero(stopped)
    return step


def job_to_api(job: Job, run: Run, repo: Repo) -> dict[str, Any]:
    """Gitea 1.27's ``ActionWorkflowJob``: ``url`` without ``runs/<run>``, steps of its task (never null)."""
    status, conclusion = api_status(job.status)
    payload: dict[str, Any] = {
        "id": job.id,
        "url": f"{_repo_api(repo)}/actions/jobs/{job.id}",
        "html_url": f"{_repo_html(repo)}/actions/runs/{run.id}/jobs/{job.id}",
        "run_id": run.id,
        "run_url": f"{_repo_api(repo)}/actions/runs/{run.id}",
        "name": job.name,
        "labels": list(job.labels),
        "run_attempt": job.attempt if (attempt := current_attempt(run.id)) == 1 else attempt,
        "head_sha": run.head_sha,
    }
    if run.head_branch:
        payload["head_branch"] = run.head_branch
    payload["status"] = status
    if conclusion is not None:
        payload["conclusion"] = conclusion
    steps: list[dict[str, Any]] = []
    if job.task_id:
        task_row = runner_store.task_row(job.task_id)
        runner = get_runner(int(task_row["runner_id"])) if task_row is not None else None
        if runner is not None:
            payload["runner_id"] = runner.id
            payload["runner_name"] = runner.name
        steps = [
            _step_to_api(step.index, step.name, step.status, step.started, step.stopped)
            for step in steps_of_task(job.task_id)
        ]
    payload.update(
        {
            "steps": steps,
            "created_at": iso(job.created),
            "started_at": iso_or_zero(job.started),
            "completed_at": iso_or_zero(job.stopped),
        }
    )
    return payload


def web_path(path: str) -> str:
    """A path of the web interface relative to the host, with the deployment sub-path (as Gitea's ``Link()``)."""
    sub = forge().config.sub_path
    return ("/" + sub if sub else "") + "/" + path.lstrip("/")


def task_to_api(task: Task) -> dict[str, Any] | None:
    """The ``ActionTask`` of specification section 2.2 (None when its job or run is gone)."""
    job, run = get_job(task.job_id), get_run(task.run_id)
    if job is None or run is None:
        return None
    repo = get_repo_by_id(run.repo_id)
    return {
        "id": task.id,
        "name": run.name,
        "head_branch": run.ref_name,
        "head_sha": run.head_sha,
        "run_number": run.run_number,
        "event": run.event,
        "display_title": run.display_title,
        "status": task.status.label,
        "workflow_id": run.workflow_id,
        "url": web_path(f"{repo.full_name}/actions/runs/{run.id}"),
        "created_at": iso(task.created),
        "updated_at": iso(task.updated),
        "run_started_at": iso_or_zero(run.started),
    }


def workflow_to_api(item: WorkflowFile, repo: Repo, state: str, commit_time: int) -> dict[str, Any]:
    """Gitea's ``ActionWorkflow``: id is the file name, times are the default branch head's author time."""
    workflow_name = item.workflow.name if item.workflow is not None else item.file_name
    default = repo.default_branch
    return {
        "id": item.file_name,
        "name": workflow_name,
        "path": item.path,
        "state": state,
        "created_at": iso(commit_time),
        "updated_at": iso(commit_time),
        "url": f"{_repo_api(repo)}/actions/workflows/{quote(item.file_name)}",
        "html_url": f"{_repo_html(repo)}/src/branch/{quote(default)}/{quote(item.path)}",
        "badge_url": f"{_repo_html(repo)}/actions/workflows/{quote(item.file_name)}/badge.svg?branch={quote(default)}",
        "deleted_at": iso_or_zero(None),
    }


def run_details(run: Run, repo: Repo) -> dict[str, Any]:
    """``RunDetails``: what ``?return_run_details=true`` answers a dispatch with."""
    return {
        "workflow_run_id": run.id,
        "run_url": f"{_repo_api(repo)}/actions/runs/{run.id}",
        "html_url": f"{_repo_html(repo)}/actions/runs/{run.id}",
    }


def runner_to_api(runner: Runner) -> dict[str, Any]:
    """Gitea's ``ActionRunner``: online when seen within the offline window, busy while it reports work."""
    limits = forge().config.limits
    now = forge().now()
    online = now - runner.last_online <= limits.runner_offline_seconds
    return {
        "id": runner.id,
        "name": runner.name,
        "status": "online" if online else "offline",
        "busy": online and now - runner.last_active <= limits.runner_idle_seconds,
        "disabled": runner.disabled,
        "ephemeral": runner.ephemeral,
        "labels": [{"id": index, "name": label, "type": "custom"} for index, label in enumerate(runner.labels)],
    }
