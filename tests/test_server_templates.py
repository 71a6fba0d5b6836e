"""Templates family: the license, gitignore and label template routes and the files a new repository gets."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.templates import models
from reference_server.templates.errors import UnknownCreationTemplate
from reference_server.templates.repo_init import creation_templates

API = "/api/v1"


def test_license_list_is_every_spdx_license_in_byte_order(client: FlaskClient) -> None:
    response = client.get(f"{API}/licenses")
    assert response.status_code == 200
    body = response.json
    assert isinstance(body, list) and len(body) > 500
    keys = [entry["key"] for entry in body]
    assert keys == sorted(keys)
    mit = next(entry for entry in body if entry["key"] == "MIT")
    assert mit == {"key": "MIT", "name": "MIT", "url": "http://forge.test/api/v1/licenses/MIT"}


def test_license_info_has_the_text_and_unknown_names_are_404(client: FlaskClient) -> None:
    info = client.get(f"{API}/licenses/Apache-2.0").json
    assert info is not None and info["key"] == "Apache-2.0" and info["implementation"] == ""
    assert info["body"].startswith("Apache License") and info["body"].endswith("\n")
    missing = client.get(f"{API}/licenses/mit")  # names are case-sensitive, as Gitea's file names
    assert missing.status_code == 404 and set(missing.json or {}) == {"message", "url"}


def test_gitignore_templates_list_and_read(client: FlaskClient) -> None:
    names = client.get(f"{API}/gitignore/templates").json or []
    assert names == sorted(names) and {"Go", "Python", "Node"} <= set(names)
    go = client.get(f"{API}/gitignore/templates/Go").json
    assert go is not None and go["name"] == "Go" and "*.exe" in go["source"]
    assert client.get(f"{API}/gitignore/templates/Cobol").status_code == 404


def test_label_templates_list_and_read(client: FlaskClient) -> None:
    assert client.get(f"{API}/label/templates").json == ["Advanced", "Default"]
    labels = client.get(f"{API}/label/templates/Default").json
    assert labels is not None and len(labels) == 7
    assert {"name": "bug", "exclusive": False, "color": "ee0701"}.items() <= labels[0].items()
    advanced = {label["name"]: label for label in client.get(f"{API}/label/templates/Advanced").json or []}
    assert advanced["Priority/High"]["exclusive"] is True and advanced["Kind/Bug"]["exclusive"] is False
    assert all(len(label["color"]) == 6 and not label["color"].startswith("#") for label in advanced.values())
    assert client.get(f"{API}/label/templates/Fancy").status_code == 404


def test_render_license_fills_the_placeholders_gitea_knows(app: Flask) -> None:
    with app.app_context():
        text = models.render_license("MIT", models.LicenseValues("acme", "a@x.test", "tool", "2031")).decode()
        assert "Copyright (c) 2031 acme" in text and "<year>" not in text
        bsd = models.render_license("BSD-2-Clause", models.LicenseValues("acme", "", "tool", "2031")).decode()
        assert "2031" in bsd


def test_gitignore_file_joins_templates_under_markers(app: Flask) -> None:
    with app.app_context():
        text = models.gitignore_file(["Go", "C"]).decode()
    assert text.startswith("# ---> Go\n")
    assert text.index("# ---> C\n") > text.index("*.exe")


@pytest.mark.parametrize(
    ("options", "mentions"),
    [
        ({"license": "Nope-1.0"}, "license template does not exist"),
        ({"gitignores": "Go, Nope"}, "gitignore template does not exist [name: Nope]"),
        ({"issue_labels": "Nope"}, 'failed to load label template file "Nope"'),
    ],
)
def test_unknown_creation_templates_are_422(app: Flask, options: dict[str, Any], mentions: str) -> None:
    with app.app_context(), pytest.raises(UnknownCreationTemplate) as raised:
        creation_templates(options)
    assert raised.value.status == 422 and mentions in raised.value.message


def test_creation_templates_trim_and_deduplicate(app: Flask) -> None:
    with app.app_context():
        chosen = creation_templates({"license": " MIT ", "gitignores": "Go,,Python,Go", "issue_labels": "Default"})
    assert (chosen.license, chosen.gitignores, chosen.issue_labels) == ("MIT", ("Go", "Python"), "Default")


def test_a_repository_gets_license_gitignore_and_labels(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    body = {"name": "seeded", "auto_init": True, "license": "MIT", "gitignores": "Go", "issue_labels": "Default"}
    created = client.post(f"{API}/user/repos", headers=admin_headers, json=body)
    assert created.status_code == 201, created.json
    full = created.json["full_name"]  # type: ignore[index]
    owner = full.split("/")[0]
    license_file = client.get(f"{API}/repos/{full}/contents/LICENSE", headers=admin_headers).json
    assert license_file is not None
    year = created.json["created_at"][:4]  # type: ignore[index]
    assert f"Copyright (c) {year} {owner}".encode() in base64.b64decode(license_file["content"])
    gitignore = client.get(f"{API}/repos/{full}/contents/.gitignore", headers=admin_headers).json
    assert gitignore is not None and base64.b64decode(gitignore["content"]).startswith(b"# ---> Go\n")
    labels = client.get(f"{API}/repos/{full}/labels", headers=admin_headers)
    assert labels.headers["X-Total-Count"] == "7"


def test_templates_are_ignored_without_auto_init_but_labels_are_made(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    body = {"name": "bare", "license": "MIT", "issue_labels": "Advanced"}
    created = client.post(f"{API}/user/repos", headers=admin_headers, json=body)
    assert created.status_code == 201 and created.json is not None and created.json["empty"] is True
    assert created.json["licenses"] == []
    labels = client.get(f"{API}/repos/{created.json['full_name']}/labels?limit=50", headers=admin_headers).json
    assert labels is not None and len(labels) == 18


def test_a_refused_creation_leaves_no_row_no_labels_and_no_git_directory(
    app: Flask, client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    refused = client.post(
        f"{API}/user/repos", headers=admin_headers, json={"name": "nope", "auto_init": True, "gitignores": "Nope"}
    )
    assert refused.status_code == 422
    data_dir = app.extensions["forge"].config.data_dir
    assert not list((data_dir / "git").rglob("nope.git"))
    with app.app_context():
        assert app.extensions["forge"].db.scalar("SELECT COUNT(*) FROM repo_label") == 0
        assert app.extensions["forge"].db.scalar("SELECT COUNT(*) FROM repos WHERE lower_name = 'nope'") == 0
