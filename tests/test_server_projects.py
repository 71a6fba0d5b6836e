"""Projects family: boards at repository, organization and user scope, columns, cards, permissions, and
what goes with a deleted repository or account."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from flask.testing import FlaskClient

API = "/api/v1"
PASSWORD = "correct-horse-battery"
Headers = dict[str, str]


def _basic(user: str) -> Headers:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORD}".encode()).decode()}


def _user(client: FlaskClient, admin: Headers, name: str) -> Headers:
    body = {"username": name, "email": f"{name}@example.com", "password": PASSWORD, "must_change_password": False}
    assert client.post(f"{API}/admin/users", headers=admin, json=body).status_code == 201
    return _basic(name)


def _json(response: Any) -> Any:
    assert response.is_json, response.data[:200]
    return response.json


def _issue_id(client: FlaskClient, headers: Headers, repo: str, title: str) -> int:
    created = client.post(f"{API}/repos/{repo}/issues", headers=headers, json={"title": title})
    assert created.status_code == 201
    return int(_json(created)["id"])


@pytest.fixture
def world(client: FlaskClient, admin_headers: Headers) -> dict[str, Headers]:
    """``ann`` owns ``ann/demo`` and ``ann/other`` and the organization ``acme`` (with ``acme/app``);
    ``bob`` is a stranger."""
    ann = _user(client, admin_headers, "ann")
    bob = _user(client, admin_headers, "bob")
    for name in ("demo", "other"):
        assert client.post(f"{API}/user/repos", headers=ann, json={"name": name}).status_code == 201
    assert client.post(f"{API}/orgs", headers=ann, json={"username": "acme"}).status_code == 201
    assert client.post(f"{API}/orgs/acme/repos", headers=ann, json={"name": "app"}).status_code == 201
    return {"ann": ann, "bob": bob}


SCOPES = [
    pytest.param(f"{API}/repos/ann/demo/projects", "repository", "ann/demo", id="repository"),
    pytest.param(f"{API}/orgs/acme/projects", "organization", "acme/app", id="organization"),
    pytest.param(f"{API}/users/ann/projects", "individual", "ann/other", id="user"),
    pytest.param(f"{API}/user/projects", "individual", "ann/demo", id="self"),
]


@pytest.mark.parametrize(("base", "kind", "repo"), SCOPES)
def test_board_lifecycle_is_the_same_at_every_scope(
    client: FlaskClient, world: dict[str, Headers], base: str, kind: str, repo: str
) -> None:
    ann = world["ann"]
    created = client.post(base, headers=ann, json={"title": " Roadmap ", "template_type": "basic_kanban"})
    assert created.status_code == 201, created.data
    board = _json(created)
    assert (board["title"], board["type"], board["state"], board["template_type"]) == (
        "Roadmap",
        kind,
        "open",
        "basic_kanban",
    )
    assert "closed_at" not in board and board["creator"]["login"] == "ann"
    one = f"{base}/{board['id']}"
    listed = client.get(f"{one}/columns", headers=ann)
    titles = [(column["title"], column["default"]) for column in _json(listed)]
    assert titles == [("Backlog", True), ("To Do", False), ("In Progress", False), ("Done", False)]
    assert listed.headers["X-Total-Count"] == "4"
    todo, doing = (column["id"] for column in _json(listed)[1:3])

    issue = _issue_id(client, ann, repo, "Ship it")
    assert client.post(f"{one}/columns/{todo}/issues/{issue}", headers=ann).status_code == 201
    assert [item["id"] for item in _json(client.get(f"{one}/columns/{todo}/issues", headers=ann))] == [issue]
    moved = client.post(f"{one}/issues/{issue}/move", headers=ann, json={"column_id": doing})
    assert moved.status_code == 204
    assert _json(client.get(f"{one}/columns/{todo}/issues", headers=ann)) == []
    assert _json(client.get(one, headers=ann))["num_open_issues"] == 1

    closed = client.patch(one, headers=ann, json={"state": "closed"})
    assert _json(closed)["state"] == "closed" and _json(closed)["closed_at"]
    assert client.post(f"{one}/columns", headers=ann, json={"title": "Later"}).status_code == 403
    assert [p["id"] for p in _json(client.get(f"{base}?state=closed", headers=ann))] == [board["id"]]
    assert _json(client.get(base, headers=ann)) == []
    assert client.delete(one, headers=ann).status_code == 204
    assert client.get(one, headers=ann).status_code == 404


def test_a_plain_board_starts_with_an_uncategorized_default_column(
    client: FlaskClient, world: dict[str, Headers]
) -> None:
    base = f"{API}/repos/ann/demo/projects"
    board = _json(client.post(base, headers=world["ann"], json={"title": "Plain"}))
    columns = _json(client.get(f"{base}/{board['id']}/columns", headers=world["ann"]))
    assert [(c["title"], c["default"], c["sorting"]) for c in columns] == [("Uncategorized", True, 0)]
    assert board["template_type"] == "none" and board["card_type"] == "text_only"


def test_columns_reorder_default_and_deletion(client: FlaskClient, world: dict[str, Headers]) -> None:
    ann = world["ann"]
    base = f"{API}/repos/ann/demo/projects"
    one = f"{base}/{_json(client.post(base, headers=ann, json={'title': 'Board'}))['id']}"
    first = _json(client.get(f"{one}/columns", headers=ann))[0]["id"]
    extra = _json(client.post(f"{one}/columns", headers=ann, json={"title": "Next", "color": "#FF5733"}))
    assert (extra["color"], extra["sorting"], extra["default"]) == ("#FF5733", 1, False)
    assert client.post(f"{one}/columns/move", headers=ann, json={"column_ids": [extra["id"], first]}).status_code == 204
    assert [c["id"] for c in _json(client.get(f"{one}/columns", headers=ann))] == [extra["id"], first]
    partial = client.post(f"{one}/columns/move", headers=ann, json={"column_ids": [first]})
    assert partial.status_code == 422 and "exactly once" in _json(partial)["message"]

    issue = _issue_id(client, ann, "ann/demo", "Card")
    assert client.post(f"{one}/columns/{extra['id']}/issues/{issue}", headers=ann).status_code == 201
    assert client.delete(f"{one}/columns/{first}", headers=ann).status_code == 422
    assert client.post(f"{one}/columns/{extra['id']}/default", headers=ann).status_code == 204
    assert client.post(f"{one}/columns/{first}/default", headers=ann).status_code == 204
    assert client.delete(f"{one}/columns/{extra['id']}", headers=ann).status_code == 204
    assert [item["id"] for item in _json(client.get(f"{one}/columns/{first}/issues", headers=ann))] == [issue]


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("", {"title": ""}, "[Title]: Required"),
        ("", {"title": "x", "template_type": "scrum"}, "invalid template_type"),
        ("", {"title": "x", "card_type": "photos"}, "invalid card_type"),
        ("", {"title": "x" * 101}, "MaxSize(100)"),
        ("/columns", {"title": "x", "color": "red"}, "bad color code"),
        ("/columns", {"title": "  "}, "[Title]: Required"),
        ("/columns/move", {}, "[ColumnIDs]: Required"),
        ("/columns/move", {"column_ids": ["a"]}, "must be a list of column ids"),
    ],
)
def test_bad_input_is_422_and_stores_nothing(
    client: FlaskClient, world: dict[str, Headers], path: str, body: dict[str, Any], message: str
) -> None:
    ann = world["ann"]
    base = f"{API}/repos/ann/demo/projects"
    board = _json(client.post(base, headers=ann, json={"title": "Board"}))
    target = f"{base}/{board['id']}{path}" if path else base
    refused = client.post(target, headers=ann, json=body)
    assert refused.status_code == 422 and message in _json(refused)["message"]
    assert len(_json(client.get(base, headers=ann))) == 1
    assert len(_json(client.get(f"{base}/{board['id']}/columns", headers=ann))) == 1


def test_edits_refuse_bad_values(client: FlaskClient, world: dict[str, Headers]) -> None:
    ann = world["ann"]
    base = f"{API}/repos/ann/demo/projects"
    board = _json(client.post(base, headers=ann, json={"title": "Board"}))
    one = f"{base}/{board['id']}"
    assert client.patch(one, headers=ann, json={"state": "archived"}).status_code == 422
    assert client.patch(one, headers=ann, json={"title": ""}).status_code == 422
    assert _json(client.get(one, headers=ann))["title"] == "Board"
    column = _json(client.get(f"{one}/columns", headers=ann))[0]["id"]
    assert client.patch(f"{one}/columns/{column}", headers=ann, json={"sorting": 1000}).status_code == 422
    edited = client.patch(f"{one}/columns/{column}", headers=ann, json={"sorting": -3, "title": "Inbox"})
    assert (_json(edited)["sorting"], _json(edited)["title"]) == (-3, "Inbox")


def test_issues_out_of_reach_and_foreign_columns(client: FlaskClient, world: dict[str, Headers]) -> None:
    ann = world["ann"]
    base = f"{API}/repos/ann/demo/projects"
    one = f"{base}/{_json(client.post(base, headers=ann, json={'title': 'A'}))['id']}"
    two = f"{base}/{_json(client.post(base, headers=ann, json={'title': 'B'}))['id']}"
    mine = _json(client.get(f"{one}/columns", headers=ann))[0]["id"]
    theirs = _json(client.get(f"{two}/columns", headers=ann))[0]["id"]
    foreign = _issue_id(client, ann, "ann/other", "Elsewhere")
    refused = client.post(f"{one}/columns/{mine}/issues/{foreign}", headers=ann)
    assert refused.status_code == 422 and "repository" in _json(refused)["message"]
    assert client.post(f"{one}/columns/{theirs}/issues/{foreign}", headers=ann).status_code == 404
    local = _issue_id(client, ann, "ann/demo", "Here")
    assert client.post(f"{one}/issues/{local}/move", headers=ann, json={"column_id": mine}).status_code == 422
    assert client.post(f"{one}/columns/{mine}/issues/{local}", headers=ann).status_code == 201
    moved = client.post(f"{one}/issues/{local}/move", headers=ann, json={"column_id": theirs})
    assert moved.status_code == 422 and "not a column of the project" in _json(moved)["message"]
    assert client.delete(f"{two}/columns/{theirs}/issues/{local}", headers=ann).status_code == 404
    org_board = _json(client.post(f"{API}/orgs/acme/projects", headers=ann, json={"title": "Org"}))
    org_one = f"{API}/orgs/acme/projects/{org_board['id']}"
    org_column = _json(client.get(f"{org_one}/columns", headers=ann))[0]["id"]
    assert client.post(f"{org_one}/columns/{org_column}/issues/{local}", headers=ann).status_code == 422


def test_permissions(client: FlaskClient, world: dict[str, Headers]) -> None:
    ann, bob = world["ann"], world["bob"]
    repo_board = _json(client.post(f"{API}/repos/ann/demo/projects", headers=ann, json={"title": "R"}))
    assert client.get(f"{API}/repos/ann/demo/projects/{repo_board['id']}", headers=bob).status_code == 200
    assert client.get(f"{API}/repos/ann/demo/projects").status_code == 200
    assert client.patch(f"{API}/repos/ann/demo/projects/{repo_board['id']}", headers=bob, json={}).status_code == 403
    assert client.post(f"{API}/repos/ann/demo/projects", json={"title": "x"}).status_code == 401
    assert client.post(f"{API}/orgs/acme/projects", headers=bob, json={"title": "x"}).status_code == 404
    assert client.get(f"{API}/orgs/acme/projects", headers=bob).status_code == 200
    assert client.post(f"{API}/users/ann/projects", headers=bob, json={"title": "x"}).status_code == 403
    assert client.get(f"{API}/user/projects").status_code == 401
    other = f"{API}/orgs/acme/projects/{repo_board['id']}"
    assert client.get(other, headers=ann).status_code == 404


def test_boards_go_with_their_repository(client: FlaskClient, world: dict[str, Headers], app: Any) -> None:
    ann = world["ann"]
    board = _json(client.post(f"{API}/users/ann/projects", headers=ann, json={"title": "Mine"}))
    column = _json(client.get(f"{API}/user/projects/{board['id']}/columns", headers=ann))[0]["id"]
    issue = _issue_id(client, ann, "ann/other", "Gone soon")
    assert (
        client.post(f"{API}/user/projects/{board['id']}/columns/{column}/issues/{issue}", headers=ann).status_code
        == 201
    )
    assert client.post(f"{API}/repos/ann/demo/projects", headers=ann, json={"title": "R"}).status_code == 201
    assert client.delete(f"{API}/repos/ann/other", headers=ann).status_code == 204
    assert client.delete(f"{API}/repos/ann/demo", headers=ann).status_code == 204
    with app.app_context():
        db = app.extensions["forge"].db
        assert db.scalar("SELECT COUNT(*) FROM project_issue") == 0
        assert db.scalar("SELECT COUNT(*) FROM project WHERE repo_id != 0") == 0
    assert _json(client.get(f"{API}/user/projects/{board['id']}", headers=ann))["num_issues"] == 0


def test_ids_beyond_64_bits_are_refused_not_failed(client: FlaskClient, world: dict[str, Headers]) -> None:
    ann = world["ann"]
    huge = 2**64
    assert client.get(f"{API}/user/projects/{huge}", headers=ann).status_code == 404
    board = _json(client.post(f"{API}/repos/ann/demo/projects", headers=ann, json={"title": "B"}))
    one = f"{API}/repos/ann/demo/projects/{board['id']}"
    column = _json(client.get(f"{one}/columns", headers=ann))[0]["id"]
    issue = _issue_id(client, ann, "ann/demo", "Card")
    assert client.post(f"{one}/columns/{column}/issues/{issue}", headers=ann).status_code == 201
    for body in ({"column_id": huge}, {"column_id": column, "sorting": huge}, {"column_id": True}):
        assert client.post(f"{one}/issues/{issue}/move", headers=ann, json=body).status_code == 422
    assert client.post(f"{one}/columns/move", headers=ann, json={"column_ids": [huge]}).status_code == 422
    assert client.patch(f"{one}/columns/{column}", headers=ann, json={"sorting": huge}).status_code == 422
