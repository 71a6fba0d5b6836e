"""A server under a sub-path: the runner protocol, links and the tasks' web paths carry the sub-path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from forge_proto import runner_pb2
from google.protobuf import json_format
from test_server_actions_support import SIMPLE_WORKFLOW, World
from werkzeug.test import TestResponse

from reference_server.app import create_app
from reference_server.config import Config

ADMIN_TOKEN = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"


class SubPathClient(FlaskClient):
    """A test client that puts ``/forge`` in front of every path, as a reverse proxy would."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        if args and isinstance(args[0], str) and args[0].startswith("/"):
            args = ("/forge" + args[0], *args[1:])
        return super().open(*args, **kwargs)


@pytest.fixture
def sub_app(tmp_path: Path) -> Iterator[Flask]:
    config = Config(data_dir=tmp_path / "data", base_url="http://forge.test/forge/", admin_token=ADMIN_TOKEN)
    application = create_app(config)
    application.testing = True
    application.test_client_class = SubPathClient
    yield application
    application.extensions["forge"].db.close()


def test_everything_works_under_a_sub_path(sub_app: Flask) -> None:
    world = World(sub_app, sub_app.test_client(), {"Authorization": f"token {ADMIN_TOKEN}"})
    probe = world.client.get("/api/v1/version")
    assert probe.status_code == 200 and probe.request.path == "/forge/api/v1/version"
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task = world.fetch(runner).task
    context = json_format.MessageToDict(task.context)
    assert context["api_url"] == "http://forge.test/forge/api/v1"
    assert context["server_url"] == "http://forge.test/forge/"
    world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)
    [run] = world.runs("alice", "app")
    assert run["url"] == f"http://forge.test/forge/api/v1/repos/alice/app/actions/runs/{run['id']}"
    assert run["html_url"] == f"http://forge.test/forge/alice/app/actions/runs/{run['id']}"
    [entry] = world.api("GET", "repos/alice/app/actions/tasks", "alice").get_json()["workflow_runs"]
    assert entry["url"] == f"/forge/alice/app/actions/runs/{run['id']}"
