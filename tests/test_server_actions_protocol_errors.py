"""Every refusal of the runner protocol: a clear Connect error with its real code, and nothing stored."""

from __future__ import annotations

import gzip
import sqlite3
import threading

import pytest
from forge_proto import runner_pb2
from test_server_actions_support import (
    JSON,
    RUNNER_SERVICE,
    SIMPLE_WORKFLOW,
    RunnerIdentity,
    World,
    connect_error,
    world,
)

from reference_server.actions import runner_store, runners, tasks
from reference_server.actions.models import get_runner
from reference_server.context import forge

__all__ = ["world"]


def _queued(world: World) -> RunnerIdentity:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    return world.register("alice", "app", ["ubuntu-latest"])


def _run_status(world: World) -> str:
    status: str = world.runs("alice", "app")[0]["status"]
    return status


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"x-runner-uuid": "00000000-0000-4000-8000-000000000000", "x-runner-token": "0" * 40},
        "wrong-token",
    ],
    ids=["no-headers", "unknown-runner", "wrong-token"],
)
def test_a_call_without_valid_runner_credentials_is_unauthenticated(world: World, headers: object) -> None:
    runner = _queued(world)
    sent = {**runner.headers, "x-runner-token": "f" * 40} if headers == "wrong-token" else headers
    assert isinstance(sent, dict)
    response = world.call("FetchTask", runner_pb2.FetchTaskRequest(), headers=sent)
    assert connect_error(response)[:2] == (401, "unauthenticated")
    assert _run_status(world) == "queued"  # nothing was handed out


def test_register_refuses_missing_unknown_and_replaced_tokens(world: World) -> None:
    world.repo("alice", "app")
    missing = world.call("Register", runner_pb2.RegisterRequest(name="r", token=""))
    assert connect_error(missing) == (400, "invalid_argument", "missing runner token, name")
    no_name = world.call(
        "Register", runner_pb2.RegisterRequest(name="", token=world.registration_token("alice", "app"))
    )
    assert connect_error(no_name)[:2] == (400, "invalid_argument")
    unknown = world.call("Register", runner_pb2.RegisterRequest(name="r", token="0" * 40))
    assert connect_error(unknown)[:2] == (404, "not_found")

    old = world.registration_token("alice", "app")
    assert world.registration_token("alice", "app") == old  # reused until replaced
    replaced = world.api("DELETE", "repos/alice/app/actions/runners/registration-token", "alice")
    assert replaced.status_code == 204
    new = world.registration_token("alice", "app")
    assert new != old
    refused = world.call("Register", runner_pb2.RegisterRequest(name="late", token=old, labels=["x"]))
    status, code, message = connect_error(refused)
    assert (status, code) == (400, "failed_precondition") and "invalidated" in message
    accepted = world.call("Register", runner_pb2.RegisterRequest(name="ok", token=new, labels=["x"]))
    assert accepted.status_code == 200


def test_register_refuses_a_token_of_a_deleted_repository(world: World) -> None:
    world.repo("alice", "app")
    token = world.registration_token("alice", "app")
    assert world.api("DELETE", "repos/alice/app", "alice").status_code == 204
    response = world.call("Register", runner_pb2.RegisterRequest(name="r", token=token))
    assert connect_error(response)[:2] in ((404, "not_found"),)


def test_malformed_bodies_are_invalid_arguments(world: World) -> None:
    runner = _queued(world)
    garbage = world.client.post(
        RUNNER_SERVICE + "FetchTask",
        data=b"\xff\xff\xff",
        headers={**runner.headers, "Content-Type": "application/proto"},
    )
    assert connect_error(garbage)[:2] == (400, "invalid_argument")
    bad_json = world.client.post(
        RUNNER_SERVICE + "FetchTask", data=b"{not json", headers={**runner.headers, "Content-Type": JSON}
    )
    assert connect_error(bad_json)[:2] == (400, "invalid_argument")
    empty_json = world.client.post(
        RUNNER_SERVICE + "FetchTask", data=b"", headers={**runner.headers, "Content-Type": JSON}
    )
    assert connect_error(empty_json)[:2] == (400, "invalid_argument")
    wrong_type = world.client.post(
        RUNNER_SERVICE + "FetchTask", data=b'{"tasksVersion": "x"}', headers={**runner.headers, "Content-Type": JSON}
    )
    assert connect_error(wrong_type)[:2] == (400, "invalid_argument")
    bad_gzip = world.client.post(
        RUNNER_SERVICE + "FetchTask",
        data=b"not gzip",
        headers={**runner.headers, "Content-Type": "application/proto", "Content-Encoding": "gzip"},
    )
    assert connect_error(bad_gzip)[:2] == (400, "invalid_argument")
    truncated = world.client.post(
        RUNNER_SERVICE + "FetchTask",
        data=gzip.compress(b"\x08\x01")[:-6],
        headers={**runner.headers, "Content-Type": "application/proto", "Content-Encoding": "gzip"},
    )
    assert connect_error(truncated)[:2] == (400, "invalid_argument")
    brotli = world.client.post(
        RUNNER_SERVICE + "FetchTask",
        data=b"",
        headers={**runner.headers, "Content-Type": "application/proto", "Content-Encoding": "br"},
    )
    assert connect_error(brotli)[:2] == (501, "unimplemented")
    assert _run_status(world) == "queued"


