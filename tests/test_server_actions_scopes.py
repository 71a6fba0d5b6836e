"""Runners and registration tokens at every scope, and the run and job lists of users, orgs and the instance."""

from __future__ import annotations

from typing import Any

from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, RunnerIdentity, World, connect_error, world

__all__ = ["world"]


def _register_with(world: World, path: str, owner: str | None, labels: list[str]) -> RunnerIdentity:
    headers = world.admin_headers if owner is None else world.user(owner)
    response = world.api("POST", f"{path}/runners/registration-token", headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    request = runner_pb2.RegisterRequest(name="scoped", token=response.get_json()["token"], labels=labels)
    answer = world.reply(world.call("Register", request), runner_pb2.RegisterResponse)
    return RunnerIdentity(answer.runner.id, answer.runner.uuid, answer.runner.token)


def _org(world: World, owner: str, name: str) -> None:
    created = world.api("POST", "orgs", owner, json={"username": name})
    assert created.status_code == 201, created.get_data(as_text=True)
    repo = world.api("POST", f"orgs/{name}/repos", owner, json={"name": "svc", "auto_init": True})
    assert repo.status_code == 201, repo.get_data(as_text=True)


def test_repository_runners_are_listed_read_disabled_and_deleted(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = world.register("alice", "app", ["ubuntu-latest", "gpu"])
    listing = world.api("GET", "repos/alice/app/actions/runners", "alice")
    assert listing.status_code == 200 and "X-Total-Count" not in listing.headers
    body = listing.get_json()
    assert body["total_count"] == 1
    [entry] = body["runners"]
    assert entry == {
        "id": runner.id,
        "name": entry["name"],
        "status": "online",
        "busy": False,
        "disabled": False,
        "ephemeral": False,
        "labels": [{"id": 0, "name": "ubuntu-latest", "type": "custom"}, {"id": 1, "name": "gpu", "type": "custom"}],
    }
    patched = world.api("PATCH", f"repos/alice/app/actions/runners/{runner.id}", "alice", json={"disabled": True})
    assert patched.status_code == 200 and patched.get_json()["disabled"] is True
    assert not world.fetch(runner).HasField("task")
    disabled_only = world.api("GET", "repos/alice/app/actions/runners", "alice", query_string={"disabled": "true"})
    assert disabled_only.get_json()["total_count"] == 1
    enabled_only = world.api("GET", "repos/alice/app/actions/runners", "alice", query_string={"disabled": "false"})
    assert enabled_only.get_json()["total_count"] == 0
    missing = world.api("PATCH", f"repos/alice/app/actions/runners/{runner.id}", "alice", json={})
    assert missing.status_code == 422 and missing.get_json()["message"] == "[Disabled]: Required"
    world.api("PATCH", f"repos/alice/app/actions/runners/{runner.id}", "alice", json={"disabled": False})
    task = world.fetch(runner).task
    assert task.id > 0
    assert world.api("GET", f"repos/alice/app/actions/runners/{runner.id}", "alice").get_json()["busy"] is False
    world.log(runner, task.id, 0, ["busy now"])
    assert world.api("GET", f"repos/alice/app/actions/runners/{runner.id}", "alice").get_json()["busy"] is True
    read_only = world.token("alice", ["read:repository"])
    refused = world.api("DELETE", f"repos/alice/app/actions/runners/{runner.id}", headers=read_only)
    assert refused.status_code == 403
    assert world.api("DELETE", f"repos/alice/app/actions/runners/{runner.id}", "alice").status_code == 204
    assert world.api("GET", f"repos/alice/app/actions/runners/{runner.id}", "alice").status_code == 404
    assert world.api("DELETE", f"repos/alice/app/actions/runners/{runner.id}", "alice").status_code == 404
    assert connect_error(world.call("FetchTask", runner_pb2.FetchTaskRequest(), runner=runner))[0] == 401


def test_a_runner_is_not_reachable_from_another_scope(world: World) -> None:
    world.repo("alice", "app")
    world.repo("alice", "other")
    runner = world.register("alice", "app", ["x"])
    assert world.api("GET", f"repos/alice/other/actions/runners/{runner.id}", "alice").status_code == 404
    assert world.api("GET", f"user/actions/runners/{runner.id}", "alice").status_code == 404
    assert world.api("GET", f"admin/actions/runners/{runner.id}", headers=world.admin_headers).status_code == 200
    world.user("bob")
    assert world.api("GET", "repos/alice/app/actions/runners", "bob").status_code == 403
    assert world.api("GET", "repos/alice/app/actions/runners/abc", "alice").status_code == 404


def test_a_user_runner_takes_jobs_of_the_users_repositories_only(world: World) -> None:
    world.repo("alice", "app")
    world.repo("bob", "lib")
    world.push("bob", "lib", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = _register_with(world, "user/actions", "alice", ["ubuntu-latest"])
    assert not world.fetch(runner).HasField("task")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    task = world.fetch(runner).task
    assert task.id > 0
    listed = world.api("GET", "user/actions/runners", "alice").get_json()
    assert [entry["id"] for entry in listed["runners"]] == [runner.id]
    assert world.api("GET", "repos/alice/app/actions/runners", "alice").get_json()["total_count"] == 0


def test_an_organization_runner_and_the_organization_lists(world: World) -> None:
    _org(world, "alice", "acme")
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    runner = _register_with(world, "orgs/acme/actions", "alice", ["ubuntu-latest"])
    assert not world.fetch(runner).HasField("task")  # alice's own repository is not the organization's
    world.push("acme", "svc", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW, as_user="alice")
    task = world.fetch(runner).task
    assert task.id > 0
    listed = world.api("GET", "orgs/acme/actions/runners", "alice").get_json()
    assert [entry["id"] for entry in listed["runners"]] == [runner.id]
    runs = world.api("GET", "orgs/acme/actions/runs", "alice")
    assert runs.status_code == 200 and runs.get_json()["total_count"] == 1
    assert runs.get_json()["workflow_runs"][0]["repository"]["full_name"] == "acme/svc"
    world.user("bob")
    assert world.api("POST", "orgs/acme/actions/runners/registration-token", "bob").status_code == 403
    assert world.api("GET", "orgs/acme/actions/runs", "bob").status_code == 403
    assert world.api("GET", f"orgs/acme/actions/runners/{runner.id}", "bob").status_code == 403
    assert world.api("GET", "orgs/nope/actions/runs", "alice").status_code == 404


def test_user_and_instance_lists_of_runs_and_jobs(world: World) -> None:
    world.repo("alice", "app")
    world.repo("bob", "lib")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    world.push("bob", "lib", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)

    def ids(response: Any, key: str) -> list[str]:
        assert response.status_code == 200, response.get_data(as_text=True)
        return sorted(entry["url"].split("/repos/")[1].split("/actions/")[0] for entry in response.get_json()[key])

    assert ids(world.api("GET", "user/actions/runs", "alice"), "workflow_runs") == ["alice/app"]
    assert ids(world.api("GET", "user/actions/jobs", "bob"), "jobs") == ["bob/lib"]
    admin = world.admin_headers
    assert ids(world.api("GET", "admin/actions/runs", headers=admin), "workflow_runs") == ["alice/app", "bob/lib"]
    assert ids(world.api("GET", "admin/actions/jobs", headers=admin), "jobs") == ["alice/app", "bob/lib"]
    assert world.api("GET", "admin/actions/runs", "alice").status_code == 403
    assert world.api("GET", "user/actions/runs").status_code == 401
    repo_only = world.token("alice", ["read:repository"])
    assert world.api("GET", "user/actions/runs", headers=repo_only).status_code == 403
    filtered = world.api("GET", "admin/actions/runs", headers=admin, query_string={"status": "completed"})
    assert filtered.get_json()["total_count"] == 0 and filtered.headers["X-Total-Count"] == "0"


def test_instance_runners_and_the_legacy_admin_token_route(world: World) -> None:
    world.repo("alice", "app")
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    legacy = world.api("GET", "admin/runners/registration-token", headers=world.admin_headers)
    current = world.api("POST", "admin/actions/runners/registration-token", headers=world.admin_headers)
    assert legacy.status_code == current.status_code == 200
    assert legacy.get_json()["token"] == current.get_json()["token"]
    assert world.api("POST", "admin/actions/runners/registration-token", "alice").status_code == 403
    runner = _register_with(world, "admin/actions", None, ["ubuntu-latest"])
    assert world.fetch(runner).task.id > 0  # a global runner takes jobs of any repository
    listed = world.api("GET", "admin/actions/runners", headers=world.admin_headers).get_json()
    assert runner.id in [entry["id"] for entry in listed["runners"]]
