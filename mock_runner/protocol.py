"""Connect unary client of ``runner.v1.RunnerService`` and ``ping.v1.PingService``, as act_runner speaks them.

act_runner uses connect-go with the binary protobuf codec; the JSON codec is offered for debugging
(it makes the wire readable in a proxy). Errors come back as Connect JSON ``{"code","message"}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Literal, TypeVar

import requests
from forge_proto import ping_pb2, runner_pb2
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message

from . import VERSION

__all__ = ["PING_SERVICE", "RUNNER_SERVICE", "Codec", "RunnerCallError", "RunnerClient"]

RUNNER_SERVICE = "runner.v1.RunnerService"
PING_SERVICE = "ping.v1.PingService"

Codec = Literal["proto", "json"]
M = TypeVar("M", bound=Message)

_CONTENT_TYPES: dict[str, str] = {"proto": "application/proto", "json": "application/json"}
# connect-go's client reads a non-Connect error by its HTTP status alone (protocol.go httpToCode, the gRPC
# HTTP mapping): a plain 404 is what a connect-go server answers for a procedure it does not have.
_CODES_OF_BARE_STATUSES: dict[int, str] = {
    400: "internal",
    401: "unauthenticated",
    403: "permission_denied",
    404: "unimplemented",
    429: "unavailable",
    502: "unavailable",
    503: "unavailable",
    504: "unavailable",
}


class RunnerCallError(Exception):
    """A runner-protocol call that did not succeed: HTTP ``status`` (0 when nothing came back), Connect ``code``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        self.status = status
        self.code = code
        self.message = message
        super().__init__(f"{code} (HTTP {status}): {message}" if status else f"{code}: {message}")


def _describe_body(response: requests.Response) -> str:
    """A short, printable account of a body that is not what the protocol promises."""
    content_type = response.headers.get("Content-Type", "no content type")
    text = response.content[:200].decode("utf-8", errors="replace").strip()
    return f"{content_type} body {text!r}" if text else f"empty {content_type} body"


def _error_from(response: requests.Response) -> RunnerCallError:
    """Parse a Connect error; say plainly what came back when it is not Connect JSON."""
    try:
        body = json.loads(response.content)
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        return RunnerCallError(response.status_code, body["code"], str(body.get("message", "")))
    return RunnerCallError(
        response.status_code,
        _CODES_OF_BARE_STATUSES.get(response.status_code, "unknown"),
        f"not a Connect error (HTTP {response.status_code}): {_describe_body(response)}",
    )


