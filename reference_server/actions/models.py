"""Runs, jobs, tasks and runners as values, and the rules that move their statuses.

Status moves follow Gitea: a job becomes waiting when its needs are met (which bumps the tasks version
of every scope that can see it), running when a runner takes it, final when its task ends; a run's
status is always the aggregate of its jobs' statuses.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app

from ..context import forge
from ..db import Row
from ..events import JobStatusEvent, RunStatusEvent
from . import runner_store, store
from .status import Status, aggregate

__all__ = [
    "Job",
    "Run",
    "Runner",
    "Step",
    "Task",
    "TaskQueueSignal",
    "bump_tasks_version",
    "emit_ready_jobs",
    "get_job",
    "get_run",
    "get_runner",
    "get_task",
    "jobs_of_run",
    "publish_job_status",
    "publish_run_status",
    "refresh_run",
    "steps_of_task",
]


@dataclass(frozen=True)
class Run:
    """One workflow run (a single attempt: re-runs are not offered)."""

    id: int
    repo_id: int
    owner_id: int
    run_number: int
    workflow_id: str
    workflow_path: str
    name: str
    display_title: str
    event: str
    ref: str
    head_sha: str
    trigger_user_id: int
    event_payload: dict[str, Any]
    inputs: dict[str, str] | None
    status: Status
    created: int
    updated: int
    started: int
    stopped: int

    @classmethod
    def from_row(cls, row: Row) -> Run:
        return cls(
            id=row["id"],
            repo_id=row["repo_id"],
            owner_id=row["owner_id"],
            run_number=row["run_number"],
            workflow_id=row["workflow_id"],
            workflow_path=row["workflow_path"],
            name=row["name"],
            display_title=row["display_title"],
            event=row["event"],
            ref=row["ref"],
            head_sha=row["head_sha"],
            trigger_user_id=row["trigger_user_id"],
            event_payload=json.loads(row["event_payload"]),
            inputs=None if row["inputs"] is None else json.loads(row["inputs"]),
            status=Status(row["status"]),
            created=row["created"],
            updated=row["updated"],
            started=row["started"],
            stopped=row["stopped"],
        )

    @property
    def ref_type(self) -> str:
        return "tag" if self.ref.startswith("refs/tags/") else "branch"

    @property
    def ref_name(self) -> str:
        """The short name of the ref (``main``, ``v1.0``)."""
        return self.ref.removeprefix("refs/heads/").removeprefix("refs/tags/")

    @property
    def head_branch(self) -> str:
        """The branch of the run, empty for a tag."""
        return self.ref.removeprefix("refs/heads/") if self.ref.startswith("refs/heads/") else ""

    @property
    def is_done(self) -> bool:
        return self.status.is_done


@dataclass(frozen=True)
class Job:
    """One job of a run, with the single-job workflow handed to the runner."""

    id: int
    run_id: int
    repo_id: int
    owner_id: int
    job_key: str
    name: str
    labels: tuple[str, ...]
    needs: tuple[str, ...]
    condition: str
    steps: tuple[str, ...]
    workflow_payload: bytes
    status: Status
    task_id: int
    attempt: int
    created: int
    updated: int
    started: int
    stopped: int

    @classmethod
    def from_row(cls, row: Row) -> Job:
        return cls(
            id=row["id"],
            run_id=row["run_id"],
            repo_id=row["repo_id"],
            owner_id=row["owner_id"],
            job_key=row["job_key"],
            name=row["name"],
            labels=tuple(json.loads(row["labels"])),
            needs=tuple(json.loads(row["needs"])),
            condition=row["condition"],
            steps=tuple(json.loads(row["steps"])),
            workflow_payload=bytes(row["workflow_payload"]),
            status=Status(row["status"]),
            task_id=row["task_id"],
            attempt=row["attempt"],
            created=row["created"],
            updated=row["updated"],
            started=row["started"],
            stopped=row["stopped"],
        )


@dataclass(frozen=True)
class Task:
    """One attempt of a job on a runner; the artifact family checks ``is_running`` before accepting data."""

    id: int
    job_id: int
    run_id: int
    repo_id: int
    owner_id: int
    runner_id: int
    attempt: int
    status: Status
    token_hash: str
    token_last_eight: str
    log_length: int
    log_closed: bool
    created: int
    updated: int
    started: int
    stopped: int

    @classmethod
    def from_row(cls, row: Row) -> Task:
        return cls(
            id=row["id"],
            job_id=row["job_id"],
            run_id=row["run_id"],
            repo_id=row["repo_id"],
            owner_id=row["owner_id"],
            runner_id=row["runner_id"],
            attempt=row["attempt"],
            status=Status(row["status"]),
            token_hash=row["token_hash"],
            token_last_eight=row["token_last_eight"],
            log_length=row["log_length"],
            log_closed=bool(row["log_closed"]),
            created=row["created"],
            updated=row["updated"],
            started=row["started"],
            stopped=row["stopped"],
        )

    @property
    def is_running(self) -> bool:
        return self.status == Status.RUNNING


@dataclass(frozen=True)
class Step:
    """A step of a task, as the runner reports it (``log_index``/``log_length`` locate its lines)."""

    task_id: int
    index: int
    name: str
    status: Status
    log_index: int
    log_length: int
    started: int
    stopped: int

    @classmethod
    def from_row(cls, row: Row) -> Step:
        return cls(
            task_id=row["task_id"],
            index=row["idx"],
            name=row["name"],
            status=Status(row["status"]),
            log_index=row["log_index"],
            log_length=row["log_length"],
            started=row["started"],
            stopped=row["stopped"],
        )


@dataclass(frozen=True)
class Runner:
    """A registered runner; its scope is that of the registration token it used."""

    id: int
    uuid: str
    name: str
    owner_id: int
    repo_id: int
    token_hash: str
    version: str
    labels: tuple[str, ...]
    ephemeral: bool
    disabled: bool
    last_online: int
    last_active: int
    created: int
    updated: int
    deleted: int

    @classmethod
    def from_row(cls, row: Row) -> Runner:
        return cls(
            id=row["id"],
            uuid=row["uuid"],
            name=row["name"],
            owner_id=row["owner_id"],
            repo_id=row["repo_id"],
            token_hash=row["token_hash"],
            version=row["version"],
            labels=tuple(json.loads(row["labels"])),
            ephemeral=bool(row["ephemeral"]),
            disabled=bool(row["disabled"]),
            last_online=row["last_online"],
            last_active=row["last_active"],
            created=row["created"],
            updated=row["updated"],
            deleted=row["deleted"],
        )


def get_run(run_id: int) -> Run | None:
    row = store.run_row(run_id)
    return None if row is None else Run.from_row(row)


def get_job(job_id: int) -> Job | None:
    row = store.job_row(job_id)
    return None if row is None else Job.from_row(row)


def get_task(task_id: int) -> Task | None:
    row = runner_store.task_row(task_id)
    return None if row is None else Task.from_row(row)


def get_runner(runner_id: int) -> Runner | None:
    row = runner_store.runner_by_id(runner_id)
    return None if row is None else Runner.from_row(row)


def jobs_of_run(run_id: int) -> list[Job]:
    return [Job.from_row(row) for row in store.job_rows_of_run(run_id)]


def steps_of_task(task_id: int) -> list[Step]:
    return [Step.from_row(row) for row in runner_store.step_rows(task_id)]


class TaskQueueSignal:
    """Wakes long-polling FetchTask calls when a tasks version moves (they re-check the database)."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._generation = 0

    @property
    def generation(self) -> int:
        with self._condition:
            return self._generation

    def notify(self) -> None:
        with self._condition:
            self._generation += 1
            self._condition.notify_all()

    def wait(self, seen: int, timeout: float) -> None:
        """Block until the generation moves past ``seen`` or ``timeout`` seconds pass."""
        with self._condition:
            self._condition.wait_for(lambda: self._generation != seen, timeout=timeout)


