"""Workflow dispatch refusals: Gitea 1.27's order of checks, statuses and messages; no run is created."""

from __future__ import annotations

from typing import Any

import pytest
from test_server_actions_support import World, world

__all__ = ["world"]

DEPLOY = """\
name: Deploy
on: workflow_dispatch
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: echo deploying
"""

TRIAGE = """\
on: issues
jobs:
  triage:
    runs-on: ubuntu-latest
    steps:
      - run: echo triage
"""


def _setup(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/deploy.yml", DEPLOY)
    world.push("alice", "app", ".gitea/workflows/triage.yml", TRIAGE)


def _dispatch(world: World, workflow: str, body: Any) -> Any:
    return world.api("POST", f"repos/alice/app/actions/workflows/{workflow}/dispatches", "alice", json=body)


@pytest.mark.parametrize(
    ("workflow", "ref", "status", "message"),
    [
        ("deploy.yml", "no-such-branch", 404, 'ref "no-such-branch" doesn\'t exist'),
        ("deploy.yml", "refs/tags/v9", 404, 'ref "refs/tags/v9" doesn\'t exist'),
        ("deploy.yml", "refs/pull/1/head", 404, 'ref "refs/pull/1/head" doesn\'t exist'),
        ("deploy.yml", "-x", 404, 'ref "-x" doesn\'t exist'),
        ("missing.yml", "main", 404, 'workflow "missing.yml" doesn\'t exist'),
        ("triage.yml", "main", 422, 'workflow "triage.yml" has no workflow_dispatch event trigger'),
    ],
)
def test_refusals_carry_gitea_messages(world: World, workflow: str, ref: str, status: int, message: str) -> None:
    _setup(world)
    response = _dispatch(world, workflow, {"ref": ref})
    assert (response.status_code, response.get_json()["message"]) == (status, message)
    assert world.runs("alice", "app") == []


def test_disabled_workflow_is_refused_before_the_ref_is_looked_up(world: World) -> None:
    _setup(world)
    assert world.api("PUT", "repos/alice/app/actions/workflows/deploy.yml/disable", "alice").status_code == 204
    response = _dispatch(world, "deploy.yml", {"ref": "no-such-branch"})
    assert (response.status_code, response.get_json()["message"]) == (403, "workflow is disabled")
    assert world.runs("alice", "app") == []


def test_missing_ref_is_refused_before_anything_else(world: World) -> None:
    _setup(world)
    assert world.api("PUT", "repos/alice/app/actions/workflows/deploy.yml/disable", "alice").status_code == 204
    response = _dispatch(world, "missing.yml", {})
    assert (response.status_code, response.get_json()["message"]) == (422, "[Ref]: Required")
    assert world.runs("alice", "app") == []