def test_wrong_content_type_unknown_method_and_wrong_verb(world: World) -> None:
    text = world.client.post(RUNNER_SERVICE + "FetchTask", data=b"{}", headers={"Content-Type": "text/plain"})
    assert connect_error(text)[:2] == (415, "invalid_argument")
    unknown = world.client.post(RUNNER_SERVICE + "Teleport", data=b"", headers={"Content-Type": "application/proto"})
    assert connect_error(unknown) == (
        501,
        "unimplemented",
        "runner.v1.RunnerService/Teleport is not implemented",
    )
    other_service = world.client.post("/api/actions/runner.v2.RunnerService/FetchTask", data=b"")
    assert connect_error(other_service)[:2] == (501, "unimplemented")
    get = world.client.get(RUNNER_SERVICE + "FetchTask")
    assert connect_error(get)[:2] == (405, "unimplemented")
    version = world.client.post(
        RUNNER_SERVICE + "FetchTask",
        data=b"",
        headers={"Content-Type": "application/proto", "Connect-Protocol-Version": "2"},
    )
    assert connect_error(version)[:2] == (400, "invalid_argument")


def test_update_task_refusals_store_nothing(world: World) -> None:
    runner = _queued(world)
    task_id = world.fetch(runner).task.id
    other = world.register("alice", "app", ["ubuntu-latest"])
    finish = runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=task_id, result=runner_pb2.RESULT_SUCCESS))
    stolen = world.call("UpdateTask", finish, runner=other)
    assert connect_error(stolen)[:2] == (403, "permission_denied")
    unknown = runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=999_999, result=runner_pb2.RESULT_SUCCESS))
    assert connect_error(world.call("UpdateTask", unknown, runner=runner))[:2] == (404, "not_found")
    no_state = world.call("UpdateTask", runner_pb2.UpdateTaskRequest(), runner=runner)
    assert connect_error(no_state)[:2] == (400, "invalid_argument")
    bad_result = runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=task_id, result=9))  # type: ignore[arg-type]
    assert connect_error(world.call("UpdateTask", bad_result, runner=runner))[:2] == (400, "invalid_argument")
    bad_step = runner_pb2.UpdateTaskRequest(
        state=runner_pb2.TaskState(
            id=task_id,
            result=runner_pb2.RESULT_SUCCESS,
            steps=[runner_pb2.StepState(id=0, result=42)],  # type: ignore[arg-type]
        ),
        outputs={"kept": "no"},
    )
    assert connect_error(world.call("UpdateTask", bad_step, runner=runner))[:2] == (400, "invalid_argument")
    assert _run_status(world) == "in_progress"
    heartbeat = world.reply(
        world.call("UpdateTask", runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=task_id)), runner=runner),
        runner_pb2.UpdateTaskResponse,
    )
    assert list(heartbeat.sent_outputs) == []  # the refused call stored no output


def test_update_log_refusals(world: World) -> None:
    runner = _queued(world)
    task_id = world.fetch(runner).task.id
    other = world.register("alice", "app", ["ubuntu-latest"])
    rows = [runner_pb2.LogRow(content="x")]
    stolen = world.call("UpdateLog", runner_pb2.UpdateLogRequest(task_id=task_id, rows=rows), runner=other)
    assert connect_error(stolen)[:2] == (403, "permission_denied")
    unknown = world.call("UpdateLog", runner_pb2.UpdateLogRequest(task_id=424242, rows=rows), runner=runner)
    assert connect_error(unknown)[:2] == (404, "not_found")
    negative = world.call("UpdateLog", runner_pb2.UpdateLogRequest(task_id=task_id, index=-1, rows=rows), runner=runner)
    assert connect_error(negative)[:2] == (400, "invalid_argument")
    assert world.log(runner, task_id, 0, []) == 0


def test_a_disabled_runner_gets_no_task_until_enabled(world: World) -> None:
    runner = _queued(world)
    with world.app.app_context():
        runner_store.set_runner_disabled(runner.id, True, 0)
    assert not world.fetch(runner).HasField("task")
    with world.app.app_context():
        runner_store.set_runner_disabled(runner.id, False, 0)
    assert world.fetch(runner).HasField("task")


