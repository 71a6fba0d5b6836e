"""The Connect client of the runner protocol, against a fake server that checks what goes on the wire."""

from __future__ import annotations

import gzip
import json

import pytest
from flask import Response, request
from forge_proto import ping_pb2, runner_pb2
from google.protobuf import json_format
from google.protobuf.message import Message
from test_mock_runner_support import FakeServer, fake_server

from mock_runner import VERSION
from mock_runner.protocol import RunnerCallError, RunnerClient

__all__ = ["fake_server"]

RUNNER = "/api/actions/runner.v1.RunnerService/"


def proto_reply(message: Message, *, compress: bool = False) -> Response:
    body = message.SerializeToString()
    response = Response(gzip.compress(body) if compress else body, content_type="application/proto")
    if compress:
        response.headers["Content-Encoding"] = "gzip"
    return response


def test_ping_sends_connect_headers_and_no_credentials_before_registering(fake_server: FakeServer) -> None:
    def ping() -> Response:
        incoming = ping_pb2.PingRequest.FromString(request.get_data())
        return proto_reply(ping_pb2.PingResponse(data=f"Hello, {incoming.data}!"))

    fake_server.handlers["/api/actions/ping.v1.PingService/Ping"] = ping
    assert RunnerClient(fake_server.url + "/").ping("mock") == "Hello, mock!"
    _, headers, _ = fake_server.requests[0]
    assert headers["Content-Type"] == "application/proto"
    assert headers["Connect-Protocol-Version"] == "1"
    assert "gzip" in headers["Accept-Encoding"]
    assert headers["X-Runner-Version"] == VERSION
    assert "X-Runner-Uuid" not in headers
    assert "X-Runner-Token" not in headers


def test_register_sends_label_names_and_reads_the_runner(fake_server: FakeServer) -> None:
    seen: list[runner_pb2.RegisterRequest] = []

    def register() -> Response:
        seen.append(runner_pb2.RegisterRequest.FromString(request.get_data()))
        runner = runner_pb2.Runner(id=7, uuid="u-1", token="t-1", name=seen[0].name, labels=seen[0].labels)
        return proto_reply(runner_pb2.RegisterResponse(runner=runner), compress=True)

    fake_server.handlers[RUNNER + "Register"] = register
    runner = RunnerClient(fake_server.url).register("REG", "builder", ["ubuntu-latest", "gpu"], ephemeral=True)
    assert (runner.id, runner.uuid, runner.token, runner.name) == (7, "u-1", "t-1", "builder")
    assert list(seen[0].labels) == ["ubuntu-latest", "gpu"]
    assert list(seen[0].agent_labels) == ["ubuntu-latest", "gpu"]
    assert seen[0].token == "REG"
    assert seen[0].ephemeral is True


def test_registered_calls_carry_uuid_and_token(fake_server: FakeServer) -> None:
    fake_server.handlers[RUNNER + "Declare"] = lambda: proto_reply(
        runner_pb2.DeclareResponse(runner=runner_pb2.Runner(version="v1", labels=["a"]))
    )
    runner = RunnerClient(fake_server.url, "the-uuid", "the-token").declare(["a"], "v1")
    assert runner.version == "v1"
    _, headers, body = fake_server.requests[0]
    assert headers["X-Runner-Uuid"] == "the-uuid"
    assert headers["X-Runner-Token"] == "the-token"
    assert runner_pb2.DeclareRequest.FromString(body).labels == ["a"]


def test_json_codec_speaks_protojson(fake_server: FakeServer) -> None:
    def fetch() -> Response:
        assert request.content_type == "application/json"
        incoming = json.loads(request.get_data())
        assert incoming == {"tasksVersion": "3"}
        task = runner_pb2.Task(id=12, workflow_payload=b"jobs: {}")
        reply = runner_pb2.FetchTaskResponse(task=task, tasks_version=4)
        return Response(json_format.MessageToJson(reply), content_type="application/json")

    fake_server.handlers[RUNNER + "FetchTask"] = fetch
    task, version = RunnerClient(fake_server.url, "u", "t", codec="json").fetch_task(3)
    assert task is not None and task.id == 12 and task.workflow_payload == b"jobs: {}"
    assert version == 4
    _, headers, _ = fake_server.requests[0]
    assert headers["Connect-Timeout-Ms"] == "5000"


def test_fetch_without_task_returns_none_and_the_version(fake_server: FakeServer) -> None:
    fake_server.handlers[RUNNER + "FetchTask"] = lambda: proto_reply(runner_pb2.FetchTaskResponse(tasks_version=9))
    assert RunnerClient(fake_server.url, "u", "t").fetch_task(0) == (None, 9)


