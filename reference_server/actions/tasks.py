"""Tasks: handing a waiting job to a runner, recording what the runner reports, and its log.

These are the rules behind FetchTask, UpdateTask and UpdateLog; :mod:`runner_protocol` only
translates messages. Every change happens in one transaction, so a refused call stores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..context import forge, now_seconds
from ..errors import ConnectError
from ..timefmt import from_unix
from . import runner_store, store
from .models import (
    Job,
    Runner,
    Task,
    finish_job,
    get_job,
    get_task,
    jobs_of_run,
    publish_job_status,
    refresh_run,
    steps_of_task,
    task_queue_signal,
)
from .runners import hash_token, new_secret_token
from .status import Status

__all__ = [
    "MAX_LOG_LINE",
    "LogRow",
    "PickedTask",
    "StepReport",
    "TaskReport",
    "cancel_run",
    "format_log_line",
    "pick_task",
    "update_log",
    "update_task",
]

MAX_LOG_LINE = 64 * 1024
"""Longer log lines are cut to this many characters (Gitea's ``MaxLineSize``)."""
MAX_OUTPUT_KEY_BYTES = 255
MAX_OUTPUT_VALUE_BYTES = 1024 * 1024


@dataclass(frozen=True)
class PickedTask:
    """A task just created for a runner, with the plaintext task token (given to the runner once)."""

    task: Task
    job: Job
    token: str


def _scope_filter(runner: Runner) -> tuple[str, list[object]]:
    """The jobs a runner may take: its repository's, its owner's, or (only when both are 0, an instance
    runner) every repository's. Any other id, a pseudo-user's included, narrows, never widens (Gitea
    tests ``!= 0``)."""
    if runner.repo_id != 0:
        return "repo_id = ?", [runner.repo_id]
    if runner.owner_id != 0:
        return "owner_id = ?", [runner.owner_id]
    return "", []


def _next_job(runner: Runner) -> Job | None:
    """The oldest waiting job of the runner's scope whose ``runs-on`` labels it all has, if it may take one."""
    fresh = runner_store.runner_by_id(runner.id)
    if fresh is None or fresh["disabled"] or fresh["deleted"]:
        return None
    if runner.ephemeral and runner_store.runner_has_task(runner.id) is not None:
        return None  # an ephemeral runner runs exactly one task
    labels = set(Runner.from_row(fresh).labels)
    scope, params = _scope_filter(runner)
    candidates = (Job.from_row(row) for row in store.waiting_job_rows(scope, params))
    return next((candidate for candidate in candidates if set(candidate.labels) <= labels), None)


def pick_task(runner: Runner) -> PickedTask | None:
    """Give the runner the oldest waiting job of its scope whose ``runs-on`` labels it all has.

    A poll that finds nothing answers from a read, without SQLite's write lock (one writer at a time: idle
    runners polling would queue every other write behind them); the choice is made again under the lock.
    """
    if _next_job(runner) is None:
        return None
    with forge().db.transaction():
        job = _next_job(runner)
        if job is None:
            return None
        now = now_seconds()
        token = new_secret_token()
        task_id = runner_store.insert_task(
            job_id=job.id,
            run_id=job.run_id,
            repo_id=job.repo_id,
            owner_id=job.owner_id,
            runner_id=runner.id,
            attempt=job.attempt + 1,
            status=int(Status.RUNNING),
            token_hash=hash_token(token),
            token_last_eight=token[-8:],
            now=now,
        )
        runner_store.insert_steps(task_id, job.steps, int(Status.WAITING))
        if not store.assign_job(job.id, task_id, now):  # pragma: no cover - the write lock is held
            raise ConnectError("aborted", "the job was taken by another runner")
        publish_job_status(job.id, job.run_id, job.repo_id, Status.RUNNING)
        refresh_run(job.run_id, now)
    task, taken = get_task(task_id), get_job(job.id)
    if task is None or taken is None:  # pragma: no cover - written just above
        raise ConnectError("internal", "the task vanished right after it was created")
    return PickedTask(task, taken, token)


@dataclass(frozen=True)
class StepReport:
    """One ``StepState`` of an UpdateTask call (times in Unix seconds, 0 when unset)."""

    index: int
    result: int
    started: int
    stopped: int
    log_index: int
    log_length: int


@dataclass(frozen=True)
class TaskReport:
    """The ``TaskState`` of an UpdateTask call."""

    task_id: int
    result: int
    stopped: int
    steps: Sequence[StepReport]


def _owned_task(runner: Runner, task_id: int) -> Task:
    task = get_task(task_id)
    if task is None:
        raise ConnectError("not_found", f"task {task_id} not found")
    if task.runner_id != runner.id:
        raise ConnectError("permission_denied", f"task {task_id} belongs to another runner")
    return task


def _valid_result(result: int) -> Status:
    if result not in (0, 1, 2, 3, 4):
        raise ConnectError("invalid_argument", f"unknown result {result}")
    return Status(result)


def _record_steps(task: Task, reports: Sequence[StepReport]) -> None:
    by_index = {report.index: report for report in reports}
    for step in steps_of_task(task.id):
        report = by_index.get(step.index)
        if report is None:
            continue
        result = _valid_result(report.result)
        status = result if result != Status.UNKNOWN else (Status.RUNNING if report.started else step.status)
        runner_store.update_step(
            task.id,
            step.index,
            status=int(status),
            log_index=max(report.log_index, 0),
            log_length=max(report.log_length, 0),
            started=report.started,
            stopped=report.stopped,
        )


def update_task(runner: Runner, report: TaskReport, outputs: Mapping[str, str]) -> tuple[Status, list[str]]:
    """Record a task's state and outputs; returns the task's status (final ones are echoed unchanged)
    and the keys of every output stored so far."""
    result = _valid_result(report.result)
    for step in report.steps:
        _valid_result(step.result)
    now = now_seconds()
    with forge().db.transaction():
        task = _owned_task(runner, report.task_id)
        for key, value in outputs.items():
            if len(key.encode()) <= MAX_OUTPUT_KEY_BYTES and len(value.encode()) <= MAX_OUTPUT_VALUE_BYTES:
                runner_store.insert_output_if_absent(task.id, key, value)
        if not task.status.is_done:
            if result != Status.UNKNOWN:
                stopped = report.stopped or now
                runner_store.finish_task(task.id, int(result), stopped, now)
                job = get_job(task.job_id)
                if job is not None and job.task_id == task.id and not job.status.is_done:
                    finish_job(job, result, stopped, now)
                if runner.ephemeral:
                    runner_store.mark_runner_deleted(runner.id, now)
            else:
                runner_store.touch_task(task.id, now)
            _record_steps(task, report.steps)
        sent = sorted(runner_store.outputs(task.id))
        final = get_task(task.id)
    if result != Status.UNKNOWN:
        task_queue_signal().notify()  # dependants may have become waiting: wake long polls
    return (final.status if final is not None else task.status), sent


@dataclass(frozen=True)
class LogRow:
    """One ``LogRow``: its time (Unix seconds with nanoseconds) and its text."""

    seconds: int
    nanos: int
    content: str


def format_log_line(row: LogRow) -> str:
    """``<UTC time with 7 fraction digits>Z <content>``, newlines escaped, as Gitea stores a line."""
    moment = from_unix(row.seconds).strftime("%Y-%m-%dT%H:%M:%S")
    content = row.content.replace("\n", "\\n")[:MAX_LOG_LINE]
    return f"{moment}.{row.nanos // 100:07d}Z {content}"


def update_log(runner: Runner, task_id: int, index: int, rows: Sequence[LogRow], no_more: bool) -> int:
    """Append the rows the server lacks and return the new ``ack_index`` (lines stored).

    Rows wholly before ``ack``, a gap (``index > ack``) or no rows store nothing and answer ``ack``.
    ``no_more`` closes the log when the call is fully acknowledged; a closed log refuses new rows.
    """
    if index < 0:
        raise ConnectError("invalid_argument", "index must not be negative")
    now = now_seconds()
    with forge().db.transaction():
        task = _owned_task(runner, task_id)
        ack = task.log_length
        if not rows or index > ack or index + len(rows) <= ack:
            if no_more and index + len(rows) == ack and not task.log_closed:
                runner_store.close_log(task.id)
            return ack
        if task.log_closed:
            raise ConnectError("already_exists", "log file has been archived")
        fresh = rows[ack - index :]
        runner_store.append_log_lines(task.id, ack, [format_log_line(row) for row in fresh], now)
        ack += len(fresh)
        if no_more:
            runner_store.close_log(task.id)
        return ack


def cancel_run(run_id: int) -> bool:
    """Cancel every unfinished job of a run: queued and blocked jobs, and running tasks with their unfinished
    steps (the runner learns it from its next UpdateTask). False when the run was already done."""
    now = now_seconds()
    with forge().db.transaction():
        jobs = [job for job in jobs_of_run(run_id) if not job.status.is_done]
        if not jobs:
            return False
        for job in jobs:
            task = get_task(job.task_id) if job.task_id else None
            if task is not None and not task.status.is_done:
                runner_store.finish_task(task.id, int(Status.CANCELLED), now, now)
                runner_store.cancel_unfinished_steps(task.id, int(Status.CANCELLED))
            store.update_job_state(job.id, Status.CANCELLED, job.started, now, now)
            publish_job_status(job.id, job.run_id, job.repo_id, Status.CANCELLED)
        refresh_run(run_id, now)
    return True
