"""Every route comes from one declaration (``routes.ENDPOINTS`` of its family), and every declaration is complete:
a tag, an access rule, a known body model, and success answers naming real ``schemas/`` files."""

from __future__ import annotations

import pytest
from flask import Flask

from reference_server.access import Rule
from reference_server.app import declared_endpoints
from reference_server.endpoints import (
    EMPTY,
    FILE,
    RAW_TEXT,
    SURFACES,
    TAGS,
    TEXT,
    UNDECLARED_REFUSAL,
    WIRE,
    Endpoint,
    endpoint_of,
)
from reference_server.misc.apidoc import swagger2
from reference_server.misc.openapi_schemas import SCHEMAS_DIR, schema_files
from reference_server.option_models import MODELS

DECLARED = declared_endpoints()


def _name(endpoint: Endpoint) -> str:
    return f"{endpoint.method} {endpoint.path} ({endpoint.operation_id})"


def test_every_route_of_the_app_is_declared(app: Flask) -> None:
    undeclared = [
        f"{method} {rule.rule}"
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
        if endpoint_of(app, rule.endpoint, method) is None
    ]
    assert not undeclared


def test_every_declaration_is_registered_once(app: Flask) -> None:
    registered = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert {endpoint.operation_id for endpoint in DECLARED} <= registered
    keys = [(endpoint.method, endpoint.path) for endpoint in DECLARED]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("endpoint", DECLARED, ids=_name)
def test_a_declaration_names_a_tag_a_rule_and_known_models(endpoint: Endpoint) -> None:
    assert endpoint.tag in (TAGS if endpoint.is_rest and not endpoint.path.startswith("/api/v1/-/") else SURFACES)
    assert isinstance(endpoint.access, Rule) and endpoint.access.kinds
    assert endpoint.body in (None, RAW_TEXT) or endpoint.body in MODELS
    assert 200 <= endpoint.status < 400  # 302: the artifact zip redirects to its signed URL
    assert all(400 <= status < 500 for status in endpoint.errors)
    if endpoint.returns not in (None, EMPTY, TEXT, FILE, WIRE):
        assert all((SCHEMAS_DIR / f"{name}.json").is_file() for name in schema_files(endpoint.returns))
    if endpoint.returns == EMPTY:
        assert endpoint.status in (200, 201, 202, 204, 302)  # 202: DELETE /orgs/{org}/repos
    else:
        assert endpoint.status < 300


@pytest.mark.parametrize("endpoint", DECLARED, ids=_name)
def test_every_declaration_says_what_it_answers(endpoint: Endpoint) -> None:
    """A JSON schema, or that the answer has no JSON body: the contract check needs one or the other."""
    assert endpoint.returns is not None, f"{_name(endpoint)} declares no success answer (returns=...)"


def test_a_route_without_a_declaration_runs_for_nobody_and_fails_the_description(
    app: Flask, admin_headers: dict[str, str]
) -> None:
    """A route added behind the table's back has no tag or rule: it refuses every caller (the access check
    fails closed, before the view) and the API description refuses to build, naming it."""
    app.add_url_rule("/api/v1/undeclared", endpoint="undeclared", view_func=lambda: "ran", methods=["GET"])
    with app.test_client() as client:
        refused = client.get("/api/v1/undeclared", headers=admin_headers)
        assert refused.status_code == 403 and refused.get_json()["message"] == UNDECLARED_REFUSAL
    with app.app_context(), pytest.raises(LookupError, match="undeclared GET"):
        swagger2(app, app.extensions["forge"])


TARGETS = {
    "repo": ("/repos/<owner>/<repo>",),
    "org": ("/orgs/<org>", "/org/<org>"),  # /org/{org}/repos: Gitea's older path of /orgs/{org}/repos
    "user": ("/users/<username>", "/packages/<username>"),
}
"""Where a path names a repository, an organization or an account whose permission an account route must declare."""


@pytest.mark.parametrize("endpoint", DECLARED, ids=_name)
def test_a_route_naming_a_repository_organization_or_account_declares_what_it_needs(endpoint: Endpoint) -> None:
    rule = endpoint.access
    by_account = bool({"token", "basic"} & set(rule.kinds))
    for target, prefixes in TARGETS.items():
        names_it = by_account and endpoint.path.removeprefix("/api/v1").startswith(prefixes)
        declared = getattr(rule, target) is not None
        assert declared == names_it, f"{target} permission declared: {declared}, path names one: {names_it}"
