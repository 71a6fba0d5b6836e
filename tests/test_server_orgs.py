"""Organizations, members and teams of the reference server: routes, guards and membership through teams."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user

from reference_server.permissions import team_permission_on


def team_named(client: FlaskClient, org: str, name: str, who: str = "olga") -> dict[str, Any]:
    teams = client.get(f"{API}/orgs/{org}/teams", headers=basic(who)).get_json()
    return next(team for team in teams if team["name"] == name)


def setup_org(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin, name)
    make_org(client, "olga", "guild")


def test_owners_team_exists_from_creation_and_holds_the_creator(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    setup_org(client, admin_headers)
    owners = team_named(client, "guild", "Owners")
    assert owners["permission"] == "owner" and owners["includes_all_repositories"] is True
    assert owners["units_map"]["repo.code"] == "owner" and owners["units_map"]["repo.ext_wiki"] == "read"
    assert owners["organization"] is None
    members = client.get(f"{API}/teams/{owners['id']}/members", headers=basic("olga"))
    assert [user["login"] for user in members.get_json()] == ["olga"]
    assert members.headers["X-Total-Count"] == "1"
    assert client.get(f"{API}/orgs/guild/members/olga", headers=basic("olga")).status_code == 204


def test_team_membership_makes_organization_membership(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup_org(client, admin_headers)
    created = client.post(
        f"{API}/orgs/guild/teams",
        headers=basic("olga"),
        json={"name": "readers", "permission": "read", "units": ["repo.code"]},
    )
    assert created.status_code == 201
    team = created.get_json()
    assert team["organization"]["name"] == "guild" and team["units_map"] == {"repo.code": "read"}
    assert client.put(f"{API}/teams/{team['id']}/members/pete", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/orgs/guild/members/pete", headers=basic("olga")).status_code == 204
    listed = client.get(f"{API}/orgs/guild/members", headers=basic("pete")).get_json()
    assert [user["login"] for user in listed] == ["olga", "pete"]
    mine = client.get(f"{API}/user/teams", headers=basic("pete")).get_json()
    assert [(t["name"], t["organization"]["name"]) for t in mine] == [("readers", "guild")]
    assert [o["name"] for o in client.get(f"{API}/user/orgs", headers=basic("pete")).get_json()] == ["guild"]
    # a member outside the team sees it refused (403); an outsider does not see it (404)
    assert_error(client.get(f"{API}/teams/{team['id']}", headers=basic("rosa")), 404)
    assert client.delete(f"{API}/teams/{team['id']}/members/pete", headers=basic("olga")).status_code == 204
    assert_error(client.get(f"{API}/orgs/guild/members/pete", headers=basic("olga")), 404)
    assert client.get(f"{API}/user/orgs", headers=basic("pete")).get_json() == []


def test_team_guards(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup_org(client, admin_headers)
    body = {"name": "writers", "permission": "write", "units": ["repo.code", "repo.issues"]}
    team = client.post(f"{API}/orgs/guild/teams", headers=basic("olga"), json=body).get_json()
    other = client.post(f"{API}/orgs/guild/teams", headers=basic("olga"), json={**body, "name": "others"}).get_json()
    client.put(f"{API}/teams/{team['id']}/members/pete", headers=basic("olga"))
    assert client.get(f"{API}/teams/{team['id']}", headers=basic("pete")).status_code == 200
    assert_error(client.get(f"{API}/teams/{other['id']}", headers=basic("pete")), 403, "Must be a team member")
    assert_error(client.patch(f"{API}/teams/{team['id']}", headers=basic("pete"), json={"name": "x"}), 404)
    assert_error(client.post(f"{API}/orgs/guild/teams", headers=basic("pete"), json=body), 403, "organization owner")
    # Gitea's reqOrgOwnership: an outsider creating a team hears the owner rule, as a member does
    assert_error(client.post(f"{API}/orgs/guild/teams", headers=basic("rosa"), json=body), 403, "organization owner")
    assert_error(client.get(f"{API}/orgs/guild/teams", headers=basic("rosa")), 403, "organization member")
    assert_error(client.get(f"{API}/teams/999999", headers=basic("olga")), 404)
    assert_error(client.get(f"{API}/orgs/nowhere/teams", headers=basic("olga")), 404)


def test_team_validation(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup_org(client, admin_headers)
    url = f"{API}/orgs/guild/teams"
    assert_error(client.post(url, headers=basic("olga"), json={"permission": "read"}), 422, "[Name]: Required")
    assert_error(client.post(url, headers=basic("olga"), json={"name": "a b", "units": ["repo.code"]}), 422, "Name")
    assert_error(client.post(url, headers=basic("olga"), json={"name": "t", "permission": "owner"}), 422, "Permission")
    assert_error(client.post(url, headers=basic("olga"), json={"name": "t", "permission": "read"}), 422, "units")
    assert_error(client.post(url, headers=basic("olga"), json={"name": "owners", "permission": "admin"}), 422, "exists")
    made = client.post(
        url, headers=basic("olga"), json={"name": "mapped", "units_map": {"repo.code": "write", "repo.issues": "read"}}
    )
    assert made.status_code == 201 and made.get_json()["permission"] == "read"
    admin_team = client.post(url, headers=basic("olga"), json={"name": "admins", "permission": "admin"}).get_json()
    assert admin_team["units_map"]["repo.code"] == "admin" and admin_team["units_map"]["repo.ext_issues"] == "read"
    owners = team_named(client, "guild", "Owners")
    assert_error(client.delete(f"{API}/teams/{owners['id']}", headers=basic("olga")), 422, "Owners")
    assert_error(client.patch(f"{API}/teams/{owners['id']}", headers=basic("olga"), json={"name": "Bosses"}), 422)
    assert_error(client.patch(f"{API}/teams/{admin_team['id']}", headers=basic("olga"), json={"name": "mapped"}), 422)
    assert_error(client.delete(f"{API}/teams/{owners['id']}/members/olga", headers=basic("olga")), 422, "last")
    assert_error(client.delete(f"{API}/orgs/guild/members/olga", headers=basic("olga")), 422, "last")
    edited = client.patch(
        f"{API}/teams/{admin_team['id']}",
        headers=basic("olga"),
        json={"name": "leads", "permission": "write", "units": ["repo.code"]},
    )
    assert edited.status_code == 200
    assert edited.get_json()["permission"] == "write" and edited.get_json()["units_map"] == {"repo.code": "write"}


def test_team_repositories_give_access(app: Flask, client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup_org(client, admin_headers)
    assert (
        client.post(
            f"{API}/orgs/guild/repos", headers=basic("olga"), json={"name": "vault", "private": True, "auto_init": True}
        ).status_code
        == 201
    )
    body = {"name": "devs", "permission": "write", "units": ["repo.code"]}
    team = client.post(f"{API}/orgs/guild/teams", headers=basic("olga"), json=body).get_json()
    client.put(f"{API}/teams/{team['id']}/members/pete", headers=basic("olga"))
    assert_error(client.get(f"{API}/repos/guild/vault", headers=basic("pete")), 404)
    assert_error(client.put(f"{API}/teams/{team['id']}/repos/guild/vault", headers=basic("pete")), 403, "admin-level")
    assert client.put(f"{API}/teams/{team['id']}/repos/guild/vault", headers=basic("olga")).status_code == 204
    repo = client.get(f"{API}/repos/guild/vault", headers=basic("pete")).get_json()
    assert repo["permissions"] == {"admin": False, "push": True, "pull": True}
    listed = client.get(f"{API}/teams/{team['id']}/repos", headers=basic("pete"))
    assert [r["name"] for r in listed.get_json()] == ["vault"] and listed.headers["X-Total-Count"] == "1"
    assert client.get(f"{API}/teams/{team['id']}/repos/guild/vault", headers=basic("pete")).status_code == 200
    assert_error(client.put(f"{API}/teams/{team['id']}/repos/guild/nothing", headers=basic("olga")), 404)
    with app.app_context():
        from reference_server.orgs import models as orgs
        from reference_server.repos import models as repos
        from reference_server.users import models as users

        found = orgs.find_team(users.get_user_by_name("guild").id, "DEVS")
        assert found is not None and found.id == team["id"]
        pete = users.get_user_by_name("pete")
        assert team_permission_on(pete.id, repos.get_repo("guild", "vault")) == "write"
    assert client.delete(f"{API}/teams/{team['id']}/repos/guild/vault", headers=basic("olga")).status_code == 204
    assert_error(client.get(f"{API}/repos/guild/vault", headers=basic("pete")), 404)


def test_edit_org(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup_org(client, admin_headers)
    edited = client.patch(
        f"{API}/orgs/guild",
        headers=basic("olga"),
        json={"full_name": "The Guild", "website": "https://guild.test", "visibility": "limited"},
    )
    assert edited.status_code == 200
    body = edited.get_json()
    assert (body["full_name"], body["website"], body["visibility"]) == ("The Guild", "https://guild.test", "limited")
    assert_error(client.patch(f"{API}/orgs/guild", headers=basic("pete"), json={"full_name": "x"}), 403)
    assert_error(client.patch(f"{API}/orgs/guild", headers=basic("olga"), json={"visibility": "secret"}), 422)
    assert_error(client.patch(f"{API}/orgs/guild", headers=basic("olga"), json={"website": "not a url"}), 422)
    assert client.get(f"{API}/orgs/guild", headers=basic("olga")).get_json()["full_name"] == "The Guild"


def test_public_membership(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup_org(client, admin_headers)
    assert_error(client.get(f"{API}/orgs/guild/public_members/olga"), 404)
    assert_error(client.put(f"{API}/orgs/guild/public_members/olga", headers=basic("rosa")), 403)
    assert client.put(f"{API}/orgs/guild/public_members/olga", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/orgs/guild/public_members/olga").status_code == 204
    assert [u["login"] for u in client.get(f"{API}/orgs/guild/public_members").get_json()] == ["olga"]
    outsider = client.get(f"{API}/orgs/guild/members/olga", headers=basic("rosa"))
    assert outsider.status_code == 303
    assert outsider.headers["Location"].endswith("/api/v1/orgs/guild/public_members/olga")
    assert [o["name"] for o in client.get(f"{API}/users/olga/orgs", headers=basic("rosa")).get_json()] == ["guild"]
    assert client.delete(f"{API}/orgs/guild/public_members/olga", headers=basic("olga")).status_code == 204
    assert client.get(f"{API}/users/olga/orgs", headers=basic("rosa")).get_json() == []


def _team(client: FlaskClient, name: str, description: str, **extra: Any) -> dict[str, Any]:
    body = {"name": name, "description": description, "permission": "read", "units": ["repo.code"], **extra}
    created = client.post(f"{API}/orgs/guild/teams", headers=basic("olga"), json=body)
    assert created.status_code == 201, created.get_data(as_text=True)
    team: dict[str, Any] = created.get_json()
    return team


def test_team_search_finds_the_callers_teams_by_name_and_description(
    client: FlaskClient, admin_headers: dict[str, str]
) -> None:
    setup_org(client, admin_headers)
    for name, description in (("backend", "Servers"), ("web", "Backend proxies"), ("docs", "Writers")):
        team = _team(client, name, description)
        assert client.put(f"{API}/teams/{team['id']}/members/pete", headers=basic("olga")).status_code == 204
    found = client.get(f"{API}/orgs/guild/teams/search?q=BACKEND", headers=basic("pete"))
    assert found.status_code == 200 and found.headers["X-Total-Count"] == "2"
    body = found.get_json()
    assert body["ok"] is True and [team["name"] for team in body["data"]] == ["backend", "web"]
    assert body["data"][0]["organization"] is None
    names_only = client.get(f"{API}/orgs/guild/teams/search?q=backend&include_desc=false", headers=basic("pete"))
    assert [team["name"] for team in names_only.get_json()["data"]] == ["backend"]
    owner = client.get(f"{API}/orgs/guild/teams/search", headers=basic("olga")).get_json()["data"]
    assert [team["name"] for team in owner] == ["backend", "docs", "Owners", "web"], "an owner finds every team"
    every = client.get(f"{API}/orgs/guild/teams/search?limit=2&page=2", headers=admin_headers)
    assert [team["name"] for team in every.get_json()["data"]] == ["Owners", "web"]
    assert "Link" in every.headers and every.headers["X-Total-Count"] == "4"
    assert_error(client.get(f"{API}/orgs/guild/teams/search", headers=basic("rosa")), 403)


def test_org_repos_older_create_path_and_delete_all(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup_org(client, admin_headers)
    creators = _team(client, "creators", "", can_create_org_repo=True)
    assert client.put(f"{API}/teams/{creators['id']}/members/pete", headers=basic("olga")).status_code == 204
    made = client.post(f"{API}/org/guild/repos", headers=basic("pete"), json={"name": "tool"})
    assert made.status_code == 201 and made.get_json()["full_name"] == "guild/tool"
    assert_error(client.post(f"{API}/org/guild/repos", headers=basic("rosa"), json={"name": "x"}), 403)
    assert_error(client.delete(f"{API}/orgs/guild/repos", headers=basic("pete")), 403)
    assert client.delete(f"{API}/orgs/guild/repos", headers=basic("olga")).status_code == 202
    assert client.get(f"{API}/orgs/guild/repos", headers=basic("olga")).get_json() == []
    assert client.delete(f"{API}/orgs/guild/repos", headers=basic("olga")).status_code == 204
