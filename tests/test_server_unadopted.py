"""Unadopted repositories: directories under the repository root without a record, listed, adopted, deleted."""

from __future__ import annotations

import shutil

from flask import Flask
from flask.testing import FlaskClient

API = "/api/v1"


def _stray(app: Flask, client: FlaskClient, admin: dict[str, str]) -> str:
    """A repository directory no record claims: a copy of a real repository's under another name."""
    made = client.post(f"{API}/user/repos", headers=admin, json={"name": "source", "auto_init": True})
    assert made.status_code == 201
    owner = str(made.get_json()["owner"]["login"])
    root = app.extensions["forge"].config.data_dir / "git" / owner.lower()
    shutil.copytree(root / "source.git", root / "stray.git")
    return owner


def test_a_stray_directory_is_listed_then_adopted_as_a_private_repository(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    owner = _stray(app, client, admin_headers)
    listed = client.get(f"{API}/admin/unadopted", headers=admin_headers)
    assert listed.get_json() == [f"{owner}/stray"] and listed.headers["X-Total-Count"] == "1"
    assert client.get(f"{API}/admin/unadopted?pattern=*/str*", headers=admin_headers).get_json() == [f"{owner}/stray"]
    assert client.get(f"{API}/admin/unadopted?query=nomatch", headers=admin_headers).get_json() == []
    assert client.post(f"{API}/admin/unadopted/{owner}/stray", headers=admin_headers).status_code == 204
    repo = client.get(f"{API}/repos/{owner}/stray", headers=admin_headers).get_json()
    assert repo["private"] is True and repo["default_branch"] == "main" and repo["empty"] is False
    assert client.get(f"{API}/admin/unadopted", headers=admin_headers).get_json() == []
    again = client.post(f"{API}/admin/unadopted/{owner}/stray", headers=admin_headers)
    assert again.status_code == 404, "an adopted directory is claimed"


def test_a_stray_directory_is_deleted_and_a_claimed_one_is_not(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    owner = _stray(app, client, admin_headers)
    assert client.delete(f"{API}/admin/unadopted/{owner}/source", headers=admin_headers).status_code == 404
    assert client.delete(f"{API}/admin/unadopted/{owner}/stray", headers=admin_headers).status_code == 204
    root = app.extensions["forge"].config.data_dir / "git" / owner.lower()
    assert not (root / "stray.git").exists() and (root / "source.git").is_dir()
    assert client.delete(f"{API}/admin/unadopted/{owner}/stray", headers=admin_headers).status_code == 404
    assert client.post(f"{API}/admin/unadopted/nobody/stray", headers=admin_headers).status_code == 404
