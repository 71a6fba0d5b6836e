"""Actions variables over REST at repository, organization and user scope, and the job's ``vars`` map."""

from __future__ import annotations

from typing import Any

from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, World, world

from reference_server.actions.variables import VARIABLE_DATA_MAX_LENGTH

__all__ = ["world"]

REPO_VARS = "repos/alice/app/actions/variables"


def _status(world: World, method: str, path: str, owner: str, body: Any = None) -> int:
    return world.api(method, path, owner, json=body).status_code


def test_repository_variable_lifecycle(world: World) -> None:
    created = world.repo("alice", "app")
    assert _status(world, "POST", f"{REPO_VARS}/build_mode", "alice", {"value": "fast", "description": "d"}) == 201
    got = world.api("GET", f"{REPO_VARS}/BUILD_MODE", "alice")
    assert got.status_code == 200
    assert got.get_json() == {
        "owner_id": 0,
        "repo_id": created["id"],
        "name": "BUILD_MODE",
        "data": "fast",
        "description": "d",
    }
    assert world.api("GET", f"{REPO_VARS}/build_mode", "alice").get_json()["data"] == "fast"
    assert _status(world, "PUT", f"{REPO_VARS}/build_mode", "alice", {"value": "slow", "name": "mode"}) == 204
    assert world.api("GET", f"{REPO_VARS}/BUILD_MODE", "alice").status_code == 404
    renamed = world.api("GET", f"{REPO_VARS}/MODE", "alice").get_json()
    assert (renamed["name"], renamed["data"], renamed["description"]) == ("MODE", "slow", "")
    assert _status(world, "DELETE", f"{REPO_VARS}/mode", "alice") == 204
    assert _status(world, "DELETE", f"{REPO_VARS}/mode", "alice") == 404
    assert world.api("GET", f"{REPO_VARS}/MODE", "alice").status_code == 404


def test_names_duplicates_and_bodies(world: World) -> None:
    world.repo("alice", "app")
    for bad in ("-", "ci", "CI", "123var", "var@test", "github_var", "gitea_var"):
        response = world.api("POST", f"{REPO_VARS}/{bad}", "alice", json={"value": "v"})
        assert response.status_code == 400, bad
        assert response.get_json()["message"] == "invalid variable or secret name"
    assert _status(world, "POST", f"{REPO_VARS}/_", "alice", {"value": "v"}) == 201
    assert _status(world, "POST", f"{REPO_VARS}/TEST_VAR", "alice", {"value": "v"}) == 201
    duplicate = world.api("POST", f"{REPO_VARS}/test_var", "alice", json={"value": "other"})
    assert duplicate.status_code == 409
    assert "already exists" in duplicate.get_json()["message"]
    assert _status(world, "POST", f"{REPO_VARS}/NO_VALUE", "alice", {}) == 422
    assert _status(world, "POST", f"{REPO_VARS}/NO_VALUE", "alice", {"value": 3}) == 422
    assert _status(world, "POST", f"{REPO_VARS}/BIG", "alice", {"value": "x" * (VARIABLE_DATA_MAX_LENGTH + 1)}) == 400
    assert _status(world, "PUT", f"{REPO_VARS}/UNKNOWN", "alice", {"value": "v"}) == 404
    assert _status(world, "PUT", f"{REPO_VARS}/TEST_VAR", "alice", {"value": "v", "name": "ci"}) == 400
    assert _status(world, "PUT", f"{REPO_VARS}/TEST_VAR", "alice", {"value": "v", "name": "_"}) == 409
    assert _status(world, "PUT", f"{REPO_VARS}/TEST_VAR", "alice", {"name": "NEW"}) == 422
    assert _status(world, "PUT", f"{REPO_VARS}/test_var", "alice", {"value": "case", "name": "Test_Var"}) == 204
    listed = world.api("GET", REPO_VARS, "alice")
    assert listed.headers["X-Total-Count"] == "2"
    assert [(v["name"], v["data"]) for v in listed.get_json()] == [("TEST_VAR", "case"), ("_", "v")]


def test_listing_is_paged(world: World) -> None:
    world.repo("alice", "app")
    for index in range(5):
        assert _status(world, "POST", f"{REPO_VARS}/V{index}", "alice", {"value": str(index)}) == 201
    page = world.api("GET", REPO_VARS, "alice", query_string={"page": 2, "limit": 2})
    assert page.headers["X-Total-Count"] == "5"
    assert [v["name"] for v in page.get_json()] == ["V2", "V3"]
    assert 'rel="next"' in page.headers["Link"]


def test_permissions(world: World) -> None:
    world.repo("alice", "app")
    world.user("bob")
    assert _status(world, "POST", f"{REPO_VARS}/X", "alice", {"value": "v"}) == 201
    assert world.api("GET", f"{REPO_VARS}/X").status_code == 401
    assert world.api("GET", f"{REPO_VARS}/X", "bob").status_code in (403, 404)
    read_only = world.token("alice", ["read:repository"])
    assert world.api("GET", f"{REPO_VARS}/X", headers=read_only).status_code == 200
    assert world.api("DELETE", f"{REPO_VARS}/X", headers=read_only).status_code == 403
    assert world.api("GET", f"{REPO_VARS}/X", "alice").status_code == 200


def test_organization_and_user_variables(world: World) -> None:
    world.user("alice")
    bob = world.api("GET", "user", "bob").get_json()
    assert world.api("POST", "orgs", "alice", json={"username": "acme"}).status_code == 201
    org_id = world.api("GET", "orgs/acme", "alice").get_json()["id"]
    assert _status(world, "POST", "orgs/acme/actions/variables/REGION", "alice", {"value": "eu"}) == 201
    got = world.api("GET", "orgs/acme/actions/variables/region", "alice").get_json()
    assert (got["owner_id"], got["repo_id"], got["data"]) == (org_id, 0, "eu")
    assert world.api("GET", "orgs/acme/actions/variables", "bob").status_code == 403
    assert _status(world, "POST", "user/actions/variables/MINE", "bob", {"value": "b"}) == 201
    mine = world.api("GET", "user/actions/variables", "bob")
    assert mine.headers["X-Total-Count"] == "1"
    assert mine.get_json()[0]["owner_id"] == bob["id"]
    assert world.api("GET", "user/actions/variables/MINE", "alice").status_code == 404
    assert _status(world, "DELETE", "user/actions/variables/MINE", "bob") == 204


def test_a_job_receives_the_owners_then_the_repositorys_variables(world: World) -> None:
    world.repo("alice", "app")
    assert _status(world, "POST", "user/actions/variables/SHARED", "alice", {"value": "owner"}) == 201
    assert _status(world, "POST", "user/actions/variables/OWNER_ONLY", "alice", {"value": "o"}) == 201
    assert _status(world, "POST", f"{REPO_VARS}/SHARED", "alice", {"value": "repo"}) == 201
    runner = world.register("alice", "app", ["ubuntu-latest"])
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    task = world.fetch(runner).task
    assert task.id
    assert dict(task.vars) == {"SHARED": "repo", "OWNER_ONLY": "o"}
    world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)
