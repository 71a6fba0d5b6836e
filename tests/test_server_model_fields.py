"""Fields of Gitea 1.27's models the reference once lacked: ``Team.visibility`` (and who may list a team by it),
``Issue.content_version`` / ``PullRequest.content_version`` (with the stale-edit refusal) and ``Issue.projects``."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user

from reference_server.context import forge
from reference_server.issues import store as issues_store
from reference_server.orgs import store as orgs_store


def _names(response: Any) -> list[str]:
    assert response.status_code == 200, response.get_data(as_text=True)
    return [team["name"] for team in response.get_json()]


def _org_with_teams(client: FlaskClient, admin: dict[str, str]) -> dict[str, int]:
    """``olga`` owns ``guild``; ``pete`` is a plain member (team ``crew``); ``rosa`` is outside. Teams
    ``hidden`` (private, by default), ``known`` (limited) and ``open`` (public)."""
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin, name)
    make_org(client, "olga", "guild")
    ids: dict[str, int] = {}
    for name, visibility in (("crew", None), ("hidden", None), ("known", "limited"), ("open", "public")):
        body: dict[str, Any] = {"name": name, "permission": "read", "units": ["repo.code"]}
        if visibility is not None:
            body["visibility"] = visibility
        created = client.post(f"{API}/orgs/guild/teams", headers=basic("olga"), json=body)
        assert created.status_code == 201, created.get_data(as_text=True)
        assert created.get_json()["visibility"] == (visibility or "private")
        ids[name] = created.get_json()["id"]
    assert client.put(f"{API}/teams/{ids['crew']}/members/pete", headers=basic("olga")).status_code == 204
    return ids


def test_team_visibility_is_stored_validated_and_kept_on_edit(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    ids = _org_with_teams(client, admin_headers)
    bad = {"name": "odd", "permission": "read", "units": ["repo.code"], "visibility": "secret"}
    assert_error(client.post(f"{API}/orgs/guild/teams", headers=basic("olga"), json=bad), 422, "Visibility")
    assert "odd" not in _names(client.get(f"{API}/orgs/guild/teams", headers=basic("olga")))
    edited = client.patch(f"{API}/teams/{ids['hidden']}", headers=basic("olga"), json={"name": "hidden"})
    assert edited.status_code == 200 and edited.get_json()["visibility"] == "private"
    made_public = client.patch(
        f"{API}/teams/{ids['hidden']}", headers=basic("olga"), json={"name": "hidden", "visibility": "public"}
    )
    assert made_public.get_json()["visibility"] == "public"
    assert client.get(f"{API}/teams/{ids['hidden']}", headers=basic("olga")).get_json()["visibility"] == "public"
    wrong = client.patch(f"{API}/teams/{ids['known']}", headers=basic("olga"), json={"name": "known", "visibility": 1})
    assert_error(wrong, 422)


def test_listing_follows_team_visibility(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    ids = _org_with_teams(client, admin_headers)
    every = ["crew", "hidden", "known", "open", "Owners"]
    assert _names(client.get(f"{API}/orgs/guild/teams", headers=basic("olga"))) == every
    assert _names(client.get(f"{API}/orgs/guild/teams", headers=admin_headers)) == every
    member = client.get(f"{API}/orgs/guild/teams", headers=basic("pete"))
    assert _names(member) == ["crew", "known", "open"] and member.headers["X-Total-Count"] == "3"
    found = client.get(f"{API}/orgs/guild/teams/search?q=o", headers=basic("pete")).get_json()["data"]
    assert [team["name"] for team in found] == ["known", "open"]
    assert client.get(f"{API}/teams/{ids['known']}", headers=basic("pete")).status_code == 200
    assert_error(client.get(f"{API}/teams/{ids['hidden']}", headers=basic("pete")), 403)
    assert client.get(f"{API}/teams/{ids['open']}", headers=basic("rosa")).status_code == 200
    assert_error(client.get(f"{API}/teams/{ids['known']}", headers=basic("rosa")), 404)


def test_a_public_team_of_a_private_organization_stays_hidden(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    for name in ("olga", "rosa"):
        make_user(client, admin_headers, name)
    make_org(client, "olga", "vault", visibility="private")
    body = {"name": "open", "permission": "read", "units": ["repo.code"], "visibility": "public"}
    team = client.post(f"{API}/orgs/vault/teams", headers=basic("olga"), json=body).get_json()
    assert_error(client.get(f"{API}/teams/{team['id']}", headers=basic("rosa")), 404)


def _repo_with_issue(client: FlaskClient, admin: dict[str, str]) -> str:
    make_user(client, admin, "olga")
    assert client.post(f"{API}/user/repos", headers=basic("olga"), json={"name": "demo"}).status_code == 201
    created = client.post(f"{API}/repos/olga/demo/issues", headers=basic("olga"), json={"title": "t", "body": "a"})
    assert created.status_code == 201 and created.get_json()["content_version"] == 0
    assert created.get_json()["projects"] == []
    return f"{API}/repos/olga/demo/issues/1"


def test_content_version_counts_body_edits_and_refuses_stale_ones(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    issue = _repo_with_issue(client, admin_headers)
    titled = client.patch(issue, headers=basic("olga"), json={"title": "new title"})
    assert titled.get_json()["content_version"] == 0, "the title is not the content"
    first = client.patch(issue, headers=basic("olga"), json={"body": "b"})
    assert first.status_code == 201 and first.get_json()["content_version"] == 1
    same = client.patch(issue, headers=basic("olga"), json={"body": "b", "content_version": 1})
    assert same.get_json()["content_version"] == 2, "every body edit counts, even to the same text"
    stale = client.patch(issue, headers=basic("olga"), json={"body": "lost", "content_version": 1, "state": "closed"})
    assert_error(stale, 409, "already changed")
    after = client.get(issue, headers=basic("olga")).get_json()
    assert (after["body"], after["content_version"], after["state"]) == ("b", 2, "open"), "a stale edit stores nothing"
    timeline = client.get(f"{issue}/timeline", headers=basic("olga")).get_json()
    assert "close" not in [event["type"] for event in timeline]
    assert_error(client.patch(issue, headers=basic("olga"), json={"body": "x", "content_version": "2"}), 422)


def test_issue_projects_lists_the_boards_holding_it(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    issue = _repo_with_issue(client, admin_headers)
    boards = f"{API}/repos/olga/demo/projects"
    board = client.post(boards, headers=basic("olga"), json={"title": "Roadmap"}).get_json()
    column = client.get(f"{boards}/{board['id']}/columns", headers=basic("olga")).get_json()[0]
    issue_id = client.get(issue, headers=basic("olga")).get_json()["id"]
    added = client.post(f"{boards}/{board['id']}/columns/{column['id']}/issues/{issue_id}", headers=basic("olga"))
    assert added.status_code == 201
    projects = client.get(issue, headers=basic("olga")).get_json()["projects"]
    assert [(project["id"], project["title"]) for project in projects] == [(board["id"], "Roadmap")]
    assert projects[0]["html_url"] == board["html_url"]


def test_older_tables_get_the_new_columns(app: Flask) -> None:
    """A database made before these fields gains their columns at start, with Gitea's defaults."""
    with app.app_context():
        db = forge().db
        db.execute("ALTER TABLE teams DROP COLUMN visibility")
        db.execute("ALTER TABLE issue DROP COLUMN content_version")
        orgs_store.upgrade(db)
        issues_store.upgrade(db)
        teams = {row["name"]: row["dflt_value"] for row in db.all("PRAGMA table_info(teams)")}
        issues = {row["name"]: row["dflt_value"] for row in db.all("PRAGMA table_info(issue)")}
        assert (teams["visibility"], issues["content_version"]) == ("'private'", "0")
