"""Every route against every kind of token that is not an account token: job, deploy, LFS transfer, runner.

One world for the module: "owner" has the private repository owner/app with a running job (its job
token), a deploy token and an LFS transfer token from a batch answer; "victim" has the private
repository victim/vault. The REST routes are enumerated from ``app.url_map``, so a new route is
checked here without a line changing: a job token is confined by ``access.job_token_may`` (403 before
the route runs wherever it may not act), the other three kinds are no REST credential at all (401).
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient
from google.protobuf import json_format
from test_security_routes import fill, methods_of
from test_server_actions_support import RunnerIdentity, World
from werkzeug.routing import Rule as UrlRule

from reference_server.access import JOB_TOKEN_REFUSAL, job_token_may
from reference_server.actions import runner_store
from reference_server.app import create_app, declared_rules
from reference_server.config import Config
from reference_server.context import forge
from reference_server.passwords import FAST_COST

RULES = declared_rules()
ADMIN_TOKEN = "fedcba9876543210fedcba9876543210fedcba98"
WORKFLOW = "on: push\njobs:\n  build:\n    runs-on: kinds\n    steps:\n      - run: echo hi\n"
LFS_TYPE = "application/vnd.git-lfs+json"


@dataclass
class Kinds:
    """The module's world and one token of each kind."""

    world: World
    runner: RunnerIdentity
    job_token: str
    deploy_token: str
    lfs_token: str
    run_id: str
    """The run of the job holding ``job_token`` (the legacy artifact routes name it in their path)."""

    @property
    def client(self) -> FlaskClient:
        return self.world.client

    @property
    def app(self) -> Flask:
        return self.world.app


def _basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kinds]:
    data = tmp_path_factory.mktemp("kinds") / "data"
    config = Config(data_dir=data, base_url="http://forge.test/", admin_token=ADMIN_TOKEN, password_cost=FAST_COST)
    app = create_app(config)
    app.testing = True
    world = World(app, app.test_client(), {"Authorization": f"token {ADMIN_TOKEN}"})
    world.repo("owner", "app", private=True)
    world.repo("victim", "vault", private=True)
    runner = world.register("owner", "app", ["kinds"])
    world.push("owner", "app", ".gitea/workflows/ci.yml", WORKFLOW)
    task = world.fetch(runner).task
    job_token = task.secrets["GITEA_TOKEN"]
    deploy = world.api("POST", "repos/owner/app/keys/tokens", "owner", json={"title": "d", "read_only": False})
    assert deploy.status_code == 201, deploy.get_data(as_text=True)
    batch = world.client.post(
        "/owner/app.git/info/lfs/objects/batch",
        headers={**world.user("owner"), "Accept": LFS_TYPE, "Content-Type": LFS_TYPE},
        json={"operation": "upload", "objects": [{"oid": "a" * 64, "size": 1}]},
    )
    assert batch.status_code == 200, batch.get_data(as_text=True)
    header = batch.get_json()["objects"][0]["actions"]["upload"]["header"]["Authorization"]
    run_id = str(json_format.MessageToDict(task.context)["run_id"])
    yield Kinds(world, runner, job_token, deploy.get_json()["key"], header.split(" ", 1)[1], run_id)
    app.extensions["forge"].db.close()


def _rest_rules(app: Flask) -> list[UrlRule]:
    return sorted((r for r in app.url_map.iter_rules() if r.rule.startswith("/api/v1/")), key=lambda r: r.rule)


def _job_refusal(body: str) -> bool:
    return JOB_TOKEN_REFUSAL in body


def test_a_job_token_reaches_only_what_job_token_may_allows(kinds: Kinds) -> None:
    headers = {"Authorization": f"token {kinds.job_token}"}
    checked = 0
    for rule in _rest_rules(kinds.app):
        path = fill(rule).replace("/repos/x/x/", "/repos/owner/app/")
        for method in methods_of(rule):
            answer = kinds.client.open(path, method=method, headers=headers)
            body = answer.get_data(as_text=True)
            checked += 1
            assert answer.status_code < 500, f"{method} {path}: {body}"
            if RULES[rule.endpoint].kinds in (("token",), ("admin",)):
                assert answer.status_code != 401, f"{method} {path}: a running job's token is a credential"
            if job_token_may(rule.rule, method, rule.endpoint):
                assert not _job_refusal(body), f"{method} {path} refused a job token the rule allows"
            else:
                assert answer.status_code == 403 and _job_refusal(body), f"{method} {path}: {answer.status_code} {body}"
    assert checked > 300


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v1/user/actions/runners/registration-token"),
        ("GET", "/api/v1/user/actions/runners/registration-token"),
        ("POST", "/api/v1/admin/actions/runners/registration-token"),
        ("PUT", "/api/v1/user/actions/secrets/SHARED"),
        ("POST", "/api/v1/user/actions/variables/SHARED"),
        ("GET", "/api/v1/user/actions/variables"),
        ("POST", "/api/v1/user/repos"),
        ("POST", "/api/v1/orgs"),
        ("POST", "/api/v1/users/gitea-actions/projects"),
        ("POST", "/api/v1/users/gitea-actions/tokens"),
        ("POST", "/api/v1/repos/migrate"),
    ],
)
def test_a_job_token_never_acts_at_user_or_instance_level(kinds: Kinds, method: str, path: str) -> None:
    answer = kinds.client.open(path, method=method, headers={"Authorization": f"token {kinds.job_token}"}, json={})
    assert answer.status_code in (401, 403), f"{method} {path}: {answer.status_code} {answer.get_data(as_text=True)}"