def task_queue_signal() -> TaskQueueSignal:
    signal: TaskQueueSignal = current_app.extensions["actions_task_queue"]
    return signal


def bump_tasks_version(owner_id: int, repo_id: int, now: int) -> None:
    """A job became waiting: bump the global, owner and repository versions that can see it."""
    runner_store.bump_tasks_version(0, 0, now)
    if owner_id > 0:
        runner_store.bump_tasks_version(owner_id, 0, now)
    if repo_id > 0:
        runner_store.bump_tasks_version(0, repo_id, now)


def _status_function_allows(condition: str, need_statuses: Sequence[Status]) -> bool:
    """Whether a job's ``if:`` still lets it run after a need did not succeed: ``always()``, or
    ``failure()``/``cancelled()`` when a need failed or was cancelled (the runner evaluates the rest)."""
    expression = condition.replace(" ", "").lower()
    if "always()" in expression:
        return True
    if "failure()" in expression and Status.FAILURE in need_statuses:
        return True
    return "cancelled()" in expression and Status.CANCELLED in need_statuses


def publish_run_status(run_id: int, repo_id: int, status: Status) -> None:
    """Announce a run's new status; the webhooks family turns it into a ``workflow_run`` delivery."""
    forge().events.publish(RunStatusEvent(run_id, repo_id, int(status)))


