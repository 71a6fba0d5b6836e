"""The contract check: each JSON answer of the REST API against its operation's schema, on any target.

Unit tests of :class:`conformance.contract.Contract` (matching, which schema applies, what a breach says),
then the proof the issue asks for: a fake forge that answers a date where a number belongs, in a field no
step reads, fails the scenario with the operation, the JSON pointer and the difference.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask, Response, jsonify
from jsonschema import Draft202012Validator
from requests.structures import CaseInsensitiveDict
from werkzeug.serving import BaseWSGIServer, make_server

from conformance.client import MASK, Recorder
from conformance.contract import Contract, ContractViolation, Difference, Violation
from conformance.operations import REFERENCE_FILE, Answer, OperationList, load_operations
from conformance.paths import SCHEMAS_DIR
from conformance.schemas import body_validator, validate

API = "http://forge.test/sub/api/v1/"
JSON = "application/json; charset=utf-8"
A_DATE = "2026-11-25T12:00:00Z"
SETTINGS = {
    "max_response_items": 50,
    "default_paging_num": 30,
    "default_git_trees_per_page": 1000,
    "default_max_blob_size": 10485760,
    "default_max_response_size": 104857600,
}


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract(API)


def _check(contract: Contract, method: str, path: str, status: int, body: Any, *, kind: str = JSON) -> Violation | None:
    return contract.check(method, API + path, status, kind, json.dumps(body).encode())


def test_the_shipped_list_declares_answers_that_compile() -> None:
    listed = load_operations(REFERENCE_FILE)
    assert listed.answers["repoGet"] == Answer(200, "repository")
    assert listed.answers["repoGetContents"].schemas == ("contents", "contents_list")
    assert listed.answers["repoDelete"] == Answer(204, "")
    for spec in {answer.spec for answer in listed.answers.values() if answer.spec}:
        body_validator(spec)


def test_every_shipped_schema_keeps_the_2020_12_meta_schema() -> None:
    files = sorted(SCHEMAS_DIR.glob("*.json"))
    assert len(files) > 100
    for path in files:
        Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_a_date_where_a_number_belongs_is_a_violation_with_operation_pointer_and_difference(contract: Contract) -> None:
    violation = _check(contract, "GET", "settings/api", 200, {**SETTINGS, "default_max_blob_size": A_DATE})
    assert violation is not None
    assert (violation.operation_id, violation.method, violation.path) == (
        "getGeneralAPISettings",
        "GET",
        "/settings/api",
    )
    assert violation.differences == (Difference("/default_max_blob_size", "integer", f'string "{A_DATE}"'),)
    rendered = str(ContractViolation([violation]))
    assert "getGeneralAPISettings (GET /settings/api) answered 200, not matching general_api_settings" in rendered
    assert f'at /default_max_blob_size: expected integer, found string "{A_DATE}"' in rendered
    assert _check(contract, "GET", "settings/api", 200, SETTINGS) is None
    assert contract.validated >= 2 and contract.violations >= 1


def test_arrays_nullable_references_and_either_answers_point_into_the_item(contract: Contract) -> None:
    user = {"id": 1, "login": "a", "full_name": "", "email": "", "avatar_url": "", "is_admin": False, "created": A_DATE}
    assert _check(contract, "GET", "admin/users", 200, [user, user]) is None
    broken = _check(contract, "GET", "admin/users", 200, [user, {**user, "is_admin": "no"}])
    assert broken is not None and broken.differences == (Difference("/1/is_admin", "boolean", 'string "no"'),)
    missing = _check(contract, "GET", "user", 200, {key: value for key, value in user.items() if key != "login"})
    assert missing is not None and missing.differences == (Difference("/login", "a required property", "nothing"),)
    directory = _check(contract, "GET", "repos/o/r/contents/docs", 200, [{"name": 3}])
    assert directory is not None and directory.differences[0].pointer.startswith("/0")  # the listing, not the file


def test_refusals_are_held_to_the_error_schema_and_the_topic_routes_to_their_own(contract: Contract) -> None:
    assert _check(contract, "GET", "repos/o/r", 404, {"message": "not found", "url": "https://x"}) is None
    refused = _check(contract, "GET", "repos/o/r", 404, {"message": "not found"})
    assert refused is not None and refused.schema == "error" and refused.differences[0].pointer == "/url"
    topics = {"message": "invalid topics", "invalidTopics": ["A B"]}
    assert _check(contract, "PUT", "repos/o/r/topics", 422, topics) is None
    unknown = _check(contract, "GET", "no/such/route", 404, {"msg": "?"})
    assert unknown is not None and unknown.operation_id.startswith("(an operation the kit does not know")


@pytest.mark.parametrize(
    ("method", "path", "status", "kind"),
    [
        ("GET", "repos/o/r", 201, JSON),  # not the declared success status
        ("GET", "repos/o/r", 307, JSON),  # a redirect
        ("HEAD", "repos/o/r", 200, JSON),
        ("GET", "repos/o/r/compare/a...b", 200, "text/plain"),  # not JSON: a diff, a file, rendered text
        ("GET", "repos/o/r/pulls/1.diff", 404, "text/plain"),
        ("GET", "-/clock", 200, JSON),  # the reference's test hooks are not forge operations
        ("GET", "no/such/route", 200, JSON),
    ],
)
def test_answers_outside_the_contract_are_left_alone(
    contract: Contract, method: str, path: str, status: int, kind: str
) -> None:
    assert _check(contract, method, path, status, {"id": "x"}, kind=kind) is None
    assert contract.covers(method, API + path, status, kind) == ""


def test_answers_outside_the_api_root_are_left_alone(contract: Contract) -> None:
    assert contract.check("GET", "http://forge.test/sub/swagger.v1.json", 200, JSON, b"{}") is None
    assert contract.check("GET", "http://other.test/sub/api/v1/user", 200, JSON, b"{}") is None


def test_a_literal_segment_wins_over_a_parameter(contract: Contract) -> None:
    assert contract.covers("GET", API + "repos/search", 200, JSON) != contract.covers(
        "GET", API + "repos/o/r", 200, JSON
    )
    assert contract.covers("GET", API + "repos/o/r/issues/comments/5", 200, JSON) == "comment"
    assert contract.covers("GET", API + "repos/o/r/issues/5/comments", 200, JSON) == "[comment]"
    assert contract.covers("GET", API + "repos/o/r/contents/a/b/c.txt", 200, JSON) == "contents|contents_list"


def test_a_body_that_is_not_the_json_its_type_says_is_a_violation(contract: Contract) -> None:
    violation = contract.check("GET", API + "version", 200, JSON, b"<html>oops</html>")
    assert violation is not None and violation.differences[0].expected.startswith("a JSON document")


def _response(url: str, status: int, body: Any) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = json.dumps(body).encode()
    response.headers = CaseInsensitiveDict({"Content-Type": JSON})
    response.url = url
    return response


def test_the_recorder_keeps_breaches_for_the_plugin_with_credentials_masked() -> None:
    secret = "s3cr3t-value-of-forty-characters-000000"
    unregistered = "gdt_" + "x" * 30 + "-leaked"
    listed = OperationList(
        "test",
        (("POST", "/tokens", "mint", "user"), ("POST", "/keys", "key", "repository")),
        {"mint": Answer(201, "[version]"), "key": Answer(201, "deploy_token_created")},
    )
    recorder = Recorder(contract=Contract(API, listed))
    recorder.add_secret(secret)
    deploy_key = {"id": 1, "url": "http://x", "title": "t", "created_at": A_DATE, "read_only": True}
    mint, key = requests.Request("POST", API + "tokens").prepare(), requests.Request("POST", API + "keys").prepare()
    recorder.check(mint, _response(API + "tokens", 201, [{"version": 7}]))
    recorder.check(mint, _response(API + "tokens", 201, secret))
    recorder.check(key, _response(API + "keys", 201, {**deploy_key, "key": unregistered}))
    taken = recorder.take_violations()
    assert [violation.differences[0].found for violation in taken] == ["integer 7", f'string "{MASK}"', MASK]
    assert taken[2].differences[0].pointer == "/key", "a secret-looking field is hidden even when not registered"
    assert recorder.take_violations() == [], "a breach fails one step only"
    recorder.check(mint, _response(API + "tokens", 201, [{"version": 7}]))
    recorder.start_page()
    assert recorder.take_violations() == [], "a new scenario starts clean"


def test_a_recorder_without_a_contract_checks_nothing() -> None:
    recorder = Recorder()
    prepared = requests.Request("GET", API + "version").prepare()
    recorder.check(prepared, _response(API + "version", 200, {"version": 7}))
    assert recorder.take_violations() == []


# --- the proof: a fake forge breaks the contract in a field no step reads --------------------------


@pytest.fixture(scope="module")
def fake_forge() -> Iterator[str]:
    """A forge that answers correctly, except a date in ``default_max_blob_size`` and an error without ``url``."""
    app = Flask("fake-forge")

    @app.get("/api/v1/version")
    def version() -> Response:
        return jsonify(version="1.27.3")

    @app.get("/api/v1/user")
    def user() -> Response:
        return jsonify(id=1, login="root", full_name="", email="", avatar_url="", is_admin=True, created=A_DATE)

    @app.get("/api/v1/settings/api")
    def settings() -> Response:
        return jsonify({**SETTINGS, "default_max_blob_size": A_DATE})

    @app.get("/api/v1/repos/<owner>/<repo>")
    def repository(owner: str, repo: str) -> tuple[Response, int]:
        return jsonify(message="repository not found"), 404

    server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


FEATURE = """\
@api_description
Feature: A forge breaking its contract
  @gitea
  Scenario: The settings are read for their status only
    When the admin sends GET "settings/api"
    Then the response status is 200

  @gitea
  Scenario: The server version keeps its contract
    When the admin sends GET "version"
    Then the response status is 200

  @gitea
  Scenario: A refusal without the documentation URL
    When the admin sends GET "repos/nobody/nothing"
    Then the response status is 404