def test_a_job_token_reads_and_writes_its_own_repository_only(kinds: Kinds) -> None:
    headers = {"Authorization": f"token {kinds.job_token}"}
    assert kinds.client.get("/api/v1/repos/owner/app", headers=headers).status_code == 200
    assert kinds.client.get("/api/v1/repos/victim/vault", headers=headers).status_code == 404
    issue = kinds.client.post("/api/v1/repos/owner/app/issues", headers=headers, json={"title": "from CI"})
    assert issue.status_code == 201, issue.get_data(as_text=True)
    assert kinds.client.get("/api/v1/user", headers=headers).get_json()["login"] == "gitea-actions"


def test_a_runner_of_a_pseudo_user_never_receives_other_owners_jobs(kinds: Kinds) -> None:
    """A runner row owned by the Actions user (as the old hole made them) is handed nothing: only an
    owner and a repository of 0 make an instance runner."""
    world = kinds.world
    with kinds.app.app_context():
        db = forge().db
        with db.transaction():
            db.execute("UPDATE action_runner SET owner_id = -2, repo_id = 0 WHERE id = ?", (kinds.runner.id,))
    world.register("victim", "vault", ["other-label"])
    world.push("victim", "vault", ".gitea/workflows/ci.yml", WORKFLOW)
    assert not world.fetch(kinds.runner, tasks_version=1).HasField("task")
    with kinds.app.app_context():
        rows = runner_store.list_runners(owner_id=-2, repo_id=None, disabled=None, limit=10, offset=0)[0]
    assert [row["id"] for row in rows] == [kinds.runner.id]


@pytest.mark.parametrize("kind", ["deploy_token", "lfs_token", "runner_token"])
def test_other_token_kinds_are_no_rest_credential(kinds: Kinds, kind: str) -> None:
    token = kinds.runner.token if kind == "runner_token" else getattr(kinds, kind)
    for rule in _rest_rules(kinds.app):
        path = fill(rule)
        for method in methods_of(rule):
            for headers in ({"Authorization": f"token {token}"}, _basic("owner", token)):
                answer = kinds.client.open(path, method=method, headers=headers)
                assert answer.status_code == 401, f"{kind} on {method} {path}: {answer.status_code}"


def test_git_accepts_deploy_and_job_tokens_but_not_lfs_or_runner_tokens(kinds: Kinds) -> None:
    refs = "/owner/app.git/info/refs?service=git-upload-pack"
    assert kinds.client.get(refs, headers=_basic("x", kinds.deploy_token)).status_code == 200
    assert kinds.client.get(refs, headers=_basic("x", kinds.job_token)).status_code == 200
    for token in (kinds.lfs_token, kinds.runner.token):
        refused = kinds.client.get(refs, headers=_basic("owner", token))
        assert refused.status_code == 401, refused.get_data(as_text=True)
    vault = "/victim/vault.git/info/refs?service=git-upload-pack"
    assert kinds.client.get(vault, headers=_basic("x", kinds.job_token)).status_code == 404
    batch = kinds.client.post(
        "/owner/app.git/info/lfs/objects/batch",
        headers={**_basic("owner", kinds.lfs_token), "Accept": LFS_TYPE, "Content-Type": LFS_TYPE},
        json={"operation": "upload", "objects": [{"oid": "a" * 64, "size": 1}]},
    )
    assert batch.status_code == 200, "on LFS routes the transfer token still works"


def test_the_runner_protocol_and_the_artifact_service_refuse_every_other_kind(kinds: Kinds) -> None:
    twirp = "/twirp/github.actions.results.api.v1.ArtifactService/"
    runner = "/api/actions/runner.v1.RunnerService/"
    legacy = f"/api/actions_pipeline/_apis/pipelines/workflows/{kinds.run_id}/artifacts?api-version=6.0-preview"
    for token in (kinds.job_token, kinds.deploy_token, kinds.lfs_token):
        for method in ("CreateArtifact", "ListArtifacts"):
            answer = kinds.client.post(twirp + method, headers={"Authorization": f"Bearer {token}"}, json={})
            assert answer.status_code == 401, f"{method}: {answer.get_data(as_text=True)}"
        for method in ("FetchTask", "Declare"):
            headers = {"x-runner-uuid": kinds.runner.uuid, "x-runner-token": token, "Authorization": f"token {token}"}
            answer = kinds.client.post(runner + method, headers=headers, json={})
            assert answer.status_code == 401, f"{method}: {answer.get_data(as_text=True)}"
        for method in ("GET", "POST", "PATCH"):
            answer = kinds.client.open(legacy, method=method, headers={"Authorization": f"Bearer {token}"}, json={})
            assert answer.status_code == 401, f"legacy {method}: {answer.get_data(as_text=True)}"
        register = kinds.client.post(runner + "Register", json={"name": "r", "token": token})
        assert register.status_code == 404, "no token of another kind registers a runner"
    runner_headers = {"Authorization": f"Bearer {kinds.runner.token}", "x-runner-uuid": kinds.runner.uuid}
    for method in ("GET", "POST", "PATCH"):
        answer = kinds.client.open(legacy, method=method, headers=runner_headers, json={})
        assert answer.status_code == 401, f"a runner token on the legacy artifact routes: {method}"
