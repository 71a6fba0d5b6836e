"""User badges: configured definitions, the admin list/add/remove API, the reference-only hook, the CLI file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.app import create_app
from reference_server.badges.errors import BadgeFileError
from reference_server.badges.models import BadgeDefinition, load_badge_file
from reference_server.cli import main as cli_main
from reference_server.config import Config

ADMIN = {"Authorization": "token " + "b" * 40}
DEFINED = (
    BadgeDefinition("early-adopter", "Joined early", "https://img.example/early.png"),
    BadgeDefinition("reviewer", "Reviews a lot", "https://img.example/reviewer.png"),
)


@pytest.fixture
def badge_app(tmp_path: Path) -> Iterator[Flask]:
    config = Config(data_dir=tmp_path / "data", admin_token="b" * 40, badges=DEFINED, test_hooks=True)
    app = create_app(config)
    yield app
    app.extensions["forge"].db.close()


@pytest.fixture
def api(badge_app: Flask) -> FlaskClient:
    client = badge_app.test_client()
    created = client.post(
        "/api/v1/admin/users",
        json={"username": "carol", "email": "carol@example.test", "password": "pw-carol-carol"},
        headers=ADMIN,
    )
    assert created.status_code == 201
    return client


def _badges(api: FlaskClient) -> list[str]:
    response = api.get("/api/v1/admin/users/carol/badges", headers=ADMIN)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["X-Total-Count"] == str(len(response.get_json()))
    return [badge["slug"] for badge in response.get_json()]


def test_add_list_remove(api: FlaskClient) -> None:
    assert _badges(api) == []
    added = api.post(
        "/api/v1/admin/users/carol/badges", json={"badge_slugs": ["reviewer", "early-adopter"]}, headers=ADMIN
    )
    assert added.status_code == 204
    listed = api.get("/api/v1/admin/users/carol/badges", headers=ADMIN).get_json()
    assert listed[0] == {
        "id": listed[0]["id"],
        "slug": "early-adopter",
        "description": "Joined early",
        "image_url": "https://img.example/early.png",
    }
    again = api.post("/api/v1/admin/users/carol/badges", json={"badge_slugs": ["reviewer"]}, headers=ADMIN)
    assert again.status_code == 204 and _badges(api) == ["early-adopter", "reviewer"]
    removed = api.delete(
        "/api/v1/admin/users/carol/badges", json={"badge_slugs": ["reviewer", "never-defined"]}, headers=ADMIN
    )
    assert removed.status_code == 204 and _badges(api) == ["early-adopter"]


def test_an_unknown_slug_gives_nothing(api: FlaskClient) -> None:
    response = api.post("/api/v1/admin/users/carol/badges", json={"badge_slugs": ["reviewer", "nope"]}, headers=ADMIN)
    assert response.status_code == 422
    assert response.get_json()["message"] == "badge does not exist [slug: nope]"
    assert _badges(api) == []


@pytest.mark.parametrize("body", [{"badge_slugs": "reviewer"}, {"badge_slugs": [1]}, ["reviewer"]])
def test_malformed_bodies(api: FlaskClient, body: object) -> None:
    assert api.post("/api/v1/admin/users/carol/badges", json=body, headers=ADMIN).status_code == 422


def test_admin_only_and_unknown_user(api: FlaskClient) -> None:
    token = api.post(
        "/api/v1/users/carol/tokens", json={"name": "t", "scopes": ["all"]}, auth=("carol", "pw-carol-carol")
    ).get_json()["sha1"]
    mine = {"Authorization": f"token {token}"}
    for method in ("GET", "POST", "DELETE"):
        assert api.open("/api/v1/admin/users/carol/badges", method=method, json={}, headers=mine).status_code == 403
        assert api.open("/api/v1/admin/users/nobody/badges", method=method, json={}, headers=ADMIN).status_code == 404
    assert api.get("/api/v1/admin/users/carol/badges").status_code == 401


def test_definitions_from_the_hook_and_deleting_the_user(api: FlaskClient) -> None:
    defined = api.put("/api/v1/-/reference/badges/helper", json={"description": "Helps"}, headers=ADMIN)
    assert defined.status_code == 200 and defined.get_json()["slug"] == "helper"
    assert api.put("/api/v1/-/reference/badges/with%20space", json={}, headers=ADMIN).status_code == 422
    listed = api.get("/api/v1/-/reference/badges", headers=ADMIN).get_json()
    assert [badge["slug"] for badge in listed] == ["early-adopter", "reviewer", "helper"]
    assert (
        api.post("/api/v1/admin/users/carol/badges", json={"badge_slugs": ["helper"]}, headers=ADMIN).status_code == 204
    )
    assert api.delete("/api/v1/-/reference/badges/helper", headers=ADMIN).status_code == 204
    assert api.delete("/api/v1/-/reference/badges/helper", headers=ADMIN).status_code == 404
    assert _badges(api) == []
    assert api.delete("/api/v1/admin/users/carol", headers=ADMIN).status_code == 204


def test_the_hook_exists_only_with_test_hooks(tmp_path: Path) -> None:
    app = create_app(Config(data_dir=tmp_path / "data", admin_token="b" * 40))
    try:
        assert app.test_client().put("/api/v1/-/reference/badges/x", json={}, headers=ADMIN).status_code == 404
    finally:
        app.extensions["forge"].db.close()


def test_badge_files(tmp_path: Path) -> None:
    yaml_file = tmp_path / "badges.yaml"
    yaml_file.write_text("- slug: a\n  description: first\n- slug: b\n  image_url: https://img.example/b.png\n")
    assert load_badge_file(yaml_file) == (
        BadgeDefinition("a", "first", ""),
        BadgeDefinition("b", "", "https://img.example/b.png"),
    )
    json_file = tmp_path / "badges.json"
    json_file.write_text(json.dumps([{"slug": "c"}]))
    assert load_badge_file(json_file) == (BadgeDefinition("c"),)
    for bad in ("slug: a\n", "- slug: a\n- slug: a\n", "- description: no slug\n", "- [x]\n", ": : :\n"):
        yaml_file.write_text(bad)
        with pytest.raises(BadgeFileError):
            load_badge_file(yaml_file)
    with pytest.raises(BadgeFileError):
        load_badge_file(tmp_path / "missing.yaml")


def test_the_cli_refuses_a_bad_badge_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "badges.yaml"
    bad.write_text("- slug: ''\n")
    assert cli_main(["--data-dir", str(tmp_path / "d"), "--port", "0", "--badges", str(bad)]) == 2
    assert "slug" in capsys.readouterr().err


def test_configured_definitions_are_updated_on_restart(tmp_path: Path) -> None:
    first = Config(data_dir=tmp_path / "data", admin_token="b" * 40, badges=(BadgeDefinition("x", "old"),))
    create_app(first).extensions["forge"].db.close()
    second = Config(data_dir=tmp_path / "data", admin_token="b" * 40, badges=(BadgeDefinition("x", "new"),))
    app = create_app(second)
    try:
        with app.app_context():
            from reference_server.badges import store

            row = store.badge_by_slug("x")
            assert row is not None and row["description"] == "new"
    finally:
        app.extensions["forge"].db.close()
