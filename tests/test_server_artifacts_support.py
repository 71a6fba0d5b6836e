"""Shared helpers of the artifact tests: a running job (fake task and run, real runtime token) and its calls.

Tasks and runs are the actions family's; these tests replace its lookups with in-memory ones so each
artifact rule can be set up in one line (a running or finished task, a run of any repository).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

import reference_server.actions.models as actions_models

SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/"


@dataclass
class FakeTask:
    id: int
    job_id: int
    run_id: int
    repo_id: int
    runner_id: int = 1
    running: bool = True

    @property
    def is_running(self) -> bool:
        return self.running


@dataclass
class FakeRun:
    id: int
    repo_id: int
    head_sha: str
    run_number: int = 1


@dataclass
class FakeActions:
    """In-memory tasks and runs standing in for the actions family's lookups."""

    app: Flask
    tasks: dict[int, FakeTask] = field(default_factory=dict)
    runs: dict[int, FakeRun] = field(default_factory=dict)
    ids: Iterator[int] = field(default_factory=lambda: itertools.count(101))

    def new_run(self, repo_id: int = 1) -> FakeRun:
        run_id = next(self.ids)
        run = FakeRun(id=run_id, repo_id=repo_id, head_sha=hashlib.sha1(str(run_id).encode()).hexdigest())  # noqa: S324
        self.runs[run_id] = run
        return run

    def start_job(self, run: FakeRun | None = None, *, repo_id: int = 1) -> Job:
        """A running task of a new job in ``run`` (a new run of ``repo_id`` by default) and its client."""
        run = run or self.new_run(repo_id)
        task = FakeTask(id=next(self.ids), job_id=next(self.ids), run_id=run.id, repo_id=run.repo_id)
        self.tasks[task.id] = task
        forge = self.app.extensions["forge"]
        token = forge.signer.issue_runtime_token(
            task_id=task.id, run_id=run.id, job_id=task.job_id, now=forge.now(), lifetime=3600
        )
        return Job(self.app.test_client(), token, task)


def install_fake_actions(app: Flask, monkeypatch: pytest.MonkeyPatch) -> FakeActions:
    """Route the actions family's task and run lookups to a fresh in-memory ``FakeActions``."""
    fake = FakeActions(app)
    monkeypatch.setattr(actions_models, "get_task", fake.tasks.get)
    monkeypatch.setattr(actions_models, "get_run", fake.runs.get)
    return fake


def block_id(index: int) -> str:
    """A block id as the Azure SDK makes them: standard base64 of a fixed-width string."""
    return base64.b64encode(f"block-{index:06d}-0123456789abcdef".encode()).decode()


def block_list_xml(ids: list[str], tag: str = "Latest") -> bytes:
    entries = "".join(f"<{tag}>{value}</{tag}>" for value in ids)
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><BlockList>{entries}</BlockList>'.encode()


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def with_query(url: str, **changes: str | None) -> str:
    """``url`` with query parameters replaced (or removed when None), keeping their order."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    for key, value in changes.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = value
    return f"{parts.path}?{urlencode(query)}"


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


@dataclass
class Job:
    """One job's view of the artifact protocol, as the official client would call it."""

    client: FlaskClient
    token: str
    task: FakeTask

    @property
    def ids(self) -> dict[str, str]:
        return {"workflow_run_backend_id": str(self.task.run_id), "workflow_job_run_backend_id": str(self.task.job_id)}

    def call(self, method: str, body: Mapping[str, Any] | None = None, *, token: str | None = None) -> TestResponse:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        return self.client.post(SERVICE + method, json={**self.ids, **(body or {})}, headers=headers)

    def ok(self, method: str, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
        response = self.call(method, body)
        assert response.status_code == 200, response.get_data(as_text=True)
        data: dict[str, Any] = response.get_json()
        return data

    def create(self, name: str, **extra: Any) -> str:
        answer = self.ok("CreateArtifact", {"name": name, "version": 4, **extra})
        assert answer["ok"] is True
        url: str = answer["signedUploadUrl"]
        return url

    def put_block(self, url: str, ident: str, data: bytes) -> TestResponse:
        return self.client.put(with_query(url, comp="block", blockid=ident), data=data)

    def put_block_list(self, url: str, body: bytes) -> TestResponse:
        return self.client.put(with_query(url, comp="blocklist"), data=body, content_type="application/xml")

    def finalize(self, name: str, size: int, hash_value: str | None = None) -> TestResponse:
        body: dict[str, Any] = {"name": name, "size": str(size)}
        if hash_value is not None:
            body["hash"] = hash_value
        return self.call("FinalizeArtifact", body)

    def upload(self, name: str, data: bytes, *, block_size: int = 4, **extra: Any) -> int:
        """Create, upload in blocks, commit the list and finalize; returns the artifact id."""
        url = self.create(name, **extra)
        ids = []
        for index in range(0, len(data), block_size):
            ident = block_id(index)
            assert self.put_block(url, ident, data[index : index + block_size]).status_code == 201
            ids.append(ident)
        assert self.put_block_list(url, block_list_xml(ids)).status_code == 201
        response = self.finalize(name, len(data), sha(data))
        assert response.status_code == 200, response.get_data(as_text=True)
        return int(response.get_json()["artifactId"])

    def signed_url(self, name: str) -> str:
        url: str = self.ok("GetSignedArtifactURL", {"name": name})["signedUrl"]
        return url

    def listed(self, **filters: Any) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.ok("ListArtifacts", filters).get("artifacts", [])
        return items


def twirp_error(response: TestResponse, status: int, code: str) -> str:
    """Assert a Twirp JSON error of that status and code; returns its message."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert body["code"] == code, body
    assert isinstance(body["msg"], str) and body["msg"]
    msg: str = body["msg"]
    return msg


@pytest.fixture(autouse=True)
def app_context(app: Flask) -> Iterator[None]:
    """Let tests read the store directly, as the handlers do (autouse where imported)."""
    with app.app_context():
        yield


@pytest.fixture
def actions(app: Flask, monkeypatch: pytest.MonkeyPatch) -> FakeActions:
    """The actions family replaced by a fake that hands out running jobs."""
    return install_fake_actions(app, monkeypatch)


@pytest.fixture
def job(actions: FakeActions) -> Job:
    """One running job of a fresh fake run."""
    return actions.start_job()
