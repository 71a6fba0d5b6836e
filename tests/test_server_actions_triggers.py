"""Workflow parsing, push filters and statuses: the pure rules, plus pushes of branches and tags end to end."""

from __future__ import annotations

import pytest
import yaml
from test_server_actions_support import SIMPLE_WORKFLOW, World, world

from reference_server.actions.status import Status, aggregate, api_status
from reference_server.actions.workflow import Workflow, WorkflowError, parse_workflow, pattern_matches
from reference_server.events import PushEvent
from reference_server.gitcli import Git

__all__ = ["world"]


def _workflow(on: str, jobs: str = "jobs:\n  j:\n    runs-on: x\n") -> Workflow:
    return parse_workflow("w.yml", ".gitea/workflows/w.yml", f"on: {on}\n{jobs}".encode())


@pytest.mark.parametrize(
    ("on", "ref", "files", "expected"),
    [
        ("push", "refs/heads/anything", None, True),
        ("[push, pull_request]", "refs/heads/main", None, True),
        ("{push: null}", "refs/tags/v1", None, True),
        ("workflow_dispatch", "refs/heads/main", None, False),
        ("{push: {branches: [main]}}", "refs/heads/main", None, True),
        ("{push: {branches: [main]}}", "refs/heads/dev", None, False),
        ("{push: {branches: [main]}}", "refs/tags/v1", None, False),
        ("{push: {branches: ['release/*']}}", "refs/heads/release/1.0", None, True),
        ("{push: {branches: ['release/*']}}", "refs/heads/release/1.0/fix", None, False),
        ("{push: {branches: ['release/**']}}", "refs/heads/release/1.0/fix", None, True),
        ("{push: {branches: ['*', '!dev']}}", "refs/heads/dev", None, False),
        ("{push: {branches: ['*', '!dev']}}", "refs/heads/main", None, True),
        ("{push: {branches-ignore: ['wip/**']}}", "refs/heads/wip/a/b", None, False),
        ("{push: {branches-ignore: ['wip/**']}}", "refs/heads/main", None, True),
        ("{push: {tags: ['v*']}}", "refs/tags/v2.0", None, True),
        ("{push: {tags: ['v*']}}", "refs/heads/main", None, False),
        ("{push: {tags-ignore: ['v*']}}", "refs/tags/v2.0", None, False),
        ("{push: {branches: [main], tags: ['v*']}}", "refs/tags/v1", None, True),
        ("{push: {paths: ['src/**']}}", "refs/heads/main", ["src/a/b.py"], True),
        ("{push: {paths: ['src/**']}}", "refs/heads/main", ["docs/x.md"], False),
        ("{push: {paths: ['src/**']}}", "refs/heads/main", None, True),
        ("{push: {paths: ['src/**']}}", "refs/tags/v1", ["docs/x.md"], True),
        ("{push: {paths-ignore: ['docs/**']}}", "refs/heads/main", ["docs/x.md"], False),
        ("{push: {paths-ignore: ['docs/**']}}", "refs/heads/main", ["docs/x.md", "src/y"], True),
        ("{push: {paths: ['**.py', '!tests/**']}}", "refs/heads/main", ["tests/t.py"], False),
        ("{push: {branches: [main], paths: ['*.md']}}", "refs/heads/main", ["README.md"], True),
    ],
)
def test_push_filters(on: str, ref: str, files: list[str] | None, expected: bool) -> None:
    asked: list[bool] = []

    def changed() -> list[str] | None:
        asked.append(True)
        return files

    assert _workflow(on).matches_push(ref, changed) is expected
    if "paths" not in on:
        assert not asked  # the change set is computed only for path filters


@pytest.mark.parametrize(
    ("pattern", "value", "expected"),
    [
        ("main", "main", True),
        ("main", "main2", False),
        ("feature/*", "feature/x", True),
        ("feature/*", "feature/x/y", False),
        ("**", "a/b/c", True),
        ("v[12].*", "v1.0", True),
        ("v[12].*", "v3.0", False),
        ("v1+", "v111", True),
        ("ab?c", "ac", True),
        ("a.b", "axb", False),
    ],
)
def test_filter_patterns(pattern: str, value: str, expected: bool) -> None:
    assert pattern_matches(pattern, value) is expected


def test_parse_names_jobs_steps_labels_and_payloads() -> None:
    source = b"""\
on: push
env: {A: "1"}
jobs:
  build:
    name: Build it
    runs-on: [linux, x64]
    steps:
      - name: Named
        run: echo 1
      - uses: actions/checkout@v4
      - run: |
          echo multi
      - id: only-id
  test:
    needs: build
    if: always()
    runs-on: {labels: gpu}
"""
    workflow = parse_workflow("ci.yml", ".github/workflows/ci.yml", source)
    assert workflow.name == "ci.yml" and not workflow.dispatchable
    build, test = workflow.jobs
    assert (build.key, build.name, build.runs_on, build.needs) == ("build", "Build it", ("linux", "x64"), ())
    assert build.steps == ("Named", "actions/checkout@v4", "echo multi", "only-id")
    assert (test.name, test.runs_on, test.needs, test.condition) == ("test", ("gpu",), ("build",), "always()")
    payload = yaml.safe_load(test.payload)
    assert list(payload["jobs"]) == ["test"] and "needs" not in payload["jobs"]["test"]
    assert payload["env"] == {"A": "1"} and payload.get("on", payload.get(True)) == "push"


