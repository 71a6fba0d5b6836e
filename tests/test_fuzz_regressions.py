"""One test per class of defect the fuzzers found, so each stays fixed without running the fuzzers."""

from __future__ import annotations

import base64
import random
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_artifacts_support import SERVICE, Job, actions, app_context, job, twirp_error

from reference_server.app import _decimal_at_most
from reference_server.rest import decode_json

__all__ = ["actions", "app_context", "job"]  # fixtures used by name

DEEP_ARRAY = b"[" * 100_000
DEEP_OBJECT = b'{"a":' * 100_000


def _repo(client: FlaskClient, admin_headers: dict[str, str]) -> str:
    made = client.post("/api/v1/user/repos", json={"name": "deep", "auto_init": True}, headers=admin_headers)
    assert made.status_code == 201, made.get_data(as_text=True)
    return f"/api/v1/repos/{made.get_json()['full_name']}"


# --- JSON nested deeper than the decoder's stack: RecursionError escaped as a 500 -------------------


@pytest.mark.parametrize("raw", [DEEP_ARRAY, DEEP_OBJECT, DEEP_ARRAY.decode()], ids=["array", "object", "text"])
def test_decode_json_turns_deep_nesting_into_a_value_error(raw: str | bytes) -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        decode_json(raw)


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_deep_json_rest_body_is_422_and_creates_nothing(
    client: FlaskClient, admin_headers: dict[str, str], body: bytes
) -> None:
    headers = {**admin_headers, "Content-Type": "application/json"}
    response = client.post("/api/v1/user/repos", data=body, headers=headers)
    assert response.status_code == 422
    assert "nested too deeply" in response.get_json()["message"]
    assert client.get("/api/v1/user/repos", headers=admin_headers).get_json() == []