def test_fetch_deadline_means_no_task(fake_server: FakeServer) -> None:
    fake_server.handlers[RUNNER + "FetchTask"] = lambda: Response(
        json.dumps({"code": "deadline_exceeded", "message": "no task in time"}), status=504,
        content_type="application/json",
    )  # fmt: skip
    assert RunnerClient(fake_server.url, "u", "t").fetch_task(5) == (None, 5)


def test_connect_error_is_parsed(fake_server: FakeServer) -> None:
    fake_server.handlers[RUNNER + "UpdateLog"] = lambda: Response(
        json.dumps({"code": "unauthenticated", "message": "unregistered runner"}), status=401,
        content_type="application/json",
    )  # fmt: skip
    with pytest.raises(RunnerCallError) as caught:
        RunnerClient(fake_server.url, "u", "bad").update_log(1, 0, [], no_more=False)
    assert (caught.value.status, caught.value.code, caught.value.message) == (
        401,
        "unauthenticated",
        "unregistered runner",
    )


def test_non_json_error_says_what_came_back(fake_server: FakeServer) -> None:
    fake_server.handlers[RUNNER + "Declare"] = lambda: Response(
        "<html>bad gateway</html>", status=502, content_type="text/html"
    )
    with pytest.raises(RunnerCallError) as caught:
        RunnerClient(fake_server.url, "u", "t").declare([], "v")
    assert caught.value.status == 502
    assert caught.value.code == "unavailable"
    assert "text/html" in caught.value.message and "bad gateway" in caught.value.message


@pytest.mark.parametrize(
    ("status", "code"),
    [(404, "unimplemented"), (400, "internal"), (401, "unauthenticated"), (503, "unavailable"), (418, "unknown")],
)
def test_a_bare_status_is_read_as_connect_go_reads_it(fake_server: FakeServer, status: int, code: str) -> None:
    """connect-go answers a procedure it lacks with a plain-text 404; its clients read that as unimplemented."""
    fake_server.handlers[RUNNER + "Declare"] = lambda: Response("404 page not found\n", status=status)
    with pytest.raises(RunnerCallError) as caught:
        RunnerClient(fake_server.url, "u", "t").declare([], "v")
    assert (caught.value.status, caught.value.code) == (status, code)


def test_undecodable_success_is_an_error(fake_server: FakeServer) -> None:
    fake_server.handlers[RUNNER + "Declare"] = lambda: Response(b"\xff\xff\xff", content_type="application/proto")
    with pytest.raises(RunnerCallError) as caught:
        RunnerClient(fake_server.url, "u", "t").declare([], "v")
    assert caught.value.code == "internal"
    assert "undecodable" in caught.value.message


def test_unreachable_server_is_unavailable() -> None:
    with pytest.raises(RunnerCallError) as caught:
        RunnerClient("http://127.0.0.1:9").ping("x")
    assert (caught.value.status, caught.value.code) == (0, "unavailable")


def test_update_task_and_log_round_trip(fake_server: FakeServer) -> None:
    def update_task() -> Response:
        incoming = runner_pb2.UpdateTaskRequest.FromString(request.get_data())
        state = runner_pb2.TaskState(id=incoming.state.id, result=runner_pb2.RESULT_CANCELLED)
        return proto_reply(runner_pb2.UpdateTaskResponse(state=state, sent_outputs=sorted(incoming.outputs)))

    def update_log() -> Response:
        incoming = runner_pb2.UpdateLogRequest.FromString(request.get_data())
        return proto_reply(runner_pb2.UpdateLogResponse(ack_index=incoming.index + len(incoming.rows)))

    fake_server.handlers[RUNNER + "UpdateTask"] = update_task
    fake_server.handlers[RUNNER + "UpdateLog"] = update_log
    client = RunnerClient(fake_server.url, "u", "t")
    reply = client.update_task(runner_pb2.TaskState(id=3), {"b": "2", "a": "1"})
    assert reply.state.result == runner_pb2.RESULT_CANCELLED
    assert list(reply.sent_outputs) == ["a", "b"]
    rows = [runner_pb2.LogRow(content="x"), runner_pb2.LogRow(content="y")]
    assert client.update_log(3, 5, rows, no_more=True) == 7


def test_unknown_codec_is_refused() -> None:
    with pytest.raises(ValueError, match="codec"):
        RunnerClient("http://x", codec="xml")  # type: ignore[arg-type]
