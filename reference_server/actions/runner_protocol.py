"""The runner protocol's RPC handlers: Ping, Register, Declare, FetchTask, UpdateTask, UpdateLog.

Each handler decodes its request, applies the rules of :mod:`runners` and :mod:`tasks`, and encodes
the answer in the caller's codec. Errors are real Connect codes (401 ``unauthenticated`` for a bad
runner token, 400 ``invalid_argument`` for a bad body...), the reference server's documented choice
where Gitea wraps every error as 500 ``unknown``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Response, request
from forge_proto import ping_pb2, runner_pb2
from google.protobuf.timestamp_pb2 import Timestamp

from ..context import forge, now_seconds
from ..errors import ConnectError
from . import runner_store
from .connect import read_message, write_message
from .errors import ConnectStatusError
from .models import Runner, bump_tasks_version, task_queue_signal
from .runners import authenticate_runner, declare_runner, register_runner
from .task_message import build_task_message
from .tasks import LogRow, StepReport, TaskReport, pick_task, update_log, update_task

__all__ = ["dispatch"]

PREFIX = "/api/actions"
MAX_TIMESTAMP_SECONDS = 253402300799  # 9999-12-31T23:59:59Z, the protobuf Timestamp range
LONG_POLL_SLICE_SECONDS = 1.0


def _runner_pb(runner: Runner, token: str) -> runner_pb2.Runner:
    return runner_pb2.Runner(
        id=runner.id,
        uuid=runner.uuid,
        token=token,
        name=runner.name,
        version=runner.version,
        labels=list(runner.labels),
        ephemeral=runner.ephemeral,
    )


def _caller(method: str) -> tuple[Runner, str]:
    token = request.headers.get("x-runner-token", "")
    return authenticate_runner(request.headers.get("x-runner-uuid", ""), token, method), token


def _seconds(stamp: Timestamp, present: bool) -> int:
    """Unix seconds of a Timestamp field, 0 when absent; invalid_argument when out of range."""
    if not present:
        return 0
    if not 0 <= stamp.seconds <= MAX_TIMESTAMP_SECONDS or not 0 <= stamp.nanos < 1_000_000_000:
        raise ConnectError("invalid_argument", "timestamp out of range")
    return int(stamp.seconds)


def ping() -> Response:
    message, codec = read_message(ping_pb2.PingRequest)
    return write_message(ping_pb2.PingResponse(data=f"Hello, {message.data}!"), codec)


def register() -> Response:
    message, codec = read_message(runner_pb2.RegisterRequest)
    labels = list(message.labels) or list(message.agent_labels)
    runner, token = register_runner(message.token, message.name, message.version, labels, message.ephemeral)
    return write_message(runner_pb2.RegisterResponse(runner=_runner_pb(runner, token)), codec)


def declare() -> Response:
    message, codec = read_message(runner_pb2.DeclareRequest)
    runner, token = _caller("Declare")
    declared = declare_runner(runner, message.version, list(message.labels))
    return write_message(runner_pb2.DeclareResponse(runner=_runner_pb(declared, token)), codec)


def _tasks_version(runner: Runner) -> int:
    version = runner_store.tasks_version(runner.owner_id, runner.repo_id)
    if version == 0:
        # 0 in a reply means "an old server that ignores tasks_version": start the scope at 1.
        with forge().db.transaction():
            if runner_store.tasks_version(runner.owner_id, runner.repo_id) == 0:
                bump_tasks_version(runner.owner_id, runner.repo_id, now_seconds())
            version = runner_store.tasks_version(runner.owner_id, runner.repo_id)
    return version


def _long_poll_seconds() -> float:
    """How long FetchTask may wait for work: the configured window, capped by the client's deadline."""
    window = forge().config.limits.fetch_task_long_poll_seconds
    deadline = request.headers.get("Connect-Timeout-Ms", "")
    if deadline.isdigit():
        window = min(window, max(int(deadline) / 1000 - 0.5, 0.0))
    return max(window, 0.0)