def test_an_ephemeral_runner_takes_one_task_and_is_then_removed(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/a.yml", SIMPLE_WORKFLOW)
    world.push("alice", "app", ".gitea/workflows/b.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"], ephemeral=True)
    task = world.fetch(runner).task
    assert task.id > 0 and not world.fetch(runner).HasField("task")
    assert world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS).state.result == runner_pb2.RESULT_SUCCESS
    assert world.log(runner, task.id, 0, ["late line"], no_more=True) == 1  # the grace period to finish reporting
    refused = world.call("FetchTask", runner_pb2.FetchTaskRequest(), runner=runner)
    assert connect_error(refused)[:2] == (401, "unauthenticated")


def test_every_authenticated_call_marks_the_runner_online_and_reports_mark_it_active(world: World) -> None:
    runner = _queued(world)
    with world.app.app_context():
        before = get_runner(runner.id)
    assert before is not None and before.last_active == 0
    task_id = world.fetch(runner).task.id
    with world.app.app_context():
        after_fetch = get_runner(runner.id)
    assert after_fetch is not None and after_fetch.last_online > 0 and after_fetch.last_active == 0
    world.log(runner, task_id, 0, ["working"])
    with world.app.app_context():
        after_log = get_runner(runner.id)
    assert after_log is not None and after_log.last_active > 0


def test_labels_timestamps_and_oversized_outputs(world: World) -> None:
    runner = _queued(world)
    bad_label = world.call("Declare", runner_pb2.DeclareRequest(labels=["ok", "bad\nlabel"]), runner=runner)
    assert connect_error(bad_label)[:2] == (400, "invalid_argument")
    token = world.registration_token("alice", "app")
    legacy = world.reply(
        world.call("Register", runner_pb2.RegisterRequest(name="old", token=token, agent_labels=["ubuntu-latest"])),
        runner_pb2.RegisterResponse,
    )
    assert list(legacy.runner.labels) == ["ubuntu-latest"]  # old runners send agent_labels only
    task_id = world.fetch(runner).task.id
    far = runner_pb2.TaskState(id=task_id, result=runner_pb2.RESULT_SUCCESS)
    far.stopped_at.seconds = 10**12
    assert connect_error(world.call("UpdateTask", runner_pb2.UpdateTaskRequest(state=far), runner=runner))[0] == 400
    outputs = {"k" * 256: "dropped", "big": "v" * (1024 * 1024 + 1), "fine": "kept"}
    request = runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=task_id), outputs=outputs)
    answer = world.reply(world.call("UpdateTask", request, runner=runner), runner_pb2.UpdateTaskResponse)
    assert list(answer.sent_outputs) == ["fine"]
    assert _run_status(world) == "in_progress"
    long_line = "x" * (70 * 1024)
    assert world.log(runner, task_id, 0, [long_line]) == 1
    job_id = world.jobs("alice", "app", world.runs("alice", "app")[0]["id"])[0]["id"]
    text = world.api("GET", f"repos/alice/app/actions/jobs/{job_id}/logs", "alice").get_data(as_text=True)
    assert len(text.rstrip("\n").split(" ", 1)[1]) == 64 * 1024  # cut to the line limit


def test_a_call_in_the_second_already_recorded_writes_nothing(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = _queued(world)
    monkeypatch.setattr(runners, "now_seconds", lambda: 1_800_000_000)
    with world.app.app_context():
        runners.authenticate_runner(runner.uuid, runner.token, "UpdateLog")  # records the second
        connection = forge().db.conn
        before = connection.total_changes
        runners.authenticate_runner(runner.uuid, runner.token, "FetchTask")
        runners.authenticate_runner(runner.uuid, runner.token, "UpdateLog")
        assert connection.total_changes == before, "the row already held this second"
        monkeypatch.setattr(runners, "now_seconds", lambda: 1_800_000_001)
        runners.authenticate_runner(runner.uuid, runner.token, "FetchTask")
        assert connection.total_changes == before + 1, "a new second is written"
        recorded = get_runner(runner.id)
    assert recorded is not None and (recorded.last_online, recorded.last_active) == (1_800_000_001, 1_800_000_000)


def test_a_poll_that_finds_no_job_waits_for_no_writer(world: World) -> None:
    world.repo("alice", "app")
    registered = world.register("alice", "app", ["ubuntu-latest"])  # no workflow: nothing to take
    with world.app.app_context():
        runner = get_runner(registered.id)
        database = forge().db.path
    assert runner is not None
    writer = sqlite3.connect(database, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another writer holds SQLite's one write lock
    answers: list[object] = []

    def poll() -> None:
        with world.app.app_context():
            answers.append(tasks.pick_task(runner))

    polling = threading.Thread(target=poll)
    polling.start()
    polling.join(5)
    waited = polling.is_alive()
    writer.execute("ROLLBACK")
    polling.join()
    writer.close()
    assert not waited, "the poll waited for the write lock although no job was waiting"
    assert answers == [None]
