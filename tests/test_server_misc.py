"""Version, API settings, the API description built from real routes, and the reference-only clock hook."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from reference_server.app import create_app
from reference_server.config import Config, Limits, SystemClock

ADMIN_TOKEN = "0123456789abcdef0123456789abcdef01234567"  # the token tests/conftest.py configures


def test_version_is_public(client: FlaskClient) -> None:
    response = client.get("/api/v1/version")
    assert response.status_code == 200
    assert response.json == {"version": "1.27.3+reference"}
    assert response.headers["Content-Type"] == "application/json;charset=utf-8"


def test_api_settings_follow_the_limits(tmp_path: Path) -> None:
    limits = Limits(default_paging_num=7, max_response_items=9)
    app = create_app(Config(data_dir=tmp_path / "d", admin_token=ADMIN_TOKEN, limits=limits))
    response = app.test_client().get("/api/v1/settings/api")
    assert response.status_code == 200
    assert response.json == {
        "max_response_items": 9,
        "default_paging_num": 7,
        "default_git_trees_per_page": 1000,
        "default_max_blob_size": 10485760,
        "default_max_response_size": 104857600,
    }
    app.extensions["forge"].db.close()


def test_swagger_lists_the_registered_api_routes(app: Flask, client: FlaskClient) -> None:
    response = client.get("/swagger.v1.json")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    doc = response.json
    assert doc is not None
    assert doc["swagger"] == "2.0"
    assert doc["info"]["version"] == "0.0.0+1.27.3+reference"
    assert doc["basePath"] == "/api/v1"
    paths = doc["paths"]
    assert paths["/repos/{owner}/{repo}/contents/{filepath}"].keys() == {"get", "post", "put", "delete"}
    assert paths["/repos/{owner}/{repo}"]["get"]["operationId"] == "repoGet"
    assert paths["/repos/{owner}/{repo}"]["get"]["summary"] == "A repository."
    assert paths["/repos/{owner}/{repo}"]["get"]["x-family"] == "repos"
    assert paths["/repos/{owner}/{repo}"]["get"]["tags"] == ["repository"]
    assert paths["/admin/users"]["post"]["tags"] == ["admin"]
    assert paths["/orgs"]["post"]["tags"] == ["organization"]
    assert paths["/user"]["get"]["tags"] == ["user"]
    assert paths["/version"]["get"]["tags"] == ["miscellaneous"]
    assert paths["/settings/api"]["get"]["tags"] == ["settings"]
    params = paths["/users/{username}/tokens/{token}"]["delete"]["parameters"]
    assert [(p["name"], p["in"], p["required"]) for p in params] == [
        ("username", "path", True),
        ("token", "path", True),
    ]
    assert "/-/reference/clock" not in paths  # reference-only hooks are not part of the forge API
    registered = {
        re.sub(r"<(?:[^:<>]+:)?(\w+)>", r"{\1}", rule.rule[len("/api/v1") :])
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/") and not rule.rule.startswith("/api/v1/-/")
    }
    assert set(paths) == registered
    operation_ids = [op["operationId"] for methods in paths.values() for op in methods.values()]
    assert len(operation_ids) == len(set(operation_ids))
    allowed_tags = {"admin", "issue", "miscellaneous", "notification", "organization", "package", "repository"}
    assert {tag["name"] for tag in doc["tags"]} <= allowed_tags | {"settings", "user"}


def test_openapi3_variant_and_sub_path(tmp_path: Path) -> None:
    config = Config(data_dir=tmp_path / "d", base_url="http://forge.test/git/", admin_token=ADMIN_TOKEN)
    app = create_app(config)
    client = app.test_client()
    openapi = client.get("/git/openapi3.v1.json")
    assert openapi.status_code == 200 and openapi.json is not None
    assert openapi.json["openapi"] == "3.0.3"
    assert openapi.json["servers"] == [{"url": "/git/api/v1"}]
    assert openapi.json["info"]["version"] == "0.0.0+1.27.3+reference"
    get = openapi.json["paths"]["/repos/{owner}/{repo}"]["get"]
    assert get["parameters"][0]["schema"] == {"type": "string", "minLength": 1, "pattern": "^[^/]+$"}
    swagger = client.get("/git/swagger.v1.json").json
    assert swagger is not None and swagger["basePath"] == "/git/api/v1"
    assert client.get("/git/api/v1/version").status_code == 200
    app.extensions["forge"].db.close()


def test_clock_hook_moves_the_server_clock(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    clock = app.extensions["forge"].config.clock
    assert isinstance(clock, SystemClock)
    before = client.get("/api/v1/-/reference/clock", headers=admin_headers)
    assert before.status_code == 200 and before.json is not None and before.json["offset_seconds"] == 0.0
    moved = client.put("/api/v1/-/reference/clock", headers=admin_headers, json={"offset_seconds": 7200})
    assert moved.status_code == 200 and moved.json is not None and moved.json["offset_seconds"] == 7200.0
    assert clock.offset_seconds == 7200.0
    server_now = datetime.fromisoformat(moved.json["now"])
    assert 7190 < (server_now - datetime.now(UTC)).total_seconds() < 7210
    back = client.put("/api/v1/-/reference/clock", headers=admin_headers, json={"offset_seconds": -1.5})
    assert back.status_code == 200 and clock.offset_seconds == -1.5


def test_clock_hook_refuses_bad_input_and_non_admins(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    for body in ({}, {"offset_seconds": "10"}, {"offset_seconds": True}, {"offset_seconds": None}):
        response = client.put("/api/v1/-/reference/clock", headers=admin_headers, json=body)
        assert response.status_code == 422, body
        assert response.json is not None and "offset" in response.json["message"].lower()
    json_headers = {**admin_headers, "Content-Type": "application/json"}
    infinite = client.put("/api/v1/-/reference/clock", headers=json_headers, data='{"offset_seconds": Infinity}')
    assert infinite.status_code == 422
    assert client.put("/api/v1/-/reference/clock", json={"offset_seconds": 1}).status_code == 401
    user = {"username": "u1", "email": "u1@example.com", "password": "password-123"}
    client.post("/api/v1/admin/users", headers=admin_headers, json=user)
    basic = {"Authorization": "Basic " + base64.b64encode(b"u1:password-123").decode()}
    assert client.put("/api/v1/-/reference/clock", headers=basic, json={"offset_seconds": 1}).status_code == 403
    assert client.get("/api/v1/-/reference/clock", headers=admin_headers).json["offset_seconds"] == 0.0  # type: ignore[index]


def test_clock_hook_absent_without_test_hooks(tmp_path: Path) -> None:
    app = create_app(Config(data_dir=tmp_path / "d", admin_token=ADMIN_TOKEN))
    client = app.test_client()
    headers = {"Authorization": f"token {ADMIN_TOKEN}"}
    assert client.get("/api/v1/-/reference/clock", headers=headers).status_code == 404
    assert client.put("/api/v1/-/reference/clock", headers=headers, json={"offset_seconds": 5}).status_code == 404
    app.extensions["forge"].db.close()


def test_the_general_settings_are_gitea_defaults_within_the_servers_limits(client: FlaskClient) -> None:
    ui = client.get("/api/v1/settings/ui").json
    assert ui == {
        "default_theme": "gitea-auto",
        "allowed_reactions": ["+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"],
        "custom_emojis": ["git", "gitea", "codeberg", "gitlab", "github", "gogs"],
    }
    repository = client.get("/api/v1/settings/repository").json
    assert repository is not None and not any(repository.values()) and len(repository) == 6
    attachment = client.get("/api/v1/settings/attachment").json
    assert attachment is not None and attachment["enabled"] is True and attachment["max_files"] == 5
    assert attachment["max_size"] == 64, "the server's request body limit (64 MiB), below Gitea's 2048"
    assert ".zip" in attachment["allowed_types"].split(",")
