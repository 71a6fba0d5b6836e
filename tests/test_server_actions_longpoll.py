"""FetchTask's optional long poll: wait for work up to the configured window, wake when a job is queued."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, World

from reference_server.app import create_app
from reference_server.config import Config, Limits

ADMIN_TOKEN = "fedcba9876543210fedcba9876543210fedcba98"


@pytest.fixture
def polling_app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """A server whose FetchTask waits up to the window a test passes indirectly (1.5 s by default)."""
    window = float(getattr(request, "param", 1.5))
    config = Config(
        data_dir=tmp_path / "data",
        base_url="http://forge.test/",
        admin_token=ADMIN_TOKEN,
        limits=Limits(fetch_task_long_poll_seconds=window),
    )
    application = create_app(config)
    application.testing = True
    yield application
    application.extensions["forge"].db.close()


@pytest.fixture
def polling(polling_app: Flask) -> World:
    client: FlaskClient = polling_app.test_client()
    return World(polling_app, client, {"Authorization": f"token {ADMIN_TOKEN}"})


def test_an_idle_poll_waits_for_the_window_then_answers_without_a_task(polling: World) -> None:
    polling.repo("alice", "app")
    runner = polling.register("alice", "app", ["ubuntu-latest"])
    version = polling.fetch(runner, 0).tasks_version  # nothing to pick: this one waits the window too
    started = time.monotonic()
    idle = polling.fetch(runner, version)
    waited = time.monotonic() - started
    assert not idle.HasField("task") and idle.tasks_version == version
    assert 1.3 <= waited < 5
    started = time.monotonic()
    response = polling.call(
        "FetchTask",
        runner_pb2.FetchTaskRequest(tasks_version=version),
        runner=runner,
        headers={"Connect-Timeout-Ms": "600"},
    )
    assert response.status_code == 200 and time.monotonic() - started < 1.2  # the client's deadline caps the wait


@pytest.mark.parametrize("polling_app", [20.0], indirect=True)
def test_a_waiting_poll_wakes_when_a_job_is_queued(polling: World) -> None:
    polling.repo("alice", "app")
    runner = polling.register("alice", "app", ["ubuntu-latest"])
    version = 0  # act_runner's first poll; with nothing to pick it waits like any other
    answers: list[runner_pb2.FetchTaskResponse] = []

    def poll() -> None:
        client = polling.app.test_client()
        response = client.post(
            "/api/actions/runner.v1.RunnerService/FetchTask",
            data=runner_pb2.FetchTaskRequest(tasks_version=version).SerializeToString(),
            headers={**runner.headers, "Content-Type": "application/proto"},
        )
        answers.append(polling.reply(response, runner_pb2.FetchTaskResponse))

    waiter = threading.Thread(target=poll)
    started = time.monotonic()
    waiter.start()
    time.sleep(0.2)
    polling.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    waiter.join(timeout=30)
    assert not waiter.is_alive()
    [answer] = answers
    assert answer.HasField("task") and answer.tasks_version > version
    assert time.monotonic() - started < 15  # woken by the push, well before the 20 s window
