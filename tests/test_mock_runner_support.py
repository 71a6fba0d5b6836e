"""Shared helpers of the mock runner tests: a live reference server over real HTTP, and small fakes.

The live server is the real app served by waitress on a free loopback port, so the mock runner talks
to it exactly as it would to a forge (requests, signed URLs, gzip, threads).
"""

from __future__ import annotations

import base64
import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask, Response, request
from waitress.server import create_server
from werkzeug.serving import make_server

from mock_runner.cli import main as mock_runner_main
from reference_server.app import create_app
from reference_server.config import Config
from reference_server.passwords import FAST_COST

ADMIN = "forge_admin"
ADMIN_TOKEN = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class LiveForge:
    """A reference server on a real port, with the admin's token."""

    url: str
    app: Flask

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"token {ADMIN_TOKEN}", **kwargs.pop("headers", {})}
        return requests.request(method, f"{self.url}/api/v1{path}", headers=headers, timeout=30, **kwargs)

    def create_repo(self, name: str) -> str:
        response = self.api("POST", "/user/repos", json={"name": name, "auto_init": True})
        assert response.status_code == 201, response.text
        return f"{ADMIN}/{name}"

    def push_file(self, repo: str, path: str, text: str | bytes) -> str:
        """Commit one file through the contents API (a push: workflows start); returns the commit sha."""
        data = text.encode() if isinstance(text, str) else text
        body = {"content": base64.b64encode(data).decode(), "message": f"add {path}"}
        response = self.api("POST", f"/repos/{repo}/contents/{path}", json=body)
        assert response.status_code == 201, response.text
        return str(response.json()["commit"]["sha"])

    def registration_token(self, repo: str) -> str:
        response = self.api("POST", f"/repos/{repo}/actions/runners/registration-token")
        assert response.status_code == 200, response.text
        return str(response.json()["token"])

    def register_runner(self, repo: str, runner_file: Path, labels: str = "ubuntu-latest", name: str = "r1") -> Path:
        """Register through the ``mock-runner register`` command, as a user would."""
        status = mock_runner_main(
            [
                "register",
                "--instance", self.url,
                "--token", self.registration_token(repo),
                "--name", name,
                "--labels", labels,
                "--no-interactive",
                "--runner-file", str(runner_file),
            ]
        )  # fmt: skip
        assert status == 0
        return runner_file

    def runs(self, repo: str) -> list[dict[str, Any]]:
        response = self.api("GET", f"/repos/{repo}/actions/runs")
        assert response.status_code == 200, response.text
        return list(response.json()["workflow_runs"])

    def artifacts(self, repo: str) -> list[dict[str, Any]]:
        response = self.api("GET", f"/repos/{repo}/actions/artifacts")
        assert response.status_code == 200, response.text
        return list(response.json()["artifacts"])


@contextlib.contextmanager
def serve_forge(data_dir: Path, sub_path: str = "") -> Iterator[LiveForge]:
    """A fresh reference server served by waitress on a free port, optionally under a sub-path."""
    prefix = f"{sub_path.strip('/')}/" if sub_path.strip("/") else ""
    config = Config(
        data_dir=data_dir, base_url=f"http://127.0.0.1:1/{prefix}", admin_token=ADMIN_TOKEN, password_cost=FAST_COST
    )
    app = create_app(config)
    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    port = server.effective_port
    config.base_url = f"http://127.0.0.1:{port}/{prefix}"

    def serve() -> None:
        # closing the server at teardown pulls the socket from under the loop: that is how it stops
        with contextlib.suppress(OSError, ValueError):
            server.run()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield LiveForge(url=config.base_url.rstrip("/"), app=app)
    finally:
        server.close()
        app.extensions["forge"].db.close()


@pytest.fixture
def live_forge(tmp_path: Path) -> Iterator[LiveForge]:
    """A fresh reference server served by waitress on a free port."""
    with serve_forge(tmp_path / "forge") as forge:
        yield forge


Handler = Callable[[], Response]


class FakeServer:
    """A tiny Flask app on a real port: tests route paths to handlers and see every request."""

    def __init__(self) -> None:
        self.app = Flask("fake")
        self.handlers: dict[str, Handler] = {}
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.keep_bodies = True

        @self.app.route("/<path:path>", methods=["GET", "POST", "PUT", "DELETE"])
        def dispatch(path: str) -> Response:
            body = request.get_data() if self.keep_bodies else b""
            self.requests.append((request.full_path.rstrip("?"), dict(request.headers), body))
            handler = self.handlers.get("/" + path)
            if handler is None:
                return Response("no such route", status=404, content_type="text/plain")
            return handler()

        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture
def fake_server() -> Iterator[FakeServer]:
    server = FakeServer()
    yield server
    server.close()


SIMPLE_WORKFLOW = """\
name: simple
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo hello
"""


def take_task(forge: LiveForge, repo: str, workflow: str = SIMPLE_WORKFLOW) -> tuple[Any, Any]:
    """Push a workflow, register a runner with the protocol client and take the job's task."""
    from mock_runner.protocol import RunnerClient

    forge.push_file(repo, ".gitea/workflows/ci.yml", workflow)
    anonymous = RunnerClient(forge.url)
    runner = anonymous.register(forge.registration_token(repo), "lib-runner", ["ubuntu-latest"])
    client = RunnerClient(forge.url, runner.uuid, runner.token)
    for _ in range(50):
        task, _version = client.fetch_task(0)
        if task is not None:
            return task, client
    raise AssertionError("the pushed workflow gave no task")