def fetch_task() -> Response:
    message, codec = read_message(runner_pb2.FetchTaskRequest)
    runner, _ = _caller("FetchTask")
    signal = task_queue_signal()
    deadline = time.monotonic() + _long_poll_seconds()
    seen_version = message.tasks_version
    while True:
        generation = signal.generation
        version = _tasks_version(runner)
        if seen_version != version:
            picked = pick_task(runner)
            if picked is not None:
                task = build_task_message(picked)
                return write_message(runner_pb2.FetchTaskResponse(task=task, tasks_version=version), codec)
            seen_version = version
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return write_message(runner_pb2.FetchTaskResponse(tasks_version=version), codec)
        signal.wait(generation, min(remaining, LONG_POLL_SLICE_SECONDS))


def update_task_rpc() -> Response:
    message, codec = read_message(runner_pb2.UpdateTaskRequest)
    runner, _ = _caller("UpdateTask")
    state = message.state
    if not message.HasField("state") or state.id <= 0:
        raise ConnectError("invalid_argument", "state.id is required")
    report = TaskReport(
        task_id=state.id,
        result=int(state.result),
        stopped=_seconds(state.stopped_at, state.HasField("stopped_at")),
        steps=[
            StepReport(
                index=int(step.id),
                result=int(step.result),
                started=_seconds(step.started_at, step.HasField("started_at")),
                stopped=_seconds(step.stopped_at, step.HasField("stopped_at")),
                log_index=int(step.log_index),
                log_length=int(step.log_length),
            )
            for step in state.steps
        ],
    )
    status, sent = update_task(runner, report, dict(message.outputs))
    reply = runner_pb2.UpdateTaskResponse(
        state=runner_pb2.TaskState(id=state.id, result=status.as_result()),  # type: ignore[arg-type]
        sent_outputs=sent,
    )
    return write_message(reply, codec)


def update_log_rpc() -> Response:
    message, codec = read_message(runner_pb2.UpdateLogRequest)
    runner, _ = _caller("UpdateLog")
    if message.task_id <= 0:
        raise ConnectError("invalid_argument", "task_id is required")
    now = forge().now()
    rows = []
    for row in message.rows:
        if row.HasField("time"):
            seconds = _seconds(row.time, True)
            rows.append(LogRow(seconds, int(row.time.nanos), row.content))
        else:
            rows.append(LogRow(int(now), int((now % 1) * 1_000_000_000), row.content))
    ack = update_log(runner, message.task_id, int(message.index), rows, message.no_more)
    return write_message(runner_pb2.UpdateLogResponse(ack_index=ack), codec)


HANDLERS: dict[tuple[str, str], Callable[[], Response]] = {
    ("ping.v1.PingService", "Ping"): ping,
    ("runner.v1.RunnerService", "Register"): register,
    ("runner.v1.RunnerService", "Declare"): declare,
    ("runner.v1.RunnerService", "FetchTask"): fetch_task,
    ("runner.v1.RunnerService", "UpdateTask"): update_task_rpc,
    ("runner.v1.RunnerService", "UpdateLog"): update_log_rpc,
}


def dispatch(procedure: str) -> Any:
    """Route ``/<service>/<method>``: an unknown procedure is Connect ``unimplemented`` (HTTP 501), only POST.

    501 is current connect-go's status for the code (``connectCodeToHTTP``); a connect-go server itself
    answers a method it lacks with a plain-text 404, which its clients also read as ``unimplemented``.
    """
    service, _, method = procedure.strip("/").rpartition("/")
    handler = HANDLERS.get((service, method))
    if handler is None:
        raise ConnectError("unimplemented", f"{procedure} is not implemented")
    if request.method != "POST":
        raise ConnectStatusError("unimplemented", f"{request.method} is not supported; use POST", http_status=405)
    return handler()
