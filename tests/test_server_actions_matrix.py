"""Matrix strategies: combinations, include/exclude, names, labels, payloads, and needs on a matrix job."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from forge_proto import runner_pb2
from google.protobuf import json_format
from test_server_actions_support import World, world

from reference_server.actions.matrix import MAX_COMBINATIONS, MatrixError, expand_matrix
from reference_server.actions.workflow import WorkflowError, parse_workflow

__all__ = ["world"]

MATRIX = """\
on: push
jobs:
  test:
    name: Test
    strategy:
      fail-fast: false
      matrix:
        os: [linux, mac]
        py: ["3.11", "3.12"]
        exclude:
          - {os: mac, py: "3.11"}
        include:
          - {os: linux, py: "3.12", extra: coverage}
          - {os: windows, py: "3.12"}
    runs-on: ${{ matrix.os }}
    steps: [{run: "pytest"}]
  report:
    needs: test
    runs-on: linux
    steps: [{run: "report"}]
"""


def test_combinations_with_exclude_and_include() -> None:
    combinations = expand_matrix(yaml.safe_load(MATRIX)["jobs"]["test"]["strategy"]["matrix"])
    assert combinations == [
        {"os": "linux", "py": "3.11"},
        {"os": "linux", "py": "3.12", "extra": "coverage"},
        {"os": "mac", "py": "3.12"},
        {"os": "windows", "py": "3.12"},
    ]
    assert expand_matrix(None) == []
    assert expand_matrix({"include": [{"a": 1}, {"a": 2}]}) == [{"a": 1}, {"a": 2}]
    assert expand_matrix({"v": 7}) == [{"v": 7}]


@pytest.mark.parametrize(
    "matrix",
    [
        ["not", "a", "mapping"],
        {"os": []},
        {"include": "x"},
        {"exclude": [1]},
        {"a": list(range(17)), "b": list(range(16))},
        {"a": list(range(100)), "b": list(range(100)), "c": list(range(100))},
    ],
)
def test_unusable_matrices(matrix: Any) -> None:
    with pytest.raises(MatrixError):
        expand_matrix(matrix)
    source = yaml.safe_dump({"on": "push", "jobs": {"j": {"runs-on": "x", "strategy": {"matrix": matrix}}}})
    with pytest.raises(WorkflowError):
        parse_workflow("m.yml", ".gitea/workflows/m.yml", source.encode())


def test_the_limit_counts_jobs_after_exclusions() -> None:
    exactly = {"a": list(range(MAX_COMBINATIONS))}
    assert len(expand_matrix(exactly)) == MAX_COMBINATIONS


def test_each_combination_becomes_a_job_with_its_own_payload() -> None:
    workflow = parse_workflow("m.yml", ".gitea/workflows/m.yml", MATRIX.encode())
    tests = [job for job in workflow.jobs if job.key == "test"]
    assert [job.name for job in tests] == [
        "Test (linux, 3.11)",
        "Test (coverage, linux, 3.12)",
        "Test (mac, 3.12)",
        "Test (windows, 3.12)",
    ]
    assert [job.runs_on for job in tests] == [("linux",), ("linux",), ("mac",), ("windows",)]
    payload = yaml.safe_load(tests[1].payload)["jobs"]["test"]
    assert payload["strategy"] == {
        "fail-fast": False,
        "matrix": {"os": ["linux"], "py": ["3.12"], "extra": ["coverage"]},
    }
    assert payload["runs-on"] == ["linux"]
    named = parse_workflow(
        "n.yml",
        ".gitea/workflows/n.yml",
        b"on: push\njobs:\n  b:\n    name: build on ${{ matrix.os }}\n    strategy: {matrix: {os: [a, b]}}\n",
    )
    assert [job.name for job in named.jobs] == ["build on a", "build on b"]


def _jobs(world: World) -> dict[str, str]:
    run_id = world.runs("alice", "app")[0]["id"]
    return {job["name"]: job.get("conclusion") or job["status"] for job in world.jobs("alice", "app", run_id)}


def test_a_job_needing_a_matrix_waits_for_every_combination(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/m.yml", MATRIX)
    assert _jobs(world) == {
        "Test (linux, 3.11)": "queued",
        "Test (coverage, linux, 3.12)": "queued",
        "Test (mac, 3.12)": "queued",
        "Test (windows, 3.12)": "queued",
        "report": "waiting",
    }
    linux = world.register("alice", "app", ["linux"])
    everywhere = world.register("alice", "app", ["linux", "mac", "windows"])
    first = world.fetch(linux).task
    second = world.fetch(linux).task
    assert not world.fetch(linux).HasField("task")  # the rest need mac or windows
    for task, key in ((first, "a"), (second, "b")):
        request = runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=task.id), outputs={key: "1", "k": key})
        world.reply(world.call("UpdateTask", request, runner=linux), runner_pb2.UpdateTaskResponse)
        world.finish(linux, task.id, runner_pb2.RESULT_SUCCESS)
    mac = world.fetch(everywhere).task
    world.finish(everywhere, mac.id, runner_pb2.RESULT_SUCCESS)
    assert _jobs(world)["report"] == "waiting"  # windows is still queued
    windows = world.fetch(everywhere).task
    world.finish(everywhere, windows.id, runner_pb2.RESULT_SUCCESS)
    report = world.fetch(linux).task
    assert json_format.MessageToDict(report.context)["job"] == "report"
    need = report.needs["test"]
    assert need.result == runner_pb2.RESULT_SUCCESS and dict(need.outputs) == {"a": "1", "b": "1", "k": "a"}


def test_one_failed_combination_skips_the_dependant(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/m.yml", MATRIX)
    runner = world.register("alice", "app", ["linux", "mac", "windows"])
    results = [
        runner_pb2.RESULT_SUCCESS,
        runner_pb2.RESULT_FAILURE,
        runner_pb2.RESULT_SUCCESS,
        runner_pb2.RESULT_SUCCESS,
    ]
    for result in results:
        world.finish(runner, world.fetch(runner).task.id, result)
    jobs = _jobs(world)
    assert jobs["report"] == "skipped" and jobs["Test (coverage, linux, 3.12)"] == "failure"
    assert world.runs("alice", "app")[0]["conclusion"] == "failure"
