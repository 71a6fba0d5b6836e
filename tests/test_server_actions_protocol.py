"""The runner protocol end to end: push → run queued → register → declare → fetch → logs → result."""

from __future__ import annotations

import gzip
import json
import time

from forge_proto import ping_pb2, runner_pb2
from google.protobuf import json_format
from test_server_actions_support import JSON, PROTO, SIMPLE_WORKFLOW, World, connect_error, world

__all__ = ["world"]

SUCCESS, FAILURE = runner_pb2.RESULT_SUCCESS, runner_pb2.RESULT_FAILURE


def test_ping_answers_in_the_callers_codec(world: World) -> None:
    answer = world.reply(world.call("Ping", ping_pb2.PingRequest(data="kit")), ping_pb2.PingResponse)
    assert answer.data == "Hello, kit!"
    as_json = world.call("Ping", ping_pb2.PingRequest(data="json"), codec=JSON)
    assert as_json.mimetype == JSON
    assert json.loads(as_json.get_data(as_text=True)) == {"data": "Hello, json!"}


def test_whole_path_from_push_to_a_successful_run(world: World) -> None:
    world.repo("alice", "app")
    sha = world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW, message="Add CI\n\nbody")
    [run] = world.runs("alice", "app")
    assert (run["status"], "conclusion" in run) == ("queued", False)
    assert run["head_sha"] == sha and run["event"] == "push" and run["display_title"] == "Add CI"
    assert run["path"] == "ci.yml@refs/heads/main" and run["head_branch"] == "main" and run["run_number"] == 1

    runner = world.register("alice", "app", ["ubuntu-latest"])
    declared = world.reply(
        world.call("Declare", runner_pb2.DeclareRequest(version="v2", labels=["ubuntu-latest", "x64"]), runner=runner),
        runner_pb2.DeclareResponse,
    )
    assert list(declared.runner.labels) == ["ubuntu-latest", "x64"] and declared.runner.version == "v2"
    assert declared.runner.uuid == runner.uuid and declared.runner.token == runner.token

    fetched = world.fetch(runner)
    task = fetched.task
    assert task.id > 0 and fetched.tasks_version > 0
    payload = task.workflow_payload.decode()
    assert "build:" in payload and "echo hello" in payload
    context = json_format.MessageToDict(task.context)
    assert context["repository"] == "alice/app" and context["sha"] == sha and context["event_name"] == "push"
    assert context["job"] == "build" and context["workflow"] == "ci.yml" and context["run_number"] == "1"
    assert (
        context["run_id"] == str(run["id"]) and context["ref"] == "refs/heads/main" and context["ref_type"] == "branch"
    )
    assert context["actor"] == "alice" and context["api_url"] == "http://forge.test/api/v1"
    assert context["server_url"] == "http://forge.test/" and context["token"] == task.secrets["GITEA_TOKEN"]
    assert task.secrets["GITHUB_TOKEN"] == task.secrets["GITEA_TOKEN"] and len(context["token"]) == 40
    with world.app.app_context():
        claims = world.app.extensions["forge"].signer.decode_runtime_token(
            context["gitea_runtime_token"], now=time.time()
        )
    assert claims is not None and claims["scp"] == f"Actions.Results:{run['id']}:{claims['JobID']}"
    assert claims["TaskID"] == task.id and claims["RunID"] == run["id"]
    assert world.runs("alice", "app")[0]["status"] == "in_progress"

    assert world.log(runner, task.id, 0, ["one", "two"]) == 2
    assert world.log(runner, task.id, 2, ["three"], no_more=True) == 3
    answer = world.finish(runner, task.id, SUCCESS)
    assert answer.state.id == task.id and answer.state.result == SUCCESS

    [done] = world.runs("alice", "app")
    assert (done["status"], done["conclusion"]) == ("completed", "success")
    assert done["started_at"] != "0001-01-01T00:00:00Z" and done["completed_at"].endswith("+00:00")
    [job] = world.jobs("alice", "app", run["id"])
    assert (job["status"], job["conclusion"], job["runner_id"]) == ("completed", "success", runner.id)
    assert [step["name"] for step in job["steps"]] == ["Say hello", "actions/checkout@v4"]
    logs = world.api("GET", f"repos/alice/app/actions/jobs/{job['id']}/logs", "alice")
    assert logs.status_code == 200 and logs.mimetype == "text/plain"
    lines = logs.get_data(as_text=True).splitlines()
    assert [line.split(" ", 1)[1] for line in lines] == ["one", "two", "three"]
    assert lines[0].startswith("2026-09-21T") and lines[0].split(" ")[0].endswith(".0000000Z")


