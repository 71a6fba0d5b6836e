"""Reports never show a credential: every token-, secret- or signature-bearing exchange the kit makes is masked.

Each case is an exchange as the suite really makes it (REST, the runner protocol in JSON, signed blob
URLs, webhook deliveries), recorded by a :class:`Recorder` that was told no secret in advance: the
masking must come from the shape of the exchange alone. The rendered transcript (what ``results.json``
and the HTML report show) must not contain any of the plaintexts, and must still show what is not
secret, so a report stays readable.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests
from requests.structures import CaseInsensitiveDict

from conformance.client import BasicAuth, QueryTokenAuth, Recorder, TokenAuth

TOKEN = "0123456789abcdef0123456789abcdef01234567"
RUNNER_TOKEN = "89abcdef0123456789abcdef0123456789abcdef"
DEPLOY = "gdt_Z3Fa89WdvoJSrocwxA5fT7NqN7UndOAEtmCfAErGBfo"
RUNTIME = "eyJhbGciOiJIUzI1NiJ9.eyJzY3AiOiJBY3Rpb25zIn0.c2lnbmF0dXJlLXZhbHVl"
SIG = "kY3n0Q9yPqV1dUQ8wKXc6aCd4sYb2C2W9hLrXe1uH0o"
SECRET = "hunter2-is-my-secret"
PASSWORD = "correct-horse-battery"
API = "http://forge.test/api/v1/"
TWIRP = "http://forge.test/twirp/github.actions.results.api.v1.ArtifactService/"
RUNNER = "http://forge.test/api/actions/runner.v1.RunnerService/"
SIGNED = f"{TWIRP}UploadArtifact?sig={SIG}&expires=1700000000&artifactName=a&taskID=1&artifactID=2"


def _response(status: int, body: Any, headers: dict[str, str] | None = None) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = json.dumps(body).encode() if not isinstance(body, bytes) else body
    response.headers = CaseInsensitiveDict({"Content-Type": "application/json", **(headers or {})})
    return response


def _request(method: str, url: str, **kwargs: Any) -> requests.PreparedRequest:
    return requests.Request(method, url, **kwargs).prepare()


CASES: dict[str, tuple[requests.PreparedRequest, requests.Response, tuple[str, ...]]] = {
    "token header and created token": (
        _request("POST", API + "users/sam/tokens", json={"name": "ci", "scopes": ["all"]}, auth=TokenAuth(TOKEN)),
        _response(201, {"id": 3, "name": "ci", "sha1": TOKEN, "token_last_eight": TOKEN[-8:]}),
        (TOKEN,),
    ),
    "basic auth with a password": (
        _request("GET", API + "user", auth=BasicAuth("sam", PASSWORD)),
        _response(200, {"login": "sam"}),
        (PASSWORD,),
    ),
    "deprecated token query": (
        _request("GET", API + "user", auth=QueryTokenAuth(TOKEN)),
        _response(200, {"login": "sam"}),
        (TOKEN,),
    ),
    "user with a password": (
        _request("POST", API + "admin/users", json={"username": "sam", "password": PASSWORD}),
        _response(201, {"login": "sam"}),
        (PASSWORD,),
    ),
    "deploy token": (
        _request("POST", API + "repos/sam/app/keys/tokens", json={"title": "ci"}),
        _response(201, {"id": 1, "title": "ci", "key": DEPLOY, "read_only": True}),
        (DEPLOY,),
    ),
    "action secret": (
        _request("PUT", API + "repos/sam/app/actions/secrets/KEY", json={"data": SECRET, "description": "d"}),
        _response(201, b""),
        (SECRET,),
    ),
    "webhook secret and authorization header": (
        _request(
            "POST",
            API + "repos/sam/app/hooks",
            json={
                "type": "gitea",
                "config": {"url": "http://hook.test/", "content_type": "json", "secret": SECRET},
                "authorization_header": f"Bearer {TOKEN}",
            },
        ),
        _response(201, {"id": 1, "authorization_header": f"Bearer {TOKEN}", "config": {"url": "http://hook.test/"}}),
        (SECRET, TOKEN),
    ),
    "mirror credentials": (
        _request(
            "POST",
            API + "repos/migrate",
            json={"clone_addr": "http://git.test/a.git", "auth_username": "sam", "auth_password": PASSWORD},
        ),
        _response(201, {"full_name": "sam/a"}),
        (PASSWORD,),
    ),
    "registration token": (
        _request("POST", API + "repos/sam/app/actions/runners/registration-token"),
        _response(200, {"token": RUNNER_TOKEN}),
        (RUNNER_TOKEN,),
    ),
    "runner registration": (
        _request("POST", RUNNER + "Register", json={"name": "r", "token": RUNNER_TOKEN, "labels": ["x"]}),
        _response(200, {"runner": {"id": "1", "uuid": "u-1", "token": TOKEN, "name": "r"}}),
        (RUNNER_TOKEN, TOKEN),
    ),
    "task with job token, runtime token and secrets": (
        _request(
            "POST",
            RUNNER + "FetchTask",
            json={"tasksVersion": "0"},
            headers={"x-runner-uuid": "u-1", "x-runner-token": RUNNER_TOKEN},
        ),
        _response(
            200,
            {
                "task": {
                    "id": "7",
                    "secrets": {"GITEA_TOKEN": TOKEN, "GITHUB_TOKEN": TOKEN, "DEPLOY_KEY": SECRET},
                    "context": {"token": TOKEN, "gitea_runtime_token": RUNTIME, "repository": "sam/app"},
                }
            },
        ),
        (RUNNER_TOKEN, TOKEN, RUNTIME, SECRET),
    ),
    "artifact RPC with a runtime token and a signed URL": (
        _request("POST", TWIRP + "CreateArtifact", json={"name": "a", "version": 4}, auth=TokenAuth(RUNTIME, "Bearer")),
        _response(200, {"ok": True, "signed_upload_url": SIGNED}),
        (RUNTIME, SIG),
    ),
    "signed blob upload": (
        _request("PUT", SIGNED + "&comp=block&blockid=YmxvY2s", data=b"block bytes"),
        _response(201, b""),
        (SIG,),
    ),
    "redirect to a signed zip": (
        _request("GET", API + "repos/sam/app/actions/artifacts/2/zip", auth=TokenAuth(TOKEN)),
        _response(302, b"", {"Location": f"{API}repos/sam/app/actions/artifacts/2/zip/raw?sig={SIG}&expires=1"}),
        (TOKEN, SIG),
    ),
    "webhook delivery signatures": (
        _request(
            "POST",
            "http://hook.test/",
            json={"action": "completed"},
            headers={
                "X-Gitea-Signature": SIG,
                "X-Hub-Signature-256": f"sha256={SIG}",
                "Authorization": f"Bearer {TOKEN}",
            },
        ),
        _response(200, {"ok": True}),
        (SIG, TOKEN),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_credential_reaches_the_transcript(case: str) -> None:
    request, response, plaintexts = CASES[case]
    recorder = Recorder()
    exchange = recorder.record(request, response, 3.0)
    rendered = json.dumps(exchange.as_dict()) + exchange.render()
    for value in plaintexts:
        assert value not in rendered, f"{case}: {value[:6]}... is in the transcript"
    assert "***" in rendered, f"{case}: nothing was masked"


def test_what_is_not_secret_stays_readable() -> None:
    request, response, _ = CASES["task with job token, runtime token and secrets"]
    exchange = Recorder().record(request, response, 1.0)
    task = json.loads(exchange.response_body)["task"]
    assert task["id"] == "7" and task["context"]["repository"] == "sam/app"
    assert sorted(task["secrets"]) == ["DEPLOY_KEY", "GITEA_TOKEN", "GITHUB_TOKEN"], "secret names stay visible"
    created = Recorder().record(*CASES["token header and created token"][:2], 1.0)
    assert json.loads(created.response_body)["token_last_eight"] == TOKEN[-8:]
    licence = Recorder().record(
        _request("GET", API + "licenses"), _response(200, [{"key": "MIT", "name": "MIT License"}]), 1.0
    )
    assert json.loads(licence.response_body) == [{"key": "MIT", "name": "MIT License"}]
    upload = Recorder().record(*CASES["signed blob upload"][:2], 1.0)
    assert "comp=block" in upload.url and "artifactID=2" in upload.url
