"""The OpenAPI 3 description's success bodies: the mapping names real operations and schemas, the
2020-12 -> 3.0 conversion leaves no 2020-12-only keyword, and Schemathesis accepts real answers and
rejects contradicting ones (so the fuzzers' response-schema check bites)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient

from reference_server.app import declared_endpoints
from reference_server.endpoints import EMPTY, FILE, TEXT
from reference_server.misc.openapi_schemas import (
    SCHEMAS_DIR,
    SUCCESS_STATUS_KEY,
    component_name,
    convert_schema,
    openapi30_components,
)

_PARAM = re.compile(r"<(?:[^:>]+:)?([^>]+)>")
DECLARED = {
    (_PARAM.sub(r"{\1}", endpoint.path.removeprefix("/api/v1")), endpoint.method.lower()): (
        endpoint.status,
        "" if endpoint.returns in (EMPTY, TEXT, FILE) else str(endpoint.returns),
    )
    for endpoint in declared_endpoints()
    if endpoint.is_rest and not endpoint.path.startswith("/api/v1/-/")
}
"""(path template, method) -> (status, schema spec, "" for an answer without a JSON body) of every REST operation."""

_OPENAPI30_KEYWORDS = {
    *("title", "description", "format", "default", "example", "deprecated", "readOnly", "writeOnly", "nullable"),
    *("multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength"),
    *("pattern", "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required", "enum"),
    *("type", "allOf", "oneOf", "anyOf", "not", "items", "properties", "additionalProperties", "$ref"),
}
_OPENAPI30_TYPES = {"string", "number", "integer", "boolean", "array", "object"}


def _keywords(node: Any, types: set[Any]) -> set[str]:
    """Every keyword of a schema (property names are not keywords); collects the ``type`` values."""
    if isinstance(node, list):
        return {key for item in node if isinstance(item, dict) for key in _keywords(item, types)}
    if not isinstance(node, dict):
        return set()
    if "type" in node:
        types.add(node["type"] if isinstance(node["type"], str) else repr(node["type"]))
    found = set(node)
    for key, value in node.items():
        if key == "properties":
            found |= {k for sub in value.values() for k in _keywords(sub, types)}
        elif key != "enum":
            found |= _keywords(value, types)
    return found


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        own = {node["$ref"]} if "$ref" in node else set()
        return own | {ref for value in node.values() for ref in _refs(value)}
    if isinstance(node, list):
        return {ref for item in node for ref in _refs(item)}
    return set()


def _document(client: FlaskClient) -> dict[str, Any]:
    document = client.get("/openapi3.v1.json").get_json()
    assert isinstance(document, dict)
    return document


def test_every_mapped_operation_declares_its_status_with_a_component_schema(client: FlaskClient) -> None:
    document = _document(client)
    operations = {(path, method): op for path, methods in document["paths"].items() for method, op in methods.items()}
    assert set(DECLARED) == set(operations), sorted(set(DECLARED) ^ set(operations))
    for key, (status, spec) in DECLARED.items():
        responses = operations[key]["responses"]
        assert responses[SUCCESS_STATUS_KEY] == str(status), key
        if not spec:  # no JSON body: the status alone is declared
            continue
        declared = responses[str(status)]["content"]["application/json"]["schema"]
        names = {name.strip("[]") for name in spec.split("|")}
        assert {ref.rsplit("/", 1)[-1] for ref in _refs(declared)} == {component_name(name) for name in names}
    assert document["openapi"] == "3.0.3"


def test_every_served_operation_declares_its_success_answer(client: FlaskClient) -> None:
    """The contract check needs each operation's success status and body (or that it has no JSON body)."""
    document = _document(client)
    undeclared = sorted(
        f"{method.upper()} {path} ({operation['operationId']})"
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
        if SUCCESS_STATUS_KEY not in operation["responses"]
    )
    assert not undeclared, f"operations without a declared success answer (response_schemas): {undeclared}"


def test_components_use_only_openapi30_keywords_and_every_ref_resolves(client: FlaskClient) -> None:
    components = _document(client)["components"]["schemas"]
    types: set[Any] = set()
    assert set().union(*(_keywords(schema, types) for schema in components.values())) <= _OPENAPI30_KEYWORDS
    assert types <= _OPENAPI30_TYPES
    for ref in _refs(components):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[-1] in components, ref
    mapped = {name.strip("[]") for _, spec in DECLARED.values() if spec for name in spec.split("|")}
    assert all((SCHEMAS_DIR / f"{name}.json").is_file() and component_name(name) in components for name in mapped)


def test_conversion_of_nullable_const_conditional_and_ref_with_siblings() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"const": "x"},
            "c": {"type": ["array", "string", "null"]},
            "d": {"$ref": "user.json", "description": "the poster"},
            "e": {"$ref": "#/$defs/id"},
            "f": {"anyOf": [{"type": "null"}, {"$ref": "comment.json"}]},
        },
        "if": {"properties": {"b": {"const": "x"}}},
        "then": {"required": ["a"]},
    }
    assert convert_schema(schema, "sample.json") == {
        "type": "object",
        "properties": {
            "a": {"type": "string", "nullable": True},
            "b": {"enum": ["x"]},
            "c": {"nullable": True, "anyOf": [{"type": "array"}, {"type": "string"}]},
            "d": {"allOf": [{"$ref": "#/components/schemas/schema_user"}], "description": "the poster"},
            "e": {"$ref": "#/components/schemas/schema_sample__id"},
            "f": {
                "anyOf": [
                    {"type": "string", "nullable": True, "enum": [None]},
                    {"$ref": "#/components/schemas/schema_comment"},
                ]
            },
        },
        "allOf": [{"anyOf": [{"not": {"properties": {"b": {"enum": ["x"]}}}}, {"required": ["a"]}]}],
    }


def test_conversion_refuses_a_ref_it_cannot_place() -> None:
    with pytest.raises(ValueError, match="unsupported"):
        convert_schema({"$ref": "user.json#/properties/login"}, "sample.json")


def test_components_are_built_once() -> None:
    names = frozenset({"user", "repository"})
    assert openapi30_components(names) is openapi30_components(names)


def test_schemathesis_accepts_real_answers_and_rejects_contradicting_ones(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    made = client.post("/api/v1/user/repos", json={"name": "checked", "auto_init": True}, headers=admin_headers)
    assert made.status_code == 201
    full_name = made.get_json()["full_name"]
    client.post(f"/api/v1/repos/{full_name}/issues", json={"title": "first"}, headers=admin_headers)
    schema = schemathesis.openapi.from_wsgi("/openapi3.v1.json", app)
    get_repo = schema["/repos/{owner}/{repo}"]["GET"]
    list_issues = schema["/repos/{owner}/{repo}/issues"]["GET"]
    repo = client.get(f"/api/v1/repos/{full_name}", headers=admin_headers)
    issues = client.get(f"/api/v1/repos/{full_name}/issues", headers=admin_headers)
    assert get_repo.is_valid_response(repo)
    assert list_issues.is_valid_response(issues)
    assert issues.get_json()[0]["milestone"] is None  # a nullable field really is null and passes
    repo.set_data(json.dumps({**repo.get_json(), "id": "not a number"}))
    issues.set_data(json.dumps([{"title": "no other field"}]))
    assert not get_repo.is_valid_response(repo)
    assert not list_issues.is_valid_response(issues)
