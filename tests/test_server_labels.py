"""Labels family: repository labels over REST, colour rules, permissions, and removal with the repository."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from reference_server.context import forge
from reference_server.labels import store
from reference_server.labels.errors import InvalidLabelColor
from reference_server.labels.models import normalize_color

API = "/api/v1"
PASSWORD = "correct-horse-battery"


def _basic(user: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()}


def _user(client: FlaskClient, admin: dict[str, str], name: str) -> dict[str, str]:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201
    return _basic(name)


@pytest.fixture
def repo(client: FlaskClient, admin_headers: dict[str, str]) -> tuple[str, dict[str, str]]:
    """``ann/demo`` and Ann's credentials."""
    ann = _user(client, admin_headers, "ann")
    assert client.post(f"{API}/user/repos", headers=ann, json={"name": "demo"}).status_code == 201
    return f"{API}/repos/ann/demo/labels", ann


@pytest.mark.parametrize(
    ("given", "stored"), [("#D93F0B", "#d93f0b"), ("d93f0b", "#d93f0b"), ("#abc", "#aabbcc"), ("ABC", "#aabbcc")]
)
def test_colours_are_normalised(given: str, stored: str) -> None:
    assert normalize_color(given) == stored


@pytest.mark.parametrize("bad", ["#12345", "red", "", "#gggggg", None, 123, "##abcdef"])
def test_bad_colours_are_refused(bad: Any) -> None:
    with pytest.raises(InvalidLabelColor):
        normalize_color(bad)


def test_create_read_list_edit_delete(client: FlaskClient, repo: tuple[str, dict[str, str]]) -> None:
    path, ann = repo
    created = client.post(path, headers=ann, json={"name": "urgent", "color": "#D93F0B", "description": "now"})
    assert created.status_code == 201
    label = created.json or {}
    assert {"name": "urgent", "color": "d93f0b", "exclusive": False, "is_archived": False}.items() <= label.items()
    assert label["url"] == f"http://forge.test{path}/{label['id']}"
    client.post(path, headers=ann, json={"name": "alpha", "color": "000000"})
    listed = client.get(path, headers=ann)
    assert [item["name"] for item in listed.json or []] == ["alpha", "urgent"]
    assert listed.headers["X-Total-Count"] == "2"
    edited = client.patch(f"{path}/{label['id']}", headers=ann, json={"is_archived": True, "exclusive": True})
    assert edited.status_code == 200 and edited.json is not None
    assert (edited.json["name"], edited.json["is_archived"], edited.json["exclusive"]) == ("urgent", True, True)
    assert client.delete(f"{path}/{label['id']}", headers=ann).status_code == 204
    assert client.get(f"{path}/{label['id']}", headers=ann).status_code == 404
    assert client.delete(f"{path}/{label['id']}", headers=ann).status_code == 404


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"color": "#ffffff"}, "[Name]: Required"),
        ({"name": "x"}, "[Color]: Required"),
        ({"name": "x", "color": "#fff0"}, "bad color code"),
        ({"name": "   ", "color": "#ffffff"}, "[Name]: Required"),
        ({"name": "x", "color": "#ffffff", "exclusive": "yes"}, "must be a boolean"),
        ({"name": 5, "color": "#ffffff"}, "must be a string"),
    ],
)
def test_bad_input_is_422_and_stores_nothing(
    client: FlaskClient, repo: tuple[str, dict[str, str]], body: dict[str, Any], message: str
) -> None:
    path, ann = repo
    refused = client.post(path, headers=ann, json=body)
    assert refused.status_code == 422 and message in (refused.json or {})["message"]
    assert client.get(path, headers=ann).json == []


def test_a_refused_edit_changes_nothing(client: FlaskClient, repo: tuple[str, dict[str, str]]) -> None:
    path, ann = repo
    label = client.post(path, headers=ann, json={"name": "bug", "color": "ee0701"}).json or {}
    refused = client.patch(f"{path}/{label['id']}", headers=ann, json={"name": "renamed", "color": "nope"})
    assert refused.status_code == 422
    assert client.get(f"{path}/{label['id']}", headers=ann).json == label


