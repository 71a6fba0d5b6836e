"""Workflows over REST (list, get, disable, enable, dispatch) and runs with needs between jobs."""

from __future__ import annotations

from typing import Any

import pytest
from forge_proto import runner_pb2
from google.protobuf import json_format
from test_server_actions_support import SIMPLE_WORKFLOW, World, world

from reference_server.gitcli import Git

__all__ = ["world"]

DEPLOY = """\
name: Deploy
on:
  workflow_dispatch:
    inputs:
      target:
        default: staging
      dry_run:
        type: boolean
        default: true
      note:
        required: false
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: echo deploying
"""

NEEDS = """\
name: pipeline
on: push
jobs:
  compile:
    runs-on: ubuntu-latest
    steps: [{run: make}]
  package:
    needs: compile
    runs-on: ubuntu-latest
    steps: [{run: pack}]
  report:
    needs: [compile]
    if: ${{ always() }}
    runs-on: ubuntu-latest
    steps: [{run: report}]
  publish:
    needs: package
    runs-on: ubuntu-latest
    steps: [{run: publish}]
"""


def _deploy(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/deploy.yml", DEPLOY)


def _dispatch(world: World, workflow: str, body: Any = None, **kwargs: Any) -> Any:
    return world.api("POST", f"repos/alice/app/actions/workflows/{workflow}/dispatches", "alice", json=body, **kwargs)


def test_workflows_are_listed_from_both_folders_and_gitea_wins(world: World) -> None:
    world.repo("alice", "app")
    assert world.api("GET", "repos/alice/app/actions/workflows", "alice").get_json() == {
        "workflows": [],
        "total_count": 0,
    }
    world.push("alice", "app", ".github/workflows/ci.yml", SIMPLE_WORKFLOW.replace("CI", "From GitHub"))
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW.replace("CI", "From Gitea"))
    world.push("alice", "app", ".github/workflows/lint.yaml", "on: push\njobs:\n  l:\n    runs-on: x\n")
    world.push("alice", "app", ".gitea/workflows/broken.yml", "jobs: [not, a, map")
    world.push("alice", "app", ".gitea/workflows/README.md", "not a workflow")
    body = world.api("GET", "repos/alice/app/actions/workflows", "alice").get_json()
    assert body["total_count"] == 3
    by_id = {item["id"]: item for item in body["workflows"]}
    assert set(by_id) == {"ci.yml", "lint.yaml", "broken.yml"}
    assert (by_id["ci.yml"]["name"], by_id["ci.yml"]["path"]) == ("From Gitea", ".gitea/workflows/ci.yml")
    assert (by_id["lint.yaml"]["name"], by_id["lint.yaml"]["path"]) == ("lint.yaml", ".github/workflows/lint.yaml")
    assert by_id["broken.yml"]["name"] == "broken.yml"
    item = by_id["ci.yml"]
    assert (
        item["state"] == "active" and item["url"] == "http://forge.test/api/v1/repos/alice/app/actions/workflows/ci.yml"
    )
    assert item["html_url"] == "http://forge.test/alice/app/src/branch/main/.gitea/workflows/ci.yml"
    assert item["badge_url"].endswith("/alice/app/actions/workflows/ci.yml/badge.svg?branch=main")
    assert item["created_at"].endswith("+00:00") and item["deleted_at"] == "0001-01-01T00:00:00Z"
    one = world.api("GET", "repos/alice/app/actions/workflows/ci.yml", "alice")
    assert one.status_code == 200 and one.get_json() == item
    assert world.api("GET", "repos/alice/app/actions/workflows/missing.yml", "alice").status_code == 404


