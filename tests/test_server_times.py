"""Tracked times: who may track on an issue, who sees whose times, deletion by owner or site admin only."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from test_server_branches_support import API, basic, make_repo, make_user

ISSUE_TIMES = f"{API}/repos/ann/demo/issues/1/times"


@pytest.fixture
def issue(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    """``ann/demo`` with issue 1 opened by Bob (a non-collaborator); Carol is a stranger."""
    for name in ("ann", "bob", "carol"):
        make_user(client, admin_headers, name)
    make_repo(client, "ann", "demo")
    assert client.post(f"{API}/repos/ann/demo/issues", headers=basic("bob"), json={"title": "t"}).status_code == 201


def test_poster_and_writer_track_strangers_do_not(client: FlaskClient, issue: None) -> None:
    added = client.post(ISSUE_TIMES, headers=basic("bob"), json={"time": 60})
    assert added.status_code == 200, added.get_json()
    body = added.get_json()
    assert body["time"] == 60 and body["user_name"] == "bob" and body["issue"]["number"] == 1
    assert client.post(ISSUE_TIMES, headers=basic("ann"), json={"time": 30}).status_code == 200
    assert client.post(ISSUE_TIMES, headers=basic("carol"), json={"time": 5}).status_code == 403
    assert client.post(ISSUE_TIMES, headers=basic("ann"), json={"time": 0}).status_code == 422
    everyone = client.get(f"{API}/repos/ann/demo/times", headers=basic("ann"))
    assert [item["time"] for item in everyone.get_json()] == [60, 30] and everyone.headers["X-Total-Count"] == "2"
    own = client.get(f"{API}/repos/ann/demo/times", headers=basic("bob")).get_json()
    assert [item["user_name"] for item in own] == ["bob"]
    refused = client.get(f"{API}/repos/ann/demo/times", headers=basic("bob"), query_string={"user": "ann"})
    assert refused.status_code == 403
    assert client.get(f"{API}/repos/ann/demo/times/bob", headers=basic("carol")).status_code == 403
    assert len(client.get(f"{API}/repos/ann/demo/times/bob", headers=basic("ann")).get_json()) == 1
    assert client.get(f"{API}/repos/ann/demo/times/nobody", headers=basic("ann")).status_code == 404


def test_admin_adds_for_others_and_deletion_rules(
    client: FlaskClient, issue: None, admin_headers: dict[str, str]
) -> None:
    for_bob = client.post(ISSUE_TIMES, headers=basic("ann"), json={"time": 10, "user_name": "bob"})
    assert for_bob.get_json()["user_name"] == "bob"  # the repository's owner is its administrator
    by_bob = client.post(ISSUE_TIMES, headers=basic("bob"), json={"time": 20, "user_name": "ann"})
    assert by_bob.get_json()["user_name"] == "bob"  # anyone else tracks for themselves
    time_id = for_bob.get_json()["id"]
    assert client.delete(f"{ISSUE_TIMES}/{time_id}", headers=basic("ann")).status_code == 403
    assert client.delete(f"{ISSUE_TIMES}/{time_id}", headers=admin_headers).status_code == 204
    assert client.delete(f"{ISSUE_TIMES}/{time_id}", headers=admin_headers).status_code == 404
    assert client.delete(ISSUE_TIMES, headers=basic("bob")).status_code == 204
    assert client.delete(ISSUE_TIMES, headers=basic("bob")).status_code == 404
    assert client.get(ISSUE_TIMES, headers=basic("ann")).get_json() == []


def test_since_before_filters(client: FlaskClient, issue: None) -> None:
    for created in ("2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z"):
        client.post(ISSUE_TIMES, headers=basic("ann"), json={"time": 1, "created": created})
    found = client.get(ISSUE_TIMES, headers=basic("ann"), query_string={"since": "2024-06-01T00:00:00Z"})
    assert [item["created"][:4] for item in found.get_json()] == ["2025"]
    bad = client.get(ISSUE_TIMES, headers=basic("ann"), query_string={"before": "yesterday"})
    assert bad.status_code == 422


def test_my_times_across_repositories(client: FlaskClient, issue: None) -> None:
    make_repo(client, "ann", "other")
    assert client.post(f"{API}/repos/ann/other/issues", headers=basic("ann"), json={"title": "o"}).status_code == 201
    client.post(ISSUE_TIMES, headers=basic("ann"), json={"time": 5})
    client.post(f"{API}/repos/ann/other/issues/1/times", headers=basic("ann"), json={"time": 7})
    client.post(ISSUE_TIMES, headers=basic("bob"), json={"time": 9})
    mine = client.get(f"{API}/user/times", headers=basic("ann"))
    assert [item["time"] for item in mine.get_json()] == [5, 7] and mine.headers["X-Total-Count"] == "2"