def test_readers_read_and_only_writers_change(
    client: FlaskClient, admin_headers: dict[str, str], repo: tuple[str, dict[str, str]]
) -> None:
    path, ann = repo
    label = client.post(path, headers=ann, json={"name": "bug", "color": "ee0701"}).json or {}
    bob = _user(client, admin_headers, "bob")
    assert client.get(path, headers=bob).status_code == 200
    assert client.get(path).status_code == 200  # anonymous on a public repository
    assert client.post(path, headers=bob, json={"name": "x", "color": "000000"}).status_code == 403
    assert client.patch(f"{path}/{label['id']}", headers=bob, json={"name": "x"}).status_code == 403
    assert client.delete(f"{path}/{label['id']}", headers=bob).status_code == 403
    assert client.post(path, json={"name": "x", "color": "000000"}).status_code == 401


def test_a_label_id_of_another_repository_is_404(client: FlaskClient, repo: tuple[str, dict[str, str]]) -> None:
    path, ann = repo
    label = client.post(path, headers=ann, json={"name": "bug", "color": "ee0701"}).json or {}
    assert client.post(f"{API}/user/repos", headers=ann, json={"name": "other"}).status_code == 201
    assert client.get(f"{API}/repos/ann/other/labels/{label['id']}", headers=ann).status_code == 404
    assert client.get(f"{path}/not-a-number", headers=ann).status_code == 404


def test_labels_go_with_their_repository(app: Flask, client: FlaskClient, repo: tuple[str, dict[str, str]]) -> None:
    path, ann = repo
    client.post(path, headers=ann, json={"name": "bug", "color": "ee0701"})
    assert client.delete(f"{API}/repos/ann/demo", headers=ann).status_code == 204
    with app.app_context():
        assert app.extensions["forge"].db.scalar("SELECT COUNT(*) FROM repo_label") == 0


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_an_id_beyond_64_bits_names_no_label(
    client: FlaskClient, repo: tuple[str, dict[str, str]], method: str
) -> None:
    """The app's ``int`` path converter stops at SQLite's range, so such an id never reaches a query (no 500).

    GET answers 404; PATCH and DELETE may answer 405, because werkzeug counts the methods of the
    rules whose pattern matched before their converter refused the value."""
    path, ann = repo
    expected = {404} if method == "get" else {404, 405}
    assert getattr(client, method)(f"{path}/{2**63}", headers=ann, json={"name": "x"}).status_code in expected
    assert getattr(client, method)(f"{path}/{2**63 - 1}", headers=ann, json={"name": "x"}).status_code == 404


# --- organization labels --------------------------------------------------------------------------


@pytest.fixture
def org(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, str]:
    """The organizations ``acme`` (with the repository ``app`` and its issue #1) and ``other``, owned by Ann."""
    ann = _user(client, admin_headers, "ann")
    for name in ("acme", "other"):
        assert client.post(f"{API}/orgs", headers=ann, json={"username": name}).status_code == 201
    assert client.post(f"{API}/orgs/acme/repos", headers=ann, json={"name": "app"}).status_code == 201
    assert client.post(f"{API}/repos/acme/app/issues", headers=ann, json={"title": "Crash"}).status_code == 201
    return ann


def _org_label(client: FlaskClient, ann: dict[str, str], org: str, name: str) -> dict[str, Any]:
    made = client.post(f"{API}/orgs/{org}/labels", headers=ann, json={"name": name, "color": "#ee0701"})
    assert made.status_code == 201, made.get_data(as_text=True)
    label: dict[str, Any] = made.get_json()
    return label