def test_deep_json_in_the_contents_ext_query_body_is_400(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    repo = _repo(client, admin_headers)
    response = client.get(f"{repo}/file-contents", query_string={"body": DEEP_ARRAY.decode()}, headers=admin_headers)
    assert response.status_code == 400
    assert response.get_json()["message"] == "invalid body parameter"


def test_deep_json_lfs_batch_body_is_400(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    _repo(client, admin_headers)
    media = "application/vnd.git-lfs+json"
    basic = base64.b64encode(f"forge_admin:{admin_headers['Authorization'].split()[1]}".encode()).decode()
    response = client.post(
        "/forge_admin/deep.git/info/lfs/objects/batch",
        data=DEEP_OBJECT,
        headers={"Authorization": f"Basic {basic}", "Accept": media, "Content-Type": media},
    )
    assert response.status_code == 400
    assert "not valid JSON" in response.get_json()["message"]


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_deep_json_twirp_body_is_malformed(job: Job, body: bytes) -> None:
    response = job.client.post(
        SERVICE + "CreateArtifact",
        data=body,
        headers={"Authorization": f"Bearer {job.token}", "Content-Type": "application/json"},
    )
    assert "nested too deeply" in twirp_error(response, 400, "malformed")


# --- integer path segments beyond SQLite's 64-bit integers: OverflowError escaped as a 500 ------------


@pytest.mark.parametrize("number", [2**63, 10**30], ids=["int64+1", "huge"])
def test_integer_path_segments_beyond_int64_name_nothing(
    client: FlaskClient, admin_headers: dict[str, str], number: int
) -> None:
    repo = _repo(client, admin_headers)
    for path in (f"/api/v1/teams/{number}", f"{repo}/issues/{number}", f"{repo}/labels/{number}"):
        for method in ("GET", "PATCH", "DELETE"):  # several operations share these paths, one per method
            response = client.open(path, method=method, headers=admin_headers)
            assert response.status_code == 404, f"{method} {path}: {response.status_code}"
            assert response.get_json()["message"] == "not found"
    assert client.get(f"{repo}/issues/{2**63 - 1}", headers=admin_headers).status_code == 404  # still routed


# --- an IssueMeta index beyond 64 bits: OverflowError escaped as a 500 ---------------------------------


@pytest.mark.parametrize("number", [2**63, -(2**63) - 1], ids=["int64+1", "int64-1"])
@pytest.mark.parametrize("link", ["dependencies", "blocks"])
def test_issue_meta_index_beyond_int64_is_422_and_links_nothing(
    client: FlaskClient, admin_headers: dict[str, str], number: int, link: str
) -> None:
    repo = _repo(client, admin_headers)
    assert client.post(f"{repo}/issues", json={"title": "one"}, headers=admin_headers).status_code == 201
    response = client.post(f"{repo}/issues/1/{link}", json={"index": number}, headers=admin_headers)
    assert response.status_code == 422
    assert response.get_json()["message"] == "[Index]: must be a 64-bit integer"
    assert client.get(f"{repo}/issues/1/{link}", headers=admin_headers).get_json() == []


# --- answers without a body carried Flask's default "text/html" ------------------------------------


def test_empty_answers_carry_no_content_type(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    repo = _repo(client, admin_headers)
    label = client.post(f"{repo}/labels", json={"name": "x", "color": "#00aabb"}, headers=admin_headers)
    deleted = client.delete(f"{repo}/labels/{label.get_json()['id']}", headers=admin_headers)
    assert deleted.status_code == 204
    assert "Content-Type" not in deleted.headers
    assert deleted.get_data() == b""


# --- the description the fuzzer reads ---------------------------------------------------------------


def test_description_types_path_parameters_and_declares_bodies(app: Flask, client: FlaskClient) -> None:
    doc = client.get("/openapi3.v1.json").get_json()
    label = doc["paths"]["/repos/{owner}/{repo}/labels/{label_id}"]
    label_id = next(p for p in label["get"]["parameters"] if p["name"] == "label_id")
    assert label_id["schema"] == {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
    owner = next(p for p in label["get"]["parameters"] if p["name"] == "owner")
    assert owner["schema"]["minLength"] == 1
    create = doc["paths"]["/repos/{owner}/{repo}/issues"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CreateIssueOption"
    }
    model = doc["components"]["schemas"]["CreateIssueOption"]
    assert model["required"] == ["title"] and model["properties"]["labels"]["items"]["type"] == "integer"
    raw = doc["paths"]["/markdown/raw"]["post"]["requestBody"]["content"]
    assert list(raw) == ["text/plain"]
    statuses = {"200", "204", "2XX", "3XX", "4XX", "x-success-status"}  # x-: the declared success, for the harness
    assert set(label["get"]["responses"]) == statuses  # a 5xx is never a documented answer
    assert set(doc["paths"]["/version"]["get"]["responses"]) == statuses - {"3XX"}  # no account, no redirect
    ok = label["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/schema_label"}  # the success body is checked, not "any JSON"
    swagger = client.get("/swagger.v1.json").get_json()
    body = next(p for p in swagger["paths"]["/repos/{owner}/{repo}/issues"]["post"]["parameters"] if p["in"] == "body")
    assert body["schema"] == {"$ref": "#/definitions/CreateIssueOption"}


# --- lone UTF-16 surrogates in JSON text: UnicodeEncodeError escaped as a 500 (edge-string pass) ------


@pytest.mark.parametrize(
    ("raw", "text"),
    [('{"t":"\\ud800"}', "\ufffd"), (b'{"t":"x\\udc00y"}', "x\ufffdy"), (b'{"t":"\\udfff\\ud800"}', "\ufffd\ufffd")],
    ids=["high", "low", "reversed-pair"],
)
def test_decode_json_replaces_lone_surrogates_as_go_does(raw: str | bytes, text: str) -> None:
    assert decode_json(raw) == {"t": text}
    assert decode_json(b'{"t":"\\ud83d\\ude00"}') == {"t": "\U0001f600"}  # a real pair stays one character


def test_lone_surrogate_issue_title_is_stored_as_replacement_character(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    repo = _repo(client, admin_headers)
    headers = {**admin_headers, "Content-Type": "application/json"}
    made = client.post(f"{repo}/issues", data=b'{"title":"a\\ud800b","body":"\\udc00"}', headers=headers)
    assert made.status_code == 201, made.get_data(as_text=True)
    assert (made.get_json()["title"], made.get_json()["body"]) == ("a\ufffdb", "\ufffd")
    read = client.get(f"{repo}/issues/{made.get_json()['number']}", headers=admin_headers)
    assert read.status_code == 200 and read.get_json()["title"] == "a\ufffdb"


def test_the_int64_pattern_accepts_exactly_the_numbers_up_to_its_limit() -> None:
    pattern = re.compile(_decimal_at_most(2**63 - 1) + r"\Z")
    edges = [0, 9, 10, 2**63 - 1, 2**63 - 10, 2**63, 2**63 + 9, 2**64, 10**18, 10**19, 922337203685477580]
    draw = random.Random(20261128)  # noqa: S311 - test numbers, not secrets
    drawn = [draw.randrange(2**64) for _ in range(2000)]
    for number in edges + drawn:
        assert bool(pattern.match(str(number))) == (number <= 2**63 - 1), number
    assert pattern.match("007") and not pattern.match("-1")
