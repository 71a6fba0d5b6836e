"""Shared helpers of the actions tests: accounts, repositories and pushes over REST, runner calls over Connect.

Everything goes through the Flask test client of a real reference server (users, repos and contents
families included), so the push → run → task path is the one a live client takes.
"""

from __future__ import annotations

import base64
import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from forge_proto import runner_pb2
from google.protobuf import json_format
from google.protobuf.message import Message
from werkzeug.test import TestResponse

RUNNER_SERVICE = "/api/actions/runner.v1.RunnerService/"
PING_SERVICE = "/api/actions/ping.v1.PingService/"
PROTO = "application/proto"
JSON = "application/json"

SIMPLE_WORKFLOW = """\
name: CI
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - name: Say hello
        run: echo hello
      - uses: actions/checkout@v4
"""

M = TypeVar("M", bound=Message)


@dataclass(frozen=True)
class RunnerIdentity:
    """What Register gave a runner: its id, uuid and plaintext token."""

    id: int
    uuid: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"x-runner-uuid": self.uuid, "x-runner-token": self.token}


@dataclass
class World:
    """One reference server seen by tests: named accounts with tokens, repositories, runners."""

    app: Flask
    client: FlaskClient
    admin_headers: dict[str, str]
    tokens: dict[str, dict[str, str]] = field(default_factory=dict)
    names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    # --- accounts and repositories ------------------------------------------------------------

    def user(self, name: str) -> dict[str, str]:
        """Create a user with an all-scopes token; returns its auth headers."""
        if name in self.tokens:
            return self.tokens[name]
        created = self.client.post(
            "/api/v1/admin/users",
            json={"username": name, "email": f"{name}@example.test", "password": "pw-" + name * 3},
            headers=self.admin_headers,
        )
        assert created.status_code == 201, created.get_data(as_text=True)
        self.tokens[name] = self.token(name, ["all"])
        return self.tokens[name]

    def token(self, name: str, scopes: list[str]) -> dict[str, str]:
        """A new token of ``name`` with ``scopes`` (made with basic auth, as Gitea requires)."""
        basic = base64.b64encode(f"{name}:pw-{name * 3}".encode()).decode()
        made = self.client.post(
            f"/api/v1/users/{name}/tokens",
            json={"name": f"t{next(self.names)}", "scopes": scopes},
            headers={"Authorization": f"Basic {basic}"},
        )
        assert made.status_code == 201, made.get_data(as_text=True)
        return {"Authorization": f"token {made.get_json()['sha1']}"}

    def repo(self, owner: str, name: str, *, private: bool = False) -> dict[str, Any]:
        """Create ``owner/name`` with an initial commit on ``main``."""
        created = self.client.post(
            "/api/v1/user/repos",
            json={"name": name, "auto_init": True, "private": private, "default_branch": "main"},
            headers=self.user(owner),
        )
        assert created.status_code == 201, created.get_data(as_text=True)
        body: dict[str, Any] = created.get_json()
        return body

    def push(
        self,
        owner: str,
        repo: str,
        path: str,
        content: str,
        *,
        message: str = "Add workflow",
        branch: str = "main",
        new_branch: str | None = None,
        as_user: str | None = None,
    ) -> str:
        """Commit one file (create or update) through the contents API, on ``branch`` or on a ``new_branch``
        made from it, as ``as_user`` (the owner by default); returns the new commit SHA."""
        url = f"/api/v1/repos/{owner}/{repo}/contents/{path}"
        headers = self.user(as_user or owner)
        existing = self.client.get(url, headers=headers, query_string={"ref": branch})
        body: dict[str, Any] = {
            "content": base64.b64encode(content.encode()).decode(),
            "message": message,
            "branch": branch,
        }
        if new_branch:
            body["new_branch"] = new_branch
        if existing.status_code == 200:
            body["sha"] = existing.get_json()["sha"]
            response = self.client.put(url, json=body, headers=headers)
        else:
            response = self.client.post(url, json=body, headers=headers)
        assert response.status_code in (200, 201), response.get_data(as_text=True)
        sha: str = response.get_json()["commit"]["sha"]
        return sha

    def api(self, method: str, path: str, owner: str | None = None, **kwargs: Any) -> TestResponse:
        """A REST call under ``/api/v1`` as ``owner`` (anonymous when None)."""
        headers = dict(kwargs.pop("headers", None) or (self.user(owner) if owner else {}))
        return self.client.open(f"/api/v1/{path.lstrip('/')}", method=method, headers=headers, **kwargs)

    def registration_token(self, owner: str, repo: str) -> str:
        response = self.api("POST", f"repos/{owner}/{repo}/actions/runners/registration-token", owner)
        assert response.status_code == 200, response.get_data(as_text=True)
        token: str = response.get_json()["token"]
        return token

    # --- runner protocol ----------------------------------------------------------------------

    def call(
        self,
        method: str,
        message: Message,
        *,
        runner: RunnerIdentity | None = None,
        codec: str = PROTO,
        headers: Mapping[str, str] | None = None,
    ) -> TestResponse:
        """One Connect unary call; ``method`` is ``Ping`` or a RunnerService method name."""
        prefix = PING_SERVICE if method == "Ping" else RUNNER_SERVICE
        body = message.SerializeToString() if codec == PROTO else json_format.MessageToJson(message).encode()
        all_headers = {"Content-Type": codec, "Connect-Protocol-Version": "1"}
        all_headers.update(runner.headers if runner else {})
        all_headers.update(headers or {})
        return self.client.post(prefix + method, data=body, headers=all_headers)

    def reply(self, response: TestResponse, message_type: type[M]) -> M:
        """Decode a successful answer (in the codec the server chose)."""
        assert response.status_code == 200, response.get_data(as_text=True)
        message = message_type()
        if response.mimetype == JSON:
            json_format.Parse(response.get_data(as_text=True), message)
        else:
            message.ParseFromString(response.get_data())
        return message

    def register(self, owner: str, repo: str, labels: list[str], *, ephemeral: bool = False) -> RunnerIdentity:
        token = self.registration_token(owner, repo)
        request = runner_pb2.RegisterRequest(
            name=f"runner-{next(self.names)}", token=token, version="v0.0.1", labels=labels, ephemeral=ephemeral
        )
        answer = self.reply(self.call("Register", request), runner_pb2.RegisterResponse)
        return RunnerIdentity(answer.runner.id, answer.runner.uuid, answer.runner.token)

    def fetch(self, runner: RunnerIdentity, tasks_version: int = 0) -> runner_pb2.FetchTaskResponse:
        request = runner_pb2.FetchTaskRequest(tasks_version=tasks_version)
        return self.reply(self.call("FetchTask", request, runner=runner), runner_pb2.FetchTaskResponse)

    def finish(self, runner: RunnerIdentity, task_id: int, result: int) -> runner_pb2.UpdateTaskResponse:
        state = runner_pb2.TaskState(id=task_id, result=result)  # type: ignore[arg-type]
        state.stopped_at.GetCurrentTime()
        request = runner_pb2.UpdateTaskRequest(state=state)
        return self.reply(self.call("UpdateTask", request, runner=runner), runner_pb2.UpdateTaskResponse)

    def log(self, runner: RunnerIdentity, task_id: int, index: int, lines: list[str], *, no_more: bool = False) -> int:
        rows = [runner_pb2.LogRow(content=line) for line in lines]
        for row in rows:
            row.time.FromSeconds(1_790_000_000)
        request = runner_pb2.UpdateLogRequest(task_id=task_id, index=index, rows=rows, no_more=no_more)
        return self.reply(self.call("UpdateLog", request, runner=runner), runner_pb2.UpdateLogResponse).ack_index

    # --- REST reads ---------------------------------------------------------------------------

    def runs(self, owner: str, repo: str, **query: Any) -> list[dict[str, Any]]:
        response = self.api("GET", f"repos/{owner}/{repo}/actions/runs", owner, query_string=query)
        assert response.status_code == 200, response.get_data(as_text=True)
        runs: list[dict[str, Any]] = response.get_json()["workflow_runs"]
        return runs

    def jobs(self, owner: str, repo: str, run_id: int) -> list[dict[str, Any]]:
        response = self.api("GET", f"repos/{owner}/{repo}/actions/runs/{run_id}/jobs", owner)
        assert response.status_code == 200, response.get_data(as_text=True)
        jobs: list[dict[str, Any]] = response.get_json()["jobs"]
        return jobs


def connect_error(response: TestResponse) -> tuple[int, str, str]:
    """``(status, code, message)`` of a Connect error answer (always JSON)."""
    assert response.mimetype == JSON, response.get_data(as_text=True)
    body = json.loads(response.get_data(as_text=True))
    return response.status_code, body["code"], body["message"]


@pytest.fixture
def world(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> World:
    return World(app, client, admin_headers)
