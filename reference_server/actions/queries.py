"""What the REST routes ask of the family: lookups scoped to a repository, filtered pages, deletion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from werkzeug.datastructures import MultiDict

from ..artifacts.models import delete_artifacts_of_run
from ..context import forge, now_seconds
from ..errors import ApiError
from ..gitcli import Git
from ..users.models import find_account
from . import runner_store, store
from .convert import workflow_to_api
from .errors import (
    InvalidListOrder,
    InvalidStatusFilter,
    JobNotFound,
    LogNotFound,
    RunAlreadyDone,
    RunNotDone,
    RunNotFound,
    WorkflowNotFound,
)
from .models import Job, Run, Task, get_job, get_run
from .status import STATUS_FILTERS
from .tasks import cancel_run as cancel_unfinished
from .triggers import workflow_files

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "cancel_run",
    "default_branch_workflow",
    "default_branch_workflows",
    "delete_run",
    "job_log_lines",
    "job_of_repo",
    "jobs_page",
    "parse_id",
    "run_of_job",
    "run_of_repo",
    "runs_page",
    "set_workflow_state",
    "status_filter",
    "tasks_page",
]


def _head(repo: Repo) -> tuple[Git, str | None]:
    git = Git(repo.git_path)
    return git, git.rev_parse(f"refs/heads/{repo.default_branch}")


def default_branch_workflows(repo: Repo) -> list[dict[str, Any]]:
    """Every workflow file on the default branch as an ``ActionWorkflow`` (none in an empty repository)."""
    git, head = _head(repo)
    if head is None:
        return []
    commit_time = git.commit_info(head).author_time
    disabled = store.disabled_workflows(repo.id)
    return [
        workflow_to_api(item, repo, "disabled_manually" if item.file_name in disabled else "active", commit_time)
        for item in workflow_files(git, head)
    ]


def default_branch_workflow(repo: Repo, workflow_id: str) -> dict[str, Any]:
    for item in default_branch_workflows(repo):
        if item["id"] == workflow_id:
            return item
    raise WorkflowNotFound(f"workflow {workflow_id!r} not found")


def set_workflow_state(repo: Repo, workflow_id: str, *, disabled: bool) -> None:
    """Disable or enable a workflow of the default branch (404 when it has no such file)."""
    default_branch_workflow(repo, workflow_id)
    with forge().db.transaction():
        store.set_workflow_disabled(repo.id, workflow_id, disabled, now_seconds())


MAX_ID = 2**63 - 1


def parse_id(raw: str) -> int | None:
    """A database id from a path segment, or None when it cannot name a row (not a positive int64)."""
    if not raw.isascii() or not raw.isdigit() or len(raw) > 19:
        return None
    value = int(raw)
    return value if 0 < value <= MAX_ID else None


def _positive_id(raw: str, missing: ApiError) -> int:
    value = parse_id(raw)
    if value is None:
        raise missing
    return value


def run_of_repo(repo: Repo, raw_id: str) -> Run:
    """The run with this id (never a run number) if it belongs to ``repo``, else 404."""
    run = get_run(_positive_id(raw_id, RunNotFound()))
    if run is None or run.repo_id != repo.id:
        raise RunNotFound()
    return run


def job_of_repo(repo: Repo, raw_id: str) -> Job:
    job = get_job(_positive_id(raw_id, JobNotFound()))
    if job is None or job.repo_id != repo.id:
        raise JobNotFound()
    return job


def run_of_job(job: Job) -> Run:
    run = get_run(job.run_id)
    if run is None:  # pragma: no cover - jobs are deleted with their run
        raise RunNotFound()
    return run


def status_filter(args: MultiDict[str, str] | Mapping[str, Any]) -> list[int]:
    """The internal statuses of the repeatable ``status`` filter; 400 on a word Gitea does not know."""
    words = args.getlist("status") if isinstance(args, MultiDict) else [args.get("status", "")]
    statuses: list[int] = []
    for word in words:
        if not word:
            continue
        if word not in STATUS_FILTERS:
            raise InvalidStatusFilter(f"Invalid status {word}")
        statuses.extend(int(s) for s in STATUS_FILTERS[word])
    return statuses


def runs_page(
    args: MultiDict[str, str],
    limit: int,
    offset: int,
    *,
    repo_id: int | None = None,
    owner_id: int | None = None,
    workflow_id: str | None = None,
) -> tuple[list[Run], int]:
    """A page of runs of a repository, an owner or the instance, newest first, filtered by status, event,
    branch, actor and head_sha."""
    statuses = status_filter(args)
    actor_id: int | None = None
    actor_name = args.get("actor")
    if actor_name:
        account = find_account(actor_name)
        if account is None:
            return [], 0  # an unknown actor triggered nothing (Gitea answers 500 here)
        actor_id = account.id
    branch = args.get("branch")
    rows, total = store.list_runs(
        repo_id=repo_id,
        owner_id=owner_id,
        statuses=statuses,
        event=args.get("event") or None,
        ref=f"refs/heads/{branch}" if branch else None,
        actor_id=actor_id,
        head_sha=args.get("head_sha") or None,
        workflow_id=workflow_id,
        limit=limit,
        offset=offset,
    )
    return [Run.from_row(row) for row in rows], total


def jobs_page(
    args: MultiDict[str, str],
    limit: int,
    offset: int,
    *,
    repo_id: int | None = None,
    owner_id: int | None = None,
    run_id: int | None = None,
) -> tuple[list[Job], int]:
    """A page of jobs of a run, a repository, an owner or the instance, filtered by status.

    ``sort=id`` and ``order=asc|desc`` as Gitea 1.27 (default id ascending); other values are a 400.
    """
    if args.get("sort", "id") not in ("", "id"):
        raise InvalidListOrder(f"invalid sort field {args.get('sort')!r}: only id is supported")
    order = args.get("order", "asc") or "asc"
    if order not in ("asc", "desc"):
        raise InvalidListOrder(f"invalid order {order!r}: use asc or desc")
    rows, total = store.list_jobs(
        repo_id=repo_id,
        owner_id=owner_id,
        run_id=run_id,
        statuses=status_filter(args),
        newest_first=order == "desc",
        limit=limit,
        offset=offset,
    )
    return [Job.from_row(row) for row in rows], total


def tasks_page(repo: Repo, limit: int, offset: int) -> tuple[list[Task], int]:
    rows, total = runner_store.list_tasks(repo.id, limit=limit, offset=offset)
    return [Task.from_row(row) for row in rows], total


def job_log_lines(job: Job) -> list[str]:
    """The stored lines of the job's latest task; 404 before a runner took the job."""
    if not job.task_id:
        raise LogNotFound("the job has not been picked up by a runner yet")
    return runner_store.log_lines(job.task_id)


def cancel_run(run: Run) -> None:
    """Cancel a run that is not done yet; 409 when it already is."""
    if not cancel_unfinished(run.id):
        raise RunAlreadyDone()


def delete_run(run: Run) -> None:
    """Delete a finished run with its jobs, tasks, logs and artifacts; 400 while it is not done."""
    if not run.is_done:
        raise RunNotDone()
    with forge().db.transaction():
        delete_artifacts_of_run(run.id)
        store.delete_run(run.id)
