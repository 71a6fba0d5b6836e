"""The REST-first task queue: REST API requests jump the queue, within bounds, and nothing is lost."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from flask import Flask

from reference_server import dispatch, spool


@dataclass
class Parsed:
    path: str


@dataclass
class Channel:
    """What the dispatcher sees of a waitress channel: the requests it is about to serve."""

    name: str
    requests: list[Parsed] = field(default_factory=list)


def channel(name: str, path: str) -> Channel:
    return Channel(name, [Parsed(path)])


@pytest.mark.parametrize(
    ("path", "rest"),
    [
        ("/api/v1/repos/o/r/actions/runs", True),
        ("/forge/api/v1/user", True),  # served under a sub-path
        ("/api/actions/runner.v1.RunnerService/FetchTask", False),
        ("/twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact", False),
        ("/o/r.git/info/refs", False),
        ("/api/v1", False),
    ],
)
def test_rest_requests_are_told_from_job_traffic(path: str, rest: bool) -> None:
    assert dispatch.is_rest(channel("c", path)) is rest


def test_a_channel_without_a_request_is_ordinary() -> None:
    assert dispatch.is_rest(Channel("empty")) is False
    assert dispatch.is_rest(object()) is False


def test_rest_requests_go_first_in_arrival_order_and_nothing_is_lost() -> None:
    queue = dispatch.PriorityDispatcher().queue
    for name, path in [("up1", "/twirp/x"), ("rest1", "/api/v1/a"), ("up2", "/twirp/y"), ("rest2", "/api/v1/b")]:
        queue.append(channel(name, path))
    assert len(queue) == 4
    served = [queue.popleft().name for _ in range(4)]
    assert served == ["rest1", "rest2", "up1", "up2"]
    assert not queue
    assert len(queue) == 0


def test_other_traffic_is_not_starved_by_a_flood_of_rest_calls() -> None:
    queue = dispatch.PriorityDispatcher().queue
    queue.append(channel("upload", "/twirp/x"))
    for index in range(3 * dispatch.BURST):
        queue.append(channel(f"rest{index}", "/api/v1/a"))
    served = [queue.popleft().name for _ in range(3 * dispatch.BURST + 1)]
    assert served.index("upload") == dispatch.BURST
    assert served[: dispatch.BURST] == [f"rest{index}" for index in range(dispatch.BURST)]


def test_the_server_answers_through_the_priority_queue(tmp_path: Path) -> None:
    """The whole path: waitress' workers take tasks from our queue and every request is answered."""
    app = Flask("t")

    @app.get("/api/v1/ping")
    def ping() -> str:
        return "pong"

    @app.get("/plain")
    def plain() -> str:
        return "plain"

    server = spool.create_server(app, tmp_path / "spool", host="127.0.0.1", port=0, threads=2)
    assert isinstance(server.task_dispatcher, dispatch.PriorityDispatcher)
    assert len(server.task_dispatcher.threads) == 2
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    try:
        base = f"http://127.0.0.1:{server.effective_port}"
        answers = [requests.get(base + path, timeout=10).text for path in ["/api/v1/ping", "/plain"] * 5]
        assert answers == ["pong", "plain"] * 5
    finally:
        server.close()
        server.task_dispatcher.shutdown()