def test_disable_enable_and_their_effect_on_push_and_dispatch(world: World) -> None:
    _deploy(world)
    assert world.api("PUT", "repos/alice/app/actions/workflows/deploy.yml/disable", "alice").status_code == 204
    state = world.api("GET", "repos/alice/app/actions/workflows/deploy.yml", "alice").get_json()["state"]
    assert state == "disabled_manually"
    refused = _dispatch(world, "deploy.yml", {"ref": "main"})
    assert refused.status_code == 403
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    assert world.api("PUT", "repos/alice/app/actions/workflows/ci.yml/disable", "alice").status_code == 204
    world.push("alice", "app", "README.md", "changed", message="Touch readme")
    assert [run["path"] for run in world.runs("alice", "app")] == ["ci.yml@refs/heads/main"]
    assert world.api("PUT", "repos/alice/app/actions/workflows/deploy.yml/enable", "alice").status_code == 204
    assert _dispatch(world, "deploy.yml", {"ref": "main"}).status_code == 204
    assert world.api("PUT", "repos/alice/app/actions/workflows/nope.yml/enable", "alice").status_code == 404
    world.user("bob")
    assert world.api("PUT", "repos/alice/app/actions/workflows/deploy.yml/disable", "bob").status_code == 403


def test_dispatch_with_inputs_and_run_details(world: World) -> None:
    _deploy(world)
    response = _dispatch(
        world,
        "deploy.yml",
        {"ref": "main", "inputs": {"target": "production", "undeclared": "ignored"}},
        query_string={"return_run_details": "true"},
    )
    assert response.status_code == 200
    details = response.get_json()
    run_id = details["workflow_run_id"]
    assert details == {
        "workflow_run_id": run_id,
        "run_url": f"http://forge.test/api/v1/repos/alice/app/actions/runs/{run_id}",
        "html_url": f"http://forge.test/alice/app/actions/runs/{run_id}",
    }
    run = world.api("GET", f"repos/alice/app/actions/runs/{run_id}", "alice").get_json()
    assert (run["event"], run["display_title"], run["status"]) == ("workflow_dispatch", "Deploy", "queued")
    assert run["path"] == "deploy.yml@refs/heads/main"
    runner = world.register("alice", "app", ["ubuntu-latest"])
    context = json_format.MessageToDict(world.fetch(runner).task.context)
    assert context["event_name"] == "workflow_dispatch"
    assert context["inputs"] == {"target": "production", "dry_run": "true", "note": ""}
    assert context["event"]["inputs"] == context["inputs"]


def test_dispatch_by_form_on_branches_and_tags(world: World) -> None:
    _deploy(world)
    world.push("alice", "app", ".gitea/workflows/deploy.yml", DEPLOY.replace("Deploy", "Deploy dev"), new_branch="dev")
    form = world.api(
        "POST",
        "repos/alice/app/actions/workflows/deploy.yml/dispatches",
        "alice",
        data={"ref": "refs/heads/dev", "inputs[target]": "qa"},
    )
    assert form.status_code == 204
    [run] = world.runs("alice", "app", event="workflow_dispatch")
    assert run["path"] == "deploy.yml@refs/heads/dev" and run["display_title"] == "Deploy dev"
    with world.app.app_context():
        from reference_server.repos.models import get_repo

        git = Git(get_repo("alice", "app").git_path)
        git.update_ref("refs/tags/v1.0", git.rev_parse("refs/heads/main") or "", "0" * 40)
    tagged = _dispatch(world, "deploy.yml", {"ref": "v1.0"}, query_string={"return_run_details": "true"})
    assert tagged.status_code == 200
    run = world.api("GET", tagged.get_json()["run_url"].split("/api/v1/")[1], "alice").get_json()
    assert run["path"] == "deploy.yml@refs/tags/v1.0" and "head_branch" not in run


