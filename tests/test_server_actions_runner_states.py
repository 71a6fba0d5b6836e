"""Runner transitions (disable, enable, busy) and ``on: workflow_run`` chains, through the runner protocol."""

from __future__ import annotations

from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, World, world

from reference_server.actions.models import Run
from reference_server.actions.workflow import parse_workflow
from reference_server.actions.workflow_run import triggered_by

__all__ = ["world"]

FOLLOW_UP = """\
name: Report
on:
  workflow_run:
    workflows: [CI]
    types: [completed]
jobs:
  report:
    runs-on: ubuntu-latest
    steps:
      - run: echo report
"""


def _runner_path(runner_id: int) -> str:
    return f"repos/alice/app/actions/runners/{runner_id}"


def _set_disabled(w: World, runner_id: int, disabled: bool) -> dict[str, object]:
    response = w.api("PATCH", _runner_path(runner_id), "alice", json={"disabled": disabled})
    assert response.status_code == 200, response.get_data(as_text=True)
    body: dict[str, object] = response.get_json()
    return body


def test_disabled_runner_gets_no_task_finishes_its_own_and_takes_the_waiting_job_once_enabled(world: World) -> None:
    world.repo("alice", "app")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    running = world.fetch(runner).task
    assert running.id
    assert _set_disabled(world, runner.id, True)["disabled"] is True
    world.push("alice", "app", ".gitea/workflows/other.yml", SIMPLE_WORKFLOW.replace("CI", "Other"))
    assert not world.fetch(runner).HasField("task")
    world.finish(runner, running.id, runner_pb2.RESULT_SUCCESS)
    assert not world.fetch(runner).HasField("task")
    view = world.api("GET", _runner_path(runner.id), "alice").get_json()
    assert (view["status"], view["disabled"]) == ("online", True)
    _set_disabled(world, runner.id, False)
    assert world.fetch(runner).task.id not in (0, running.id)


def test_busy_only_after_reporting_work(world: World) -> None:
    world.repo("alice", "app")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    world.fetch(runner)
    assert world.api("GET", _runner_path(runner.id), "alice").get_json()["busy"] is False
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    task = world.fetch(runner).task
    world.log(runner, task.id, 0, ["working"])
    assert world.api("GET", _runner_path(runner.id), "alice").get_json()["busy"] is True


def test_patch_without_disabled_changes_nothing(world: World) -> None:
    world.repo("alice", "app")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    response = world.api("PATCH", _runner_path(runner.id), "alice", json={"name": "x"})
    assert response.status_code == 422
    assert world.api("GET", _runner_path(runner.id), "alice").get_json()["disabled"] is False


def _run(name: str, workflow_id: str = "ci.yml", ref: str = "refs/heads/main") -> Run:
    fields: dict[str, object] = dict.fromkeys(Run.__dataclass_fields__, 0)
    fields.update(name=name, workflow_id=workflow_id, ref=ref, event="push", event_payload={}, inputs={})
    fields.update(workflow_path=f".gitea/workflows/{workflow_id}", display_title="", head_sha="")
    return Run(**fields)  # type: ignore[arg-type]


def test_workflow_run_filters() -> None:
    def follower(on: str) -> bool:
        text = f"on: {on}\njobs:\n  j:\n    runs-on: x\n"
        workflow = parse_workflow("f.yml", ".gitea/workflows/f.yml", text.encode())
        return triggered_by(workflow, _run("CI"))

    assert follower("{workflow_run: {workflows: [CI], types: [completed]}}")
    assert follower("{workflow_run: {workflows: [ci.yml]}}")
    assert follower("{workflow_run: {workflows: CI, branches: [main]}}")
    assert not follower("{workflow_run: {workflows: [CI], types: [requested]}}")
    assert not follower("{workflow_run: {workflows: [Other]}}")
    assert not follower("{workflow_run: {workflows: [CI], branches: [release]}}")
    assert not follower("{workflow_run: {workflows: [CI], branches-ignore: ['ma*']}}")
    assert not follower("push")


def test_completed_run_starts_the_workflow_waiting_for_it(world: World) -> None:
    world.repo("alice", "app")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    world.push("alice", "app", ".gitea/workflows/report.yml", FOLLOW_UP)
    assert world.runs("alice", "app") == []
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    task = world.fetch(runner).task
    assert world.runs("alice", "app", event="workflow_run") == []
    world.finish(runner, task.id, runner_pb2.RESULT_FAILURE)
    triggered = world.runs("alice", "app", event="workflow_run")
    assert len(triggered) == 1
    assert triggered[0]["path"] == "report.yml@refs/heads/main"
    follow = world.fetch(runner).task
    event = follow.context.fields["event"].struct_value
    assert event.fields["action"].string_value == "completed"
    assert event.fields["workflow_run"].struct_value.fields["conclusion"].string_value == "failure"


def test_disabled_follower_is_not_started_and_chains_stop(world: World) -> None:
    world.repo("alice", "app")
    runner = world.register("alice", "app", ["ubuntu-latest"])
    loop = FOLLOW_UP.replace("workflows: [CI]", "workflows: [CI, Report]")
    world.push("alice", "app", ".gitea/workflows/report.yml", loop)
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    for _ in range(6):
        fetched = world.fetch(runner)
        if not fetched.HasField("task"):
            break
        world.finish(runner, fetched.task.id, runner_pb2.RESULT_SUCCESS)
    assert len(world.runs("alice", "app", event="workflow_run")) == 3
    response = world.api("PUT", "repos/alice/app/actions/workflows/report.yml/disable", "alice")
    assert response.status_code == 204
    world.push("alice", "app", "notes.txt", "again")
    world.finish(runner, world.fetch(runner).task.id, runner_pb2.RESULT_SUCCESS)
    assert len(world.runs("alice", "app", event="workflow_run")) == 3