def test_org_labels_are_managed_by_owners_and_listed_to_anyone(
    client: FlaskClient, admin_headers: dict[str, str], org: dict[str, str]
) -> None:
    label = _org_label(client, org, "acme", "scope/high")
    assert label["url"].endswith(f"/api/v1/orgs/acme/labels/{label['id']}")
    listed = client.get(f"{API}/orgs/acme/labels")
    assert listed.status_code == 200 and [item["id"] for item in listed.get_json()] == [label["id"]]
    assert client.get(f"{API}/orgs/acme/labels/{label['id']}").status_code == 401, "reading one takes a token"
    assert client.get(f"{API}/orgs/other/labels/{label['id']}", headers=org).status_code == 404
    assert client.get(f"{API}/repos/acme/app/labels/{label['id']}", headers=org).status_code == 404
    bob = _user(client, admin_headers, "bob")
    assert client.post(f"{API}/orgs/acme/labels", headers=bob, json={"name": "x", "color": "#000"}).status_code == 403
    edited = client.patch(f"{API}/orgs/acme/labels/{label['id']}", headers=org, json={"exclusive": True})
    assert edited.status_code == 200 and edited.get_json()["exclusive"] is True
    bad = client.post(f"{API}/orgs/acme/labels", headers=org, json={"name": "y", "color": "nope"})
    assert bad.status_code == 422 and len(client.get(f"{API}/orgs/acme/labels").get_json()) == 1


def test_org_labels_go_on_the_issues_of_the_orgs_repositories_only(client: FlaskClient, org: dict[str, str]) -> None:
    mine = _org_label(client, org, "acme", "bug")
    foreign = _org_label(client, org, "other", "alien")
    issue = f"{API}/repos/acme/app/issues/1"
    added = client.post(f"{issue}/labels", headers=org, json={"labels": [mine["id"], foreign["id"], "alien"]})
    assert added.status_code == 200 and [item["id"] for item in added.get_json()] == [mine["id"]]
    by_name = client.put(f"{issue}/labels", headers=org, json={"labels": ["bug"]})
    assert [item["name"] for item in by_name.get_json()] == ["bug"]
    assert client.get(issue, headers=org).get_json()["labels"][0]["url"].endswith(f"/orgs/acme/labels/{mine['id']}")
    assert client.delete(f"{issue}/labels/{foreign['id']}", headers=org).status_code == 422
    assert client.delete(f"{API}/orgs/acme/labels/{mine['id']}", headers=org).status_code == 204
    assert client.get(f"{issue}/labels", headers=org).get_json() == [], "a deleted label stayed on the issue"
    assert client.delete(f"{API}/orgs/other", headers=org).status_code == 204
    assert client.get(f"{API}/orgs/other/labels", headers=org).status_code == 404


def test_an_exclusive_scoped_label_takes_the_other_of_its_scope_off(client: FlaskClient, org: dict[str, str]) -> None:
    made = {}
    for name, exclusive in (("prio/high", True), ("prio/low", True), ("prio/mid", False), ("kind/bug", True)):
        body = {"name": name, "color": "#ee0701", "exclusive": exclusive}
        made[name] = client.post(f"{API}/orgs/acme/labels", headers=org, json=body).get_json()["id"]
    issue = f"{API}/repos/acme/app/issues/1/labels"
    both = client.post(f"{issue}", headers=org, json={"labels": [made["prio/high"], made["prio/low"]]})
    assert [item["name"] for item in both.get_json()] == ["prio/low"], "of one scope in one request the last wins"
    added = client.post(issue, headers=org, json={"labels": [made["kind/bug"], made["prio/mid"], made["prio/high"]]})
    assert [item["name"] for item in added.get_json()] == ["kind/bug", "prio/high", "prio/mid"]


def test_an_old_label_table_gains_the_organization_column(app: Flask) -> None:
    with app.app_context():
        db = forge().db
        db.execute("DROP INDEX repo_label_by_org")
        db.execute("ALTER TABLE repo_label DROP COLUMN org_id")
        store.upgrade(db)
        assert "org_id" in {row["name"] for row in db.all("PRAGMA table_info(repo_label)")}