@pytest.mark.parametrize(
    ("workflow", "body", "status"),
    [
        ("deploy.yml", {}, 422),
        ("deploy.yml", {"ref": ""}, 422),
        ("deploy.yml", {"ref": 5}, 422),
        ("deploy.yml", {"ref": "main", "inputs": ["x"]}, 422),
        ("deploy.yml", {"ref": "main", "inputs": {"target": {"nested": 1}}}, 422),
        ("deploy.yml", {"ref": "nope"}, 404),
        ("deploy.yml", {"ref": "refs/pull/1/head"}, 404),
        ("missing.yml", {"ref": "main"}, 404),
        ("ci.yml", {"ref": "main"}, 422),
    ],
)
def test_dispatch_refusals_create_no_run(world: World, workflow: str, body: dict[str, Any], status: int) -> None:
    _deploy(world)
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    before = len(world.runs("alice", "app"))
    response = _dispatch(world, workflow, body)
    assert response.status_code == status, response.get_json()
    assert "message" in response.get_json()
    assert len(world.runs("alice", "app")) == before


def test_dispatch_needs_write_access(world: World) -> None:
    _deploy(world)
    world.user("bob")
    response = world.api("POST", "repos/alice/app/actions/workflows/deploy.yml/dispatches", "bob", json={"ref": "main"})
    assert response.status_code == 403
    assert (
        world.api("POST", "repos/alice/app/actions/workflows/deploy.yml/dispatches", json={"ref": "main"}).status_code
        == 401
    )


def _status_by_name(world: World, run_id: int) -> dict[str, str]:
    return {job["name"]: job.get("conclusion") or job["status"] for job in world.jobs("alice", "app", run_id)}


def test_needs_wait_for_success_and_skip_on_failure_unless_always(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/pipeline.yml", NEEDS)
    run_id = world.runs("alice", "app")[0]["id"]
    assert _status_by_name(world, run_id) == {
        "compile": "queued",
        "package": "waiting",
        "report": "waiting",
        "publish": "waiting",
    }
    runner = world.register("alice", "app", ["ubuntu-latest"])
    first = world.fetch(runner)
    assert json_format.MessageToDict(first.task.context)["job"] == "compile"
    assert "needs" not in first.task.workflow_payload.decode()
    assert not world.fetch(runner, first.tasks_version).HasField("task")  # the others are blocked
    world.finish(runner, first.task.id, runner_pb2.RESULT_FAILURE)
    statuses = _status_by_name(world, run_id)
    assert statuses == {"compile": "failure", "package": "skipped", "report": "queued", "publish": "skipped"}
    report = world.fetch(runner, first.tasks_version)
    assert report.HasField("task") and report.task.needs["compile"].result == runner_pb2.RESULT_FAILURE
    world.finish(runner, report.task.id, runner_pb2.RESULT_SUCCESS)
    run = world.api("GET", f"repos/alice/app/actions/runs/{run_id}", "alice").get_json()
    assert (run["status"], run["conclusion"]) == ("completed", "failure")


def test_needs_pass_outputs_and_release_dependants_in_order(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/pipeline.yml", NEEDS)
    run_id = world.runs("alice", "app")[0]["id"]
    runner = world.register("alice", "app", ["ubuntu-latest"])
    compile_task = world.fetch(runner).task
    outputs = runner_pb2.UpdateTaskRequest(state=runner_pb2.TaskState(id=compile_task.id), outputs={"version": "1.2"})
    world.reply(world.call("UpdateTask", outputs, runner=runner), runner_pb2.UpdateTaskResponse)
    world.finish(runner, compile_task.id, runner_pb2.RESULT_SUCCESS)
    taken = []
    for _ in range(3):
        task = world.fetch(runner).task
        job = json_format.MessageToDict(task.context)["job"]
        taken.append(job)
        if job in ("package", "report"):
            need = task.needs["compile"]
            assert need.result == runner_pb2.RESULT_SUCCESS and dict(need.outputs) == {"version": "1.2"}
        world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)
    assert taken == ["package", "report", "publish"]
    run = world.api("GET", f"repos/alice/app/actions/runs/{run_id}", "alice").get_json()
    assert (run["status"], run["conclusion"]) == ("completed", "success")