def test_a_failed_task_fails_the_run(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".github/workflows/ci.yaml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task = world.fetch(runner).task
    assert world.finish(runner, task.id, FAILURE).state.result == FAILURE
    [run] = world.runs("alice", "app")
    assert (run["status"], run["conclusion"]) == ("completed", "failure")
    again = world.finish(runner, task.id, SUCCESS)
    assert again.state.result == FAILURE  # an already final task echoes its result
    assert world.runs("alice", "app")[0]["conclusion"] == "failure"


def test_labels_must_all_be_offered_by_the_runner(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW.replace("ubuntu-latest", "[linux, gpu]"))
    linux_only = world.register("alice", "app", ["linux"])
    first = world.fetch(linux_only)
    assert not first.HasField("task")
    both = world.register("alice", "app", ["gpu", "linux", "extra"])
    assert world.fetch(both).task.id > 0


def test_tasks_version_moves_only_when_a_job_becomes_waiting(world: World) -> None:
    world.repo("alice", "app")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    first = world.fetch(runner, 0)
    assert not first.HasField("task") and first.tasks_version >= 1
    same = world.fetch(runner, first.tasks_version)
    assert not same.HasField("task") and same.tasks_version == first.tasks_version
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    moved = world.fetch(runner, first.tasks_version)
    assert moved.HasField("task") and moved.tasks_version > first.tasks_version
    after = world.fetch(runner, moved.tasks_version)
    assert not after.HasField("task") and after.tasks_version == moved.tasks_version


def test_a_runner_only_sees_jobs_of_its_repository(world: World) -> None:
    world.repo("alice", "app")
    world.repo("bob", "other")
    world.push("bob", "other", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    alice_runner = world.register("alice", "app", ["ubuntu-latest"])
    assert not world.fetch(alice_runner).HasField("task")
    bob_runner = world.register("bob", "other", ["ubuntu-latest"])
    assert world.fetch(bob_runner).HasField("task")


def test_json_codec_and_gzip_both_ways(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    body = gzip.compress(json.dumps({"tasksVersion": "0", "futureField": 1}).encode())
    response = world.client.post(
        "/api/actions/runner.v1.RunnerService/FetchTask",
        data=body,
        headers={**runner.headers, "Content-Type": JSON, "Content-Encoding": "gzip", "Accept-Encoding": "gzip"},
    )
    assert response.status_code == 200 and response.mimetype == JSON
    assert response.headers["Content-Encoding"] == "gzip"  # a task with its context is well over 1 KiB
    answer = json.loads(gzip.decompress(response.get_data()))
    assert int(answer["task"]["id"]) > 0 and "workflowPayload" in answer["task"]
    assert answer["task"]["context"]["repository"] == "alice/app"


def test_ping_small_answers_are_not_compressed(world: World) -> None:
    response = world.call("Ping", ping_pb2.PingRequest(data="x"), headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and "Content-Encoding" not in response.headers
    assert response.mimetype == PROTO


def test_update_log_acknowledges_by_index(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task_id = world.fetch(runner).task.id
    assert world.log(runner, task_id, 0, ["a", "b"]) == 2
    assert world.log(runner, task_id, 0, ["a", "b"]) == 2  # duplicates: nothing stored
    assert world.log(runner, task_id, 5, ["gap"]) == 2  # a gap: nothing stored
    assert world.log(runner, task_id, 1, ["b", "c", "d"]) == 4  # overlap: only the new rows
    assert world.log(runner, task_id, 4, []) == 4
    assert world.log(runner, task_id, 4, ["e\nsame line"], no_more=True) == 5
    refused = world.call(
        "UpdateLog",
        runner_pb2.UpdateLogRequest(task_id=task_id, index=5, rows=[runner_pb2.LogRow(content="late")]),
        runner=runner,
    )
    assert connect_error(refused)[:2] == (409, "already_exists")
    assert world.log(runner, task_id, 3, ["d", "e\nsame line"]) == 5  # a retried last call is still acknowledged
    job_id = world.jobs("alice", "app", world.runs("alice", "app")[0]["id"])[0]["id"]
    text = world.api("GET", f"repos/alice/app/actions/jobs/{job_id}/logs", "alice").get_data(as_text=True)
    assert [line.split(" ", 1)[1] for line in text.splitlines()] == ["a", "b", "c", "d", "e\\nsame line"]


def test_update_task_outputs_steps_and_heartbeat(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task_id = world.fetch(runner).task.id
    state = runner_pb2.TaskState(id=task_id)
    first = world.reply(
        world.call("UpdateTask", runner_pb2.UpdateTaskRequest(state=state, outputs={"b": "2"}), runner=runner),
        runner_pb2.UpdateTaskResponse,
    )
    assert first.state.result == runner_pb2.RESULT_UNSPECIFIED and list(first.sent_outputs) == ["b"]
    step = runner_pb2.StepState(id=0, result=SUCCESS, log_index=0, log_length=2)
    step.started_at.FromSeconds(1_790_000_000)
    step.stopped_at.FromSeconds(1_790_000_005)
    running = runner_pb2.StepState(id=1, log_index=2, log_length=1)
    running.started_at.FromSeconds(1_790_000_005)
    state = runner_pb2.TaskState(id=task_id, steps=[step, running])
    second = world.reply(
        world.call(
            "UpdateTask", runner_pb2.UpdateTaskRequest(state=state, outputs={"a": "1", "b": "changed"}), runner=runner
        ),
        runner_pb2.UpdateTaskResponse,
    )
    assert list(second.sent_outputs) == ["a", "b"]
    [run] = world.runs("alice", "app")
    assert run["status"] == "in_progress"
    [job] = world.jobs("alice", "app", run["id"])
    assert [(s["status"], s.get("conclusion")) for s in job["steps"]] == [
        ("completed", "success"),
        ("in_progress", None),
    ]
    assert job["steps"][0]["started_at"] == "2026-09-21T14:13:20+00:00"
