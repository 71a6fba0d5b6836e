"""Actions secrets over REST at repository, organization and user scope, sealed storage, and the job's map."""

from __future__ import annotations

import base64

import pytest
from flask import Flask
from forge_proto import runner_pb2
from test_server_actions_support import SIMPLE_WORKFLOW, RunnerIdentity, World, world

from reference_server.actions import secrets as secret_model
from reference_server.context import forge
from reference_server.errors import BadRequest

__all__ = ["world"]

REPO_SECRETS = "repos/alice/app/actions/secrets"


def _put(world: World, path: str, owner: str, body: object) -> int:
    return world.api("PUT", path, owner, json=body).status_code


def test_repository_secret_is_created_updated_listed_and_deleted(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, f"{REPO_SECRETS}/deploy_key", "alice", {"data": "s3cr3t-v1", "description": "first"}) == 201
    assert _put(world, f"{REPO_SECRETS}/DEPLOY_KEY", "alice", {"data": "s3cr3t-v2", "description": "second"}) == 204
    listed = world.api("GET", REPO_SECRETS, "alice")
    assert listed.status_code == 200
    assert listed.headers["X-Total-Count"] == "1"
    [entry] = listed.get_json()
    assert entry["name"] == "DEPLOY_KEY"
    assert entry["description"] == "second"
    assert set(entry) == {"name", "description", "created_at"}
    assert "s3cr3t" not in listed.get_data(as_text=True)
    assert world.api("DELETE", f"{REPO_SECRETS}/deploy_key", "alice").status_code == 204
    assert world.api("DELETE", f"{REPO_SECRETS}/deploy_key", "alice").status_code == 404
    assert world.api("GET", REPO_SECRETS, "alice").get_json() == []


def test_secret_names_follow_giteas_rules(world: World) -> None:
    world.repo("alice", "app")
    for bad in ("-", "2secret", "GITEA_secret", "github_token", "with-dash", "a.b", "ci"):
        response = world.api("PUT", f"{REPO_SECRETS}/{bad}", "alice", json={"data": "x"})
        assert response.status_code == 400, bad
        assert response.get_json()["message"] == "invalid variable or secret name"
    for good in ("_", "secret", "A_1"):
        assert _put(world, f"{REPO_SECRETS}/{good}", "alice", {"data": "x"}) == 201, good
    assert world.api("DELETE", f"{REPO_SECRETS}/000", "alice").status_code == 400
    assert world.api("GET", REPO_SECRETS, "alice").headers["X-Total-Count"] == "3"


@pytest.mark.parametrize("name", ["KEY\n", "\u017fECRET", "K\u212aY", ""])
def test_the_name_rule_is_ascii_and_matches_the_whole_name(app: Flask, name: str) -> None:
    with app.app_context(), pytest.raises(BadRequest, match="invalid variable or secret name"):
        secret_model.validate_config_name(name)


def test_bad_bodies_change_nothing(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, f"{REPO_SECRETS}/KEY", "alice", {"data": "kept"}) == 201
    cases: list[tuple[object, int]] = [
        ({}, 422),
        ({"data": ""}, 422),
        ({"data": 5}, 422),
        ({"data": "x", "description": ["no"]}, 422),
        ([1, 2], 422),
        ({"data": "x" * (secret_model.SECRET_DATA_MAX_LENGTH + 1)}, 400),
        ({"data": "x", "description": "d" * (secret_model.SECRET_DESCRIPTION_MAX_LENGTH + 1)}, 400),
    ]
    for body, status in cases:
        response = world.api("PUT", f"{REPO_SECRETS}/KEY", "alice", json=body)
        assert response.status_code == status, (
            body if not isinstance(body, dict) else list(body),
            response.status_code,
        )
        assert "message" in response.get_json()
    with world.app.app_context():
        assert secret_model.job_secrets(0, _repo_id(world)) == {"KEY": "kept"}
    exact = {"data": "x" * secret_model.SECRET_DATA_MAX_LENGTH}
    assert _put(world, f"{REPO_SECRETS}/KEY", "alice", exact) == 204


def _repo_id(world: World) -> int:
    found = world.api("GET", "repos/alice/app", "alice").get_json()
    repo_id: int = found["id"]
    return repo_id


def test_values_are_sealed_at_rest_and_tampering_is_detected(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, f"{REPO_SECRETS}/TOKEN", "alice", {"data": "plain-value-42"}) == 201
    with world.app.app_context():
        stored = forge().db.one("SELECT data FROM action_secret WHERE name = 'TOKEN'")
        assert stored is not None
        assert "plain-value-42" not in stored["data"]
        assert secret_model.unseal(stored["data"]) == "plain-value-42"
        assert secret_model.seal("same") != secret_model.seal("same")
        raw = bytearray(base64.b64decode(stored["data"]))
        raw[20] ^= 1
        try:
            secret_model.unseal(base64.b64encode(bytes(raw)).decode())
        except ValueError as error:
            assert "authentication" in str(error)
        else:  # pragma: no cover - the assertion below names the failure
            raise AssertionError("a tampered sealed value was accepted")