def publish_job_status(job_id: int, run_id: int, repo_id: int, status: Status) -> None:
    """Announce a job's new status; the webhooks family turns it into a ``workflow_job`` delivery."""
    forge().events.publish(JobStatusEvent(job_id, run_id, repo_id, int(status)))


def emit_ready_jobs(run_id: int, now: int) -> None:
    """Move blocked jobs whose needs are all done to waiting (all succeeded) or skipped, repeatedly,
    so a skip propagates down a chain of needs. Call inside a transaction."""
    changed = True
    while changed:
        changed = False
        jobs = jobs_of_run(run_id)
        statuses_by_key: dict[str, list[Status]] = {}
        for job in jobs:
            statuses_by_key.setdefault(job.job_key, []).append(job.status)  # matrix siblings share a key
        for job in jobs:
            if job.status != Status.BLOCKED:
                continue
            needs = [status for key in job.needs for status in statuses_by_key.get(key, [Status.SKIPPED])]
            if not all(status.is_done for status in needs):
                continue
            if all(status == Status.SUCCESS for status in needs) or _status_function_allows(job.condition, needs):
                store.update_job_state(job.id, Status.WAITING, job.started, 0, now)
                bump_tasks_version(job.owner_id, job.repo_id, now)
                publish_job_status(job.id, job.run_id, job.repo_id, Status.WAITING)
            else:
                store.update_job_state(job.id, Status.SKIPPED, job.started, now, now)
                publish_job_status(job.id, job.run_id, job.repo_id, Status.SKIPPED)
            changed = True


def refresh_run(run_id: int, now: int) -> Status:
    """Re-aggregate a run's status from its jobs; set its start and stop times. Call inside a transaction."""
    run = get_run(run_id)
    if run is None:
        return Status.UNKNOWN
    status = aggregate(Status(value) for value in store.job_statuses_of_run(run_id))
    started = run.started or (now if status == Status.RUNNING else 0)
    stopped = (run.stopped or now) if status.is_done else 0
    if status.is_done and not started:
        started = now
    if (status, started, stopped) != (run.status, run.started, run.stopped):
        store.update_run_state(run_id, status, started, stopped, now)
        if status != run.status:
            publish_run_status(run_id, run.repo_id, status)
    return status


def finish_job(job: Job, status: Status, stopped: int, now: int) -> None:
    """A job's task ended: record the job's final status, release its dependants, re-aggregate the run."""
    store.update_job_state(job.id, status, job.started or stopped, stopped, now)
    publish_job_status(job.id, job.run_id, job.repo_id, status)
    emit_ready_jobs(job.run_id, now)
    refresh_run(job.run_id, now)