@pytest.mark.parametrize(
    "source",
    [
        b"",
        b"- a list",
        b"on: push\n",
        b"on: push\njobs: {}\n",
        b"on: push\njobs:\n  a: 3\n",
        b"on: push\njobs:\n  a:\n    needs: ghost\n",
        b"on: push\njobs:\n  a:\n    needs: b\n  b:\n    needs: a\n",
        b"on: [push\n",
        b"\xff\xfe",
    ],
)
def test_unusable_workflows_are_rejected(source: bytes) -> None:
    with pytest.raises(WorkflowError):
        parse_workflow("w.yml", ".gitea/workflows/w.yml", source)


def test_run_status_aggregation_and_rest_spelling() -> None:
    assert aggregate([Status.SKIPPED, Status.SKIPPED]) == Status.SKIPPED
    assert aggregate([Status.SUCCESS, Status.SKIPPED]) == Status.SUCCESS
    assert aggregate([Status.FAILURE, Status.CANCELLED]) == Status.CANCELLED
    assert aggregate([Status.FAILURE, Status.RUNNING]) == Status.RUNNING
    assert aggregate([Status.SUCCESS, Status.WAITING, Status.BLOCKED]) == Status.WAITING
    assert aggregate([Status.FAILURE, Status.BLOCKED]) == Status.FAILURE
    assert aggregate([Status.SUCCESS, Status.BLOCKED]) == Status.BLOCKED
    assert api_status(Status.WAITING) == ("queued", None)
    assert api_status(Status.BLOCKED) == ("waiting", None)
    assert api_status(Status.RUNNING) == ("in_progress", None)
    assert api_status(Status.FAILURE) == ("completed", "failure")


def test_push_to_a_filtered_branch_and_of_a_tag(world: World) -> None:
    world.repo("alice", "app")
    only_main = SIMPLE_WORKFLOW.replace("on: push", "on:\n  push:\n    branches: [main]\n    tags: ['v*']")
    world.push("alice", "app", ".gitea/workflows/ci.yml", only_main)
    assert len(world.runs("alice", "app")) == 1
    world.push("alice", "app", "notes.txt", "x", new_branch="feature", message="Feature work")
    assert len(world.runs("alice", "app")) == 1
    with world.app.app_context():
        from reference_server.repos.models import get_repo

        repo = get_repo("alice", "app")
        git = Git(repo.git_path)
        sha = git.rev_parse("refs/heads/main") or ""
        git.update_ref("refs/tags/v1.0", sha, "0" * 40)
        events = world.app.extensions["forge"].events
        alice_id = world.api("GET", "user", "alice").get_json()["id"]
        events.publish(PushEvent(repo.id, "refs/tags/v1.0", "0" * 40, sha, alice_id))
        events.publish(PushEvent(repo.id, "refs/tags/v1.0", sha, "0" * 40, alice_id))  # a deletion: no run
        who = {"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.test"}
        git.run("tag", "-a", "v2.0", "-m", "release", sha, env=who)
        tag_object = git.run("rev-parse", "refs/tags/v2.0").stdout.decode().strip()
        assert tag_object != sha
        events.publish(PushEvent(repo.id, "refs/tags/v2.0", "0" * 40, tag_object, alice_id))
    runs = world.runs("alice", "app")
    assert len(runs) == 3 and runs[1]["path"] == "ci.yml@refs/tags/v1.0" and "head_branch" not in runs[1]
    assert runs[1]["display_title"] == "Add workflow"
    assert runs[0]["path"] == "ci.yml@refs/tags/v2.0" and runs[0]["head_sha"] == sha  # the tag's commit


def test_a_push_with_an_invalid_workflow_still_succeeds_and_starts_nothing(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/bad.yml", "on: push\njobs:\n  a:\n    needs: ghost\n")
    assert world.runs("alice", "app") == []
    world.push(
        "alice",
        "app",
        ".gitea/workflows/paths.yml",
        SIMPLE_WORKFLOW.replace("on: push", "on:\n  push:\n    paths: ['src/**']"),
    )
    assert world.runs("alice", "app") == []  # the push changed only the workflow file itself
    world.push("alice", "app", "src/main.py", "print(1)\n", message="Code")
    [run] = world.runs("alice", "app")
    assert run["path"] == "paths.yml@refs/heads/main" and run["display_title"] == "Code"


def test_a_push_made_with_a_job_token_starts_no_run(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest"])
    task = world.fetch(runner).task
    job_token = task.secrets["GITEA_TOKEN"]
    created = world.client.post(
        "/api/v1/repos/alice/app/contents/generated.txt",
        json={"content": "Z2VuZXJhdGVk", "message": "Generated by CI"},
        headers={"Authorization": f"token {job_token}"},
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    assert len(world.runs("alice", "app")) == 1
    world.push("alice", "app", "human.txt", "x", message="By a person")
    assert len(world.runs("alice", "app")) == 2