def test_permissions_and_scopes(world: World) -> None:
    world.repo("alice", "app")
    world.user("bob")
    assert world.api("GET", REPO_SECRETS).status_code == 401
    assert world.api("GET", REPO_SECRETS, "bob").status_code in (403, 404)
    assert _put(world, f"{REPO_SECRETS}/X", "bob", {"data": "x"}) in (403, 404)
    read_only = world.token("alice", ["read:repository"])
    assert world.api("GET", REPO_SECRETS, headers=read_only).status_code == 200
    assert world.api("PUT", f"{REPO_SECRETS}/X", headers=read_only, json={"data": "x"}).status_code == 403
    wrong_category = world.token("alice", ["write:user"])
    assert world.api("PUT", f"{REPO_SECRETS}/X", headers=wrong_category, json={"data": "x"}).status_code == 403
    assert world.api("GET", "repos/alice/missing/actions/secrets", "alice").status_code == 404
    assert _put(world, f"{REPO_SECRETS}/X", "alice", {"data": "x"}) == 201


def test_organization_and_user_secrets(world: World) -> None:
    world.user("alice")
    world.user("bob")
    assert world.api("POST", "orgs", "alice", json={"username": "acme"}).status_code == 201
    org = "orgs/acme/actions/secrets"
    assert _put(world, f"{org}/ORG_KEY", "alice", {"data": "o"}) == 201
    assert _put(world, f"{org}/ORG_KEY", "alice", {"data": "o2"}) == 204
    assert [s["name"] for s in world.api("GET", org, "alice").get_json()] == ["ORG_KEY"]
    assert world.api("GET", org, "bob").status_code == 403
    assert world.api("GET", "orgs/nothere/actions/secrets", "alice").status_code == 404
    assert world.api("DELETE", f"{org}/ORG_KEY", "alice").status_code == 204
    assert world.api("DELETE", f"{org}/ORG_KEY", "alice").status_code == 404
    user = "user/actions/secrets"
    assert _put(world, f"{user}/MINE", "bob", {"data": "b"}) == 201
    assert _put(world, f"{user}/mine", "bob", {"data": "b2"}) == 204
    assert world.api("GET", user, "bob").status_code in (404, 405)
    assert world.api("DELETE", f"{user}/MINE", "alice").status_code == 404
    assert world.api("DELETE", f"{user}/MINE", "bob").status_code == 204
    read_user = world.token("bob", ["read:user"])
    assert world.api("PUT", f"{user}/X", headers=read_user, json={"data": "x"}).status_code == 403


def test_a_job_receives_the_owners_then_the_repositorys_secrets(world: World) -> None:
    world.repo("alice", "app")
    world.repo("alice", "other")
    user = "user/actions/secrets"
    assert _put(world, f"{user}/SHARED", "alice", {"data": "from-owner"}) == 201
    assert _put(world, f"{user}/OWNER_ONLY", "alice", {"data": "owner"}) == 201
    assert _put(world, f"{REPO_SECRETS}/SHARED", "alice", {"data": "from-repo"}) == 201
    assert _put(world, "repos/alice/other/actions/secrets/ELSEWHERE", "alice", {"data": "no"}) == 201
    assert _put(world, f"{REPO_SECRETS}/GITHUB_TOKEN", "alice", {"data": "forged"}) == 400
    runner = world.register("alice", "app", ["ubuntu-latest"])
    world.push("alice", "app", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW)
    task = world.fetch(runner).task
    assert task.id
    secrets = dict(task.secrets)
    assert secrets["SHARED"] == "from-repo"
    assert secrets["OWNER_ONLY"] == "owner"
    assert "ELSEWHERE" not in secrets
    assert secrets["GITEA_TOKEN"] == secrets["GITHUB_TOKEN"] != ""
    world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)


def test_a_deleted_repositorys_secrets_are_forgotten(world: World) -> None:
    world.repo("alice", "app")
    assert _put(world, f"{REPO_SECRETS}/GONE", "alice", {"data": "x"}) == 201
    assert world.api("DELETE", "repos/alice/app", "alice").status_code == 204
    with world.app.app_context():
        assert forge().db.one("SELECT id FROM action_secret WHERE name = 'GONE'") is None


def test_a_job_of_an_organization_repository_receives_the_organizations_secrets(world: World) -> None:
    world.user("alice")
    assert world.api("POST", "orgs", "alice", json={"username": "acme"}).status_code == 201
    repo = world.api(
        "POST", "orgs/acme/repos", "alice", json={"name": "svc", "auto_init": True, "default_branch": "main"}
    )
    assert repo.status_code == 201, repo.get_data(as_text=True)
    assert _put(world, "orgs/acme/actions/secrets/ORG_KEY", "alice", {"data": "org-value"}) == 201
    assert _put(world, "repos/acme/svc/actions/secrets/REPO_KEY", "alice", {"data": "repo-value"}) == 201
    assert world.api("POST", "orgs/acme/actions/variables/ORG_VAR", "alice", json={"value": "v"}).status_code == 201
    token = world.api("POST", "repos/acme/svc/actions/runners/registration-token", "alice").get_json()["token"]
    request = runner_pb2.RegisterRequest(name="org-runner", token=token, version="v0.0.1", labels=["ubuntu-latest"])
    answer = world.reply(world.call("Register", request), runner_pb2.RegisterResponse)
    runner = RunnerIdentity(answer.runner.id, answer.runner.uuid, answer.runner.token)
    world.push("acme", "svc", ".gitea/workflows/ci.yml", SIMPLE_WORKFLOW, as_user="alice")
    task = world.fetch(runner).task
    assert task.id
    assert {key: task.secrets[key] for key in ("ORG_KEY", "REPO_KEY")} == {
        "ORG_KEY": "org-value",
        "REPO_KEY": "repo-value",
    }
    assert dict(task.vars) == {"ORG_VAR": "v"}
    world.finish(runner, task.id, runner_pb2.RESULT_SUCCESS)
