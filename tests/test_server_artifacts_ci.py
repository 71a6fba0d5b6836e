"""Artifacts with a real job: push a workflow, a runner takes the task, its runtime token uploads.

The other artifact tests fake the actions family's task and run lookups; this one goes through the
real runner protocol, so the token, the task state and the run's head commit are the actions family's.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_actions_support import SIMPLE_WORKFLOW, RunnerIdentity, World
from test_server_artifacts_support import FakeTask, Job, app_context, path_of, twirp_error

RESULT_SUCCESS = 1

__all__ = ["app_context"]


@pytest.fixture
def world(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> World:
    """Accounts, repositories and runner calls through the actions tests' helper (real families)."""
    return World(app, client, admin_headers)


@pytest.fixture
def running(world: World, app: Flask) -> tuple[Job, RunnerIdentity, dict[str, Any]]:
    """A job of a pushed workflow, taken by a registered runner: its artifact client, runner and repository."""
    repo = world.repo("alice", "ci")
    world.push("alice", "ci", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "ci", ["ubuntu-latest"])
    task = world.fetch(runner).task
    assert task.id > 0
    token = task.context.fields["gitea_runtime_token"].string_value
    forge = app.extensions["forge"]
    claims = forge.signer.decode_runtime_token(token, now=forge.now())
    assert claims is not None and claims["TaskID"] == task.id
    holder = FakeTask(id=task.id, job_id=claims["JobID"], run_id=claims["RunID"], repo_id=repo["id"])
    return Job(world.client, token, holder), runner, repo


def test_a_running_job_uploads_lists_and_downloads(
    running: tuple[Job, RunnerIdentity, dict[str, Any]], world: World
) -> None:
    job, _, repo = running
    artifact_id = job.upload("build", b"built by a real job", block_size=7, mime_type="text/plain")
    assert [int(item["databaseId"]) for item in job.listed()] == [artifact_id]
    assert job.client.get(path_of(job.signed_url("build"))).data == b"built by a real job"
    [run] = world.runs("alice", "ci")
    assert run["id"] == job.task.run_id
    listed = world.api("GET", f"repos/alice/ci/actions/runs/{run['id']}/artifacts", "alice").get_json()
    assert listed["total_count"] == 1
    assert listed["artifacts"][0]["workflow_run"] == {
        "id": run["id"],
        "repository_id": repo["id"],
        "head_sha": run["head_sha"],
    }


def test_the_token_stops_working_when_the_task_finishes_but_signed_urls_do_not(
    running: tuple[Job, RunnerIdentity, dict[str, Any]], world: World
) -> None:
    job, runner, _ = running
    job.upload("report", b"kept after the job", mime_type="text/plain")
    download = job.signed_url("report")
    world.finish(runner, job.task.id, RESULT_SUCCESS)
    msg = twirp_error(job.call("ListArtifacts"), 401, "unauthenticated")
    assert "not running" in msg
    assert job.client.get(path_of(download)).data == b"kept after the job"
    listed = world.api("GET", "repos/alice/ci/actions/artifacts", "alice").get_json()
    assert [item["name"] for item in listed["artifacts"]] == ["report"]
