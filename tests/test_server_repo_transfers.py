"""Repository transfers: direct and pending, accepting and rejecting, the redirect, teams and collaborators."""

from __future__ import annotations

from flask.testing import FlaskClient
from test_server_orgs_support import API, assert_error, basic, make_org, make_user
from werkzeug.test import TestResponse


def setup(client: FlaskClient, admin: dict[str, str]) -> None:
    for name in ("olga", "pete", "rosa"):
        make_user(client, admin, name)
    body = {"name": "tool", "auto_init": True, "private": True}
    assert client.post(f"{API}/user/repos", headers=basic("olga"), json=body).status_code == 201


def transfer(client: FlaskClient, who: str, body: dict[str, object], repo: str = "olga/tool") -> TestResponse:
    return client.post(f"{API}/repos/{repo}/transfer", headers=basic(who), json=body)


def test_pending_transfer_accepted(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    started = transfer(client, "olga", {"new_owner": "pete"})
    assert started.status_code == 201, started.get_data(as_text=True)
    body = started.get_json()
    assert body["full_name"] == "olga/tool"
    assert body["repo_transfer"]["recipient"]["login"] == "pete" and body["repo_transfer"]["doer"]["login"] == "olga"
    # the recipient was made a reader so it can see what it is offered
    assert client.get(f"{API}/repos/olga/tool", headers=basic("pete")).status_code == 200
    assert_error(transfer(client, "olga", {"new_owner": "rosa"}), 409, "already being transferred")
    assert_error(client.post(f"{API}/repos/olga/tool/transfer/accept", headers=basic("olga")), 403)
    accepted = client.post(f"{API}/repos/olga/tool/transfer/accept", headers=basic("pete"))
    assert accepted.status_code == 202, accepted.get_data(as_text=True)
    assert accepted.get_json()["full_name"] == "pete/tool" and accepted.get_json()["repo_transfer"] is None
    # the old place redirects; the Git data moved with the row; the redundant collaboration went
    moved = client.get(f"{API}/repos/olga/tool/contents/README.md", headers=basic("pete"))
    assert moved.status_code == 307 and moved.headers["Location"].endswith("/api/v1/repos/pete/tool/contents/README.md")
    assert client.get(f"{API}/repos/pete/tool/contents/README.md", headers=basic("pete")).status_code == 200
    assert client.get(f"{API}/repos/pete/tool/collaborators", headers=basic("pete")).get_json() == []
    assert_error(client.get(f"{API}/repos/olga/tool", headers=basic("rosa")), 404)
    assert_error(client.post(f"{API}/repos/pete/tool/transfer/accept", headers=basic("pete")), 404)


def test_pending_transfer_rejected(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert transfer(client, "olga", {"new_owner": "pete"}).status_code == 201
    rejected = client.post(f"{API}/repos/olga/tool/transfer/reject", headers=basic("pete"))
    assert rejected.status_code == 200 and rejected.get_json()["full_name"] == "olga/tool"
    assert client.get(f"{API}/repos/olga/tool", headers=basic("olga")).get_json()["repo_transfer"] is None


def test_direct_transfers_and_refusals(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    setup(client, admin_headers)
    assert_error(transfer(client, "olga", {"new_owner": "nobody"}), 404, "does not exist")
    assert_error(transfer(client, "olga", {"new_owner": "pete", "team_ids": [1]}), 422, "organization-owned")
    assert_error(transfer(client, "olga", {}), 422)
    assert_error(transfer(client, "olga", {"new_owner": "olga"}), 422, "already exists")
    assert_error(transfer(client, "pete", {"new_owner": "pete"}), 404)
    make_org(client, "olga", "guild")
    team = client.post(
        f"{API}/orgs/guild/teams",
        headers=basic("olga"),
        json={"name": "devs", "permission": "write", "units": ["repo.code"]},
    ).get_json()
    client.put(f"{API}/teams/{team['id']}/members/rosa", headers=basic("olga"))
    moved = transfer(client, "olga", {"new_owner": "guild", "team_ids": [team["id"]]})
    assert moved.status_code == 202, moved.get_data(as_text=True)
    assert moved.get_json()["full_name"] == "guild/tool"
    assert client.get(f"{API}/repos/guild/tool", headers=basic("rosa")).status_code == 200
    teams = [item["name"] for item in client.get(f"{API}/repos/guild/tool/teams", headers=basic("olga")).get_json()]
    assert teams == ["Owners", "devs"]
    # a site admin moves it back at once
    back = client.post(f"{API}/repos/guild/tool/transfer", headers=admin_headers, json={"new_owner": "olga"})
    assert back.status_code == 202 and back.get_json()["full_name"] == "olga/tool"
    assert client.get(f"{API}/repos/olga/tool", headers=basic("olga")).status_code == 200