class RunnerClient:
    """One runner identity talking to one instance: ``uuid``/``token`` are sent once registered."""

    def __init__(
        self,
        instance_url: str,
        uuid: str = "",
        token: str = "",
        *,
        codec: Codec = "proto",
        version: str = VERSION,
        timeout: float = 30.0,
        session: requests.Session | None = None,
    ) -> None:
        if codec not in _CONTENT_TYPES:
            raise ValueError(f"unknown codec {codec!r}: use 'proto' or 'json'")
        self.instance_url = instance_url.rstrip("/")
        self.base_url = self.instance_url + "/api/actions"
        self.uuid = uuid
        self.token = token
        self.codec: Codec = codec
        self.version = version
        self.timeout = timeout
        self.session = session or requests.Session()

    def _headers(self, timeout_ms: int | None) -> dict[str, str]:
        headers = {
            "Content-Type": _CONTENT_TYPES[self.codec],
            "Connect-Protocol-Version": "1",
            "Accept-Encoding": "gzip",
            "User-Agent": f"{VERSION} (connect-python-compatible)",
        }
        for name, value in (("x-runner-uuid", self.uuid), ("x-runner-token", self.token)):
            if value:
                headers[name] = value
        if self.version:
            headers["x-runner-version"] = self.version
        if timeout_ms is not None:
            headers["Connect-Timeout-Ms"] = str(timeout_ms)
        return headers

    def _encode(self, message: Message) -> bytes:
        if self.codec == "json":
            return json_format.MessageToJson(message, indent=None).encode("utf-8")
        return message.SerializeToString()

    def _decode(self, response: requests.Response, message: M) -> M:
        try:
            if self.codec == "json":
                json_format.Parse(response.content or b"{}", message, ignore_unknown_fields=True)
            else:
                message.ParseFromString(response.content)
        except (DecodeError, json_format.ParseError, UnicodeDecodeError) as exc:
            raise RunnerCallError(
                response.status_code, "internal", f"undecodable {self.codec} answer: {_describe_body(response)} ({exc})"
            ) from exc
        return message

    def call(self, service: str, method: str, request: Message, reply: M, *, timeout: float | None = None) -> M:
        """One Connect unary call; fills and returns ``reply`` or raises ``RunnerCallError``."""
        url = f"{self.base_url}/{service}/{method}"
        wait = timeout if timeout is not None else self.timeout
        timeout_ms = int(wait * 1000) if timeout is not None else None
        try:
            response = self.session.post(
                url, data=self._encode(request), headers=self._headers(timeout_ms), timeout=(10.0, wait + 5.0)
            )
        except requests.Timeout as exc:
            raise RunnerCallError(0, "deadline_exceeded", f"{method}: no answer from {url} in time") from exc
        except requests.RequestException as exc:
            raise RunnerCallError(0, "unavailable", f"{method}: cannot reach {url}: {exc}") from exc
        if response.status_code != 200:
            raise _error_from(response)
        return self._decode(response, reply)

    def ping(self, data: str) -> str:
        """``Ping``: the server answers ``Hello, <data>!``; used to check the address before registering."""
        reply = self.call(PING_SERVICE, "Ping", ping_pb2.PingRequest(data=data), ping_pb2.PingResponse())
        return reply.data

    def register(
        self, token: str, name: str, labels: Iterable[str], ephemeral: bool = False, version: str = VERSION
    ) -> runner_pb2.Runner:
        """``Register`` with a registration token; the answer carries the runner's uuid and token."""
        names = list(labels)
        request = runner_pb2.RegisterRequest(
            name=name, token=token, version=version, agent_labels=names, labels=names, ephemeral=ephemeral
        )
        return self.call(RUNNER_SERVICE, "Register", request, runner_pb2.RegisterResponse()).runner

    def declare(self, labels: Iterable[str], version: str = VERSION) -> runner_pb2.Runner:
        """``Declare`` the labels and version at daemon start, as act_runner does."""
        request = runner_pb2.DeclareRequest(version=version, labels=list(labels))
        return self.call(RUNNER_SERVICE, "Declare", request, runner_pb2.DeclareResponse()).runner

    def fetch_task(self, tasks_version: int, *, timeout: float = 5.0) -> tuple[runner_pb2.Task | None, int]:
        """``FetchTask``: a task or None, and the server's tasks version; a deadline means no task."""
        request = runner_pb2.FetchTaskRequest(tasks_version=tasks_version)
        try:
            reply = self.call(RUNNER_SERVICE, "FetchTask", request, runner_pb2.FetchTaskResponse(), timeout=timeout)
        except RunnerCallError as exc:
            if exc.code == "deadline_exceeded":
                return None, tasks_version
            raise
        task = reply.task if reply.HasField("task") and reply.task.id else None
        return task, reply.tasks_version

    def update_task(
        self, state: runner_pb2.TaskState, outputs: Mapping[str, str] | None = None
    ) -> runner_pb2.UpdateTaskResponse:
        """``UpdateTask``: report the task state (and unsent outputs); the answer says if it was cancelled."""
        request = runner_pb2.UpdateTaskRequest(state=state, outputs=dict(outputs or {}))
        return self.call(RUNNER_SERVICE, "UpdateTask", request, runner_pb2.UpdateTaskResponse())

    def update_log(self, task_id: int, index: int, rows: Iterable[runner_pb2.LogRow], no_more: bool) -> int:
        """``UpdateLog``: send rows starting at line ``index``; returns the server's ``ack_index``."""
        request = runner_pb2.UpdateLogRequest(task_id=task_id, index=index, rows=list(rows), no_more=no_more)
        return self.call(RUNNER_SERVICE, "UpdateLog", request, runner_pb2.UpdateLogResponse()).ack_index
