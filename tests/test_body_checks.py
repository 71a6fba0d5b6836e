"""Request bodies are held to the option model their operation declares (``Endpoint.body``), after the
permission check and before the view, as Gitea's binding holds them before a handler runs."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from reference_server.bodies import SCHEMAS
from reference_server.option_models import MODELS

ISSUES = "/api/v1/repos/forge_admin/box/issues"


@pytest.fixture
def repo(client: FlaskClient, admin_headers: dict[str, str]) -> str:
    made = client.post("/api/v1/user/repos", headers=admin_headers, json={"name": "box", "private": True})
    assert made.status_code == 201, made.get_data(as_text=True)
    return str(made.get_json()["full_name"])


def _create_issue(client: FlaskClient, headers: dict[str, str], body: Any) -> tuple[int, str]:
    answer = client.post(ISSUES, headers=headers, json=body)
    return answer.status_code, str((answer.get_json() or {}).get("message", ""))


@pytest.mark.usefixtures("repo")
@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"title": 5}, "[Title]: must be a string"),
        ({"title": "t", "closed": "yes"}, "[Closed]: must be a boolean"),
        ({"title": "t", "milestone": True}, "[Milestone]: must be an integer"),
        ({"title": "t", "labels": 3}, "[Labels]: must be a list"),
        ({"title": "t", "labels": ["bug"]}, "[Labels]: must be an integer"),
        ({}, "[Title]: Required"),
        ({"title": ""}, "[Title]: Required"),
        ({"title": None}, "[Title]: Required"),
        (["title"], "the request body must be a JSON object"),
    ],
)
def test_a_body_breaking_its_model_is_refused_before_the_view(
    client: FlaskClient, admin_headers: dict[str, str], body: Any, message: str
) -> None:
    status, answer = _create_issue(client, admin_headers, body)
    assert (status, answer) == (422, message)
    listed = client.get(ISSUES + "?state=all", headers=admin_headers).get_json()
    assert listed == [], "nothing was stored"


@pytest.mark.usefixtures("repo")
def test_a_type_error_comes_before_a_missing_field(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    assert _create_issue(client, admin_headers, {"body": 1}) == (422, "[Body]: must be a string")


@pytest.mark.usefixtures("repo")
def test_fields_match_without_regard_to_case_and_null_is_absent(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    status, _ = _create_issue(client, admin_headers, {"Title": "upper", "milestone": None, "unknown": 1})
    assert status == 201


def test_the_permission_check_comes_before_the_body_check(client: FlaskClient, repo: str) -> None:
    made = client.post(
        "/api/v1/admin/users",
        headers={"Authorization": "token 0123456789abcdef0123456789abcdef01234567"},
        json={"username": "eve", "email": "eve@example.com", "password": "eve-password-1"},
    )
    assert made.status_code == 201
    basic = ("eve", "eve-password-1")
    token = client.post("/api/v1/users/eve/tokens", auth=basic, json={"name": "t", "scopes": ["all"]}).get_json()
    status, message = _create_issue(client, {"Authorization": f"token {token['sha1']}"}, {"title": 5})
    assert status == 404 and "repository does not exist" in message, f"{repo}: {status} {message}"


def test_every_model_becomes_a_schema_with_known_types() -> None:
    assert set(SCHEMAS) == set(MODELS)
    for name, schema in SCHEMAS.items():
        for field, spec in schema["properties"].items():
            kind = "object" if "$ref" in spec else spec.get("type", "any")
            assert kind in ("string", "integer", "boolean", "array", "object", "any"), f"{name}.{field}: {spec}"
