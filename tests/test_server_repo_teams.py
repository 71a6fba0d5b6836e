"""The teams of an organization's repository: listing, checking, adding and removing, and who may."""

from __future__ import annotations

from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user

BASE = f"{API}/repos/guild/tool/teams"


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin, name)
    make_org(client, "olga", "guild")
    assert (
        client.post(
            f"{API}/orgs/guild/repos", headers=basic("olga"), json={"name": "tool", "private": True}
        ).status_code
        == 201
    )
    body = {"name": "Writers", "permission": "write", "units": ["repo.code"]}
    team = client.post(f"{API}/orgs/guild/teams", headers=basic("olga"), json=body).get_json()
    assert client.put(f"{API}/teams/{team['id']}/members/pete", headers=basic("olga")).status_code == 204


def test_add_check_and_remove(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    listed = client.get(BASE, headers=basic("olga")).get_json()
    assert [team["name"] for team in listed] == ["Owners"] and listed[0]["organization"] is None
    assert_error(client.get(f"{BASE}/writers", headers=basic("olga")), 404)
    assert_error(client.get(f"{API}/repos/guild/tool", headers=basic("pete")), 404)
    assert client.put(f"{BASE}/writers", headers=basic("olga")).status_code == 204
    assert client.get(f"{BASE}/Writers", headers=basic("olga")).get_json()["name"] == "Writers"
    assert [team["name"] for team in client.get(BASE, headers=basic("pete")).get_json()] == ["Owners", "Writers"]
    # the team's members reach the repository and watch it
    assert client.get(f"{API}/repos/guild/tool", headers=basic("pete")).status_code == 200
    watchers = [
        user["login"] for user in client.get(f"{API}/repos/guild/tool/subscribers", headers=basic("olga")).get_json()
    ]
    assert sorted(watchers) == ["olga", "pete"]
    assert_error(client.put(f"{BASE}/writers", headers=basic("olga")), 422, "team 'Writers' is already added to repo")
    assert client.delete(f"{BASE}/writers", headers=basic("olga")).status_code == 204
    assert_error(client.delete(f"{BASE}/writers", headers=basic("olga")), 422, "team 'Writers' was not added to repo")
    assert_error(client.get(f"{API}/repos/guild/tool", headers=basic("pete")), 404)
    watchers = [
        user["login"] for user in client.get(f"{API}/repos/guild/tool/subscribers", headers=basic("olga")).get_json()
    ]
    assert watchers == ["olga"]
    assert_error(client.put(f"{BASE}/nobody", headers=basic("olga")), 404, "team does not exist")


def test_owners_team_and_user_repositories(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert_error(client.put(f"{BASE}/owners", headers=basic("olga")), 422, "team 'Owners' is already added to repo")
    assert client.delete(f"{BASE}/Owners", headers=basic("olga")).status_code == 204
    assert [team["name"] for team in client.get(BASE, headers=basic("olga")).get_json()] == ["Owners"]
    assert client.post(f"{API}/user/repos", headers=basic("rosa"), json={"name": "solo"}).status_code == 201
    assert_error(client.get(f"{API}/repos/rosa/solo/teams", headers=basic("rosa")), 405, "not owned by an organization")
    assert_error(client.put(f"{API}/repos/rosa/solo/teams/owners", headers=basic("rosa")), 405)


def test_repository_admins_need_the_organization_setting(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    client.put(f"{API}/repos/guild/tool/collaborators/rosa", headers=basic("olga"), json={"permission": "admin"})
    refused = client.put(f"{BASE}/writers", headers=basic("rosa"))
    assert_error(refused, 403, "Must have permission to manage team repository access")
    assert_error(client.put(f"{BASE}/writers", headers=basic("pete")), 404)
    edited = client.patch(f"{API}/orgs/guild", headers=basic("olga"), json={"repo_admin_change_team_access": True})
    assert edited.status_code == 200
    assert client.put(f"{BASE}/writers", headers=basic("rosa")).status_code == 204
    assert client.delete(f"{BASE}/writers", headers=admin_headers).status_code == 204