"""
CONFTEST = 'pytest_plugins = ["conformance.plugin", "steps.common"]\n'
BINDING = """\
from pathlib import Path
from pytest_bdd import scenarios

scenarios(str(Path(__file__).parent / "contract.feature"))
"""
PROFILE = "name: contract\nsources: [spec, gitea, reference]\n"
TARGET = ("--token", "0" * 40, "--target")


def test_a_date_where_a_number_belongs_fails_the_scenario_on_a_live_target(fake_forge: str, tmp_path: Path) -> None:
    (tmp_path / "contract.feature").write_text(FEATURE, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_contract.py").write_text(BINDING, encoding="utf-8")
    (tmp_path / "profile.yaml").write_text(PROFILE, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--report-dir", "out", "--profile", "profile.yaml", *TARGET, fake_forge],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    output = completed.stdout + completed.stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    validate(results, "results.schema")
    scenarios = {scenario["name"]: scenario for scenario in results["scenarios"]}
    assert completed.returncode == 1, output
    settings = scenarios["The settings are read for their status only"]
    assert settings["outcome"] == "failed", output
    assert "getGeneralAPISettings (GET /settings/api) answered 200" in settings["message"], settings["message"]
    assert f'at /default_max_blob_size: expected integer, found string "{A_DATE}"' in settings["message"]
    assert [step["status"] for step in settings["steps"]] == ["failed", "not run"], "the When step fails"
    refusal = scenarios["A refusal without the documentation URL"]
    assert refusal["outcome"] == "failed" and "at /url: expected a required property" in refusal["message"]
    assert scenarios["The server version keeps its contract"]["outcome"] == "passed"
    assert results["contract"] == {"validated": 3, "violations": 2, "seconds": results["contract"]["seconds"]}
    assert "API contract: 3 JSON answers validated" in output
