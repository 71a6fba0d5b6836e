"""Forks, fork sync, migrations and mirrors (migrations fetch from this very app served over HTTP)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_branches_support import API, basic, commit_file, head_of, make_repo, make_user, record_events
from test_server_orgs_support import assert_error, make_org
from waitress.server import create_server

from reference_server.events import PushEvent, RepoCreatedEvent
from reference_server.repos.store import upgrade

FORK = f"{API}/repos/bob/copy"


@pytest.fixture
def forked(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    """``ann/code`` and its fork ``bob/copy``."""
    make_user(client, admin_headers, "ann")
    make_user(client, admin_headers, "bob")
    make_repo(client, "ann", "code", description="the base")
    response = client.post(f"{API}/repos/ann/code/forks", headers=basic("bob"), json={"name": "copy"})
    assert response.status_code == 202, response.get_data(as_text=True)


@pytest.fixture
def served(app: Flask) -> Iterator[str]:
    """The app on a real port (waitress with threads), so a migration can clone from the app itself."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.close()
    thread.join(timeout=5)


def test_fork_shape_listing_and_independence(client: FlaskClient, forked: None) -> None:
    body = client.get(FORK, headers=basic("bob")).get_json()
    assert body["fork"] is True
    assert body["parent"]["full_name"] == "ann/code"
    assert body["parent"]["parent"] is None
    assert body["description"] == "the base"
    assert head_of(client, "bob", "copy", "main") == head_of(client, "ann", "code", "main")
    listing = client.get(f"{API}/repos/ann/code/forks", headers=basic("ann"))
    assert [item["full_name"] for item in listing.get_json()] == ["bob/copy"]
    assert listing.headers["X-Total-Count"] == "1"
    assert client.get(f"{API}/repos/ann/code", headers=basic("ann")).get_json()["forks_count"] == 1
    assert client.delete(f"{API}/repos/ann/code", headers=basic("ann")).status_code == 204
    after = client.get(FORK, headers=basic("bob")).get_json()
    assert after["fork"] is False
    assert client.get(f"{FORK}/contents/README.md", headers=basic("bob")).status_code == 200


def test_fork_refusals_and_event(app: Flask, client: FlaskClient, admin_headers: dict[str, str], forked: None) -> None:
    events = record_events(app)
    assert_error(client.post(f"{API}/repos/ann/code/forks", headers=basic("bob"), json={"name": "again"}), 409)
    assert_error(client.post(f"{API}/repos/ann/code/forks", headers=basic("ann"), json={}), 409)
    assert_error(client.post(f"{API}/repos/ann/code/forks", headers=basic("bob"), json={"organization": "nope"}), 422)
    make_user(client, admin_headers, "cid")
    make_org(client, "cid", "acme")
    refused = client.post(f"{API}/repos/ann/code/forks", headers=basic("bob"), json={"organization": "acme"})
    assert_error(refused, 403, "no Member")
    made = client.post(f"{API}/repos/ann/code/forks", headers=basic("cid"), json={"organization": "acme"})
    assert made.status_code == 202
    assert made.get_json()["full_name"] == "acme/code"
    assert events == [RepoCreatedEvent(made.get_json()["id"], "fork")]


def test_merge_upstream_fast_forward_then_up_to_date(app: Flask, client: FlaskClient, forked: None) -> None:
    new = commit_file(client, "ann", "code", "a.txt")
    before = head_of(client, "bob", "copy", "main")
    events = record_events(app)
    response = client.post(f"{FORK}/merge-upstream", headers=basic("bob"), json={"branch": "main"})
    assert response.get_json() == {"merge_type": "fast-forward"}
    assert head_of(client, "bob", "copy", "main") == new
    fork_id = client.get(FORK, headers=basic("bob")).get_json()["id"]
    bob_id = client.get(f"{API}/user", headers=basic("bob")).get_json()["id"]
    assert events == [PushEvent(fork_id, "refs/heads/main", str(before), new, bob_id)]
    again = client.post(f"{FORK}/merge-upstream", headers=basic("bob"), json={"branch": "main"})
    assert again.get_json() == {"merge_type": "up-to-date"}


def test_merge_upstream_merges_and_refuses(client: FlaskClient, forked: None) -> None:
    upstream = commit_file(client, "ann", "code", "a.txt")
    own = commit_file(client, "bob", "copy", "b.txt")
    ff_only = {"branch": "main", "ff_only": True}
    assert_error(client.post(f"{FORK}/merge-upstream", headers=basic("bob"), json=ff_only), 400, "fast-forward")
    assert head_of(client, "bob", "copy", "main") == own
    assert client.post(f"{FORK}/merge-upstream", headers=basic("bob"), json={}).get_json() == {"merge_type": "merge"}
    merge = client.get(f"{FORK}/git/commits/main", headers=basic("bob")).get_json()
    assert [parent["sha"] for parent in merge["parents"]] == [own, upstream]
    assert merge["commit"]["message"].startswith("Merge branch 'main' of ann/code into main")
    assert_error(client.post(f"{API}/repos/ann/code/merge-upstream", headers=basic("ann"), json={}), 400)
    assert_error(client.post(f"{FORK}/merge-upstream", headers=basic("bob"), json={"branch": "nope"}), 404)
    assert_error(client.post(f"{FORK}/merge-upstream", headers=basic("ann"), json={}), 403)


def test_merge_upstream_conflict_changes_nothing(client: FlaskClient, forked: None) -> None:
    commit_file(client, "ann", "code", "same.txt", content="upstream\n")
    own = commit_file(client, "bob", "copy", "same.txt", content="fork\n")
    assert_error(client.post(f"{FORK}/merge-upstream", headers=basic("bob"), json={}), 409, "conflict")
    assert head_of(client, "bob", "copy", "main") == own


def test_forgejo_sync_fork(client: FlaskClient, forked: None) -> None:
    upstream = [commit_file(client, "ann", "code", f"{n}.txt") for n in range(2)]
    info = client.get(f"{FORK}/sync_fork", headers=basic("bob")).get_json()
    assert info["allowed"] is True
    assert info["commits_behind"] == 2
    assert info["base_commit"] == upstream[-1]
    assert client.post(f"{FORK}/sync_fork/main", headers=basic("bob")).status_code == 204
    assert head_of(client, "bob", "copy", "main") == upstream[-1]
    assert client.get(f"{FORK}/sync_fork/main", headers=basic("bob")).get_json()["allowed"] is False
    assert_error(client.post(f"{FORK}/sync_fork/main", headers=basic("bob")), 400)
    assert_error(client.get(f"{FORK}/sync_fork/nope", headers=basic("bob")), 404)


def test_compare_across_a_fork(client: FlaskClient, forked: None) -> None:
    own = commit_file(client, "bob", "copy", "b.txt")
    body = client.get(f"{API}/repos/ann/code/compare/main...bob:main", headers=basic("ann")).get_json()
    assert [item["sha"] for item in body["commits"]] == [own]
    named = client.get(f"{API}/repos/ann/code/compare/main...bob/copy:main", headers=basic("ann")).get_json()
    assert named["total_commits"] == 1
    assert_error(client.get(f"{API}/repos/ann/code/compare/main...ann/code:nope", headers=basic("ann")), 404)


def test_migrate_and_mirror_from_the_app_itself(app: Flask, client: FlaskClient, forked: None, served: str) -> None:
    token = client.post(f"{API}/users/ann/tokens", headers=basic("ann"), json={"name": "m", "scopes": ["all"]})
    secret = token.get_json()["sha1"]
    client.post(f"{API}/user/repos", headers=basic("ann"), json={"name": "hidden", "private": True, "auto_init": True})
    events = record_events(app)
    clone = f"{served}/ann/hidden.git"
    anonymous = {"clone_addr": clone, "repo_name": "nocreds"}
    assert_error(client.post(f"{API}/repos/migrate", headers=basic("ann"), json=anonymous), 422)
    assert client.get(f"{API}/repos/ann/nocreds", headers=basic("ann")).status_code == 404
    body = {"clone_addr": clone, "repo_name": "mirror", "mirror": True, "auth_token": secret}
    made = client.post(f"{API}/repos/migrate", headers=basic("ann"), json=body)
    assert made.status_code == 201, made.get_data(as_text=True)
    assert made.get_json()["mirror"] is True
    assert made.get_json()["original_url"] == clone
    assert head_of(client, "ann", "mirror", "main") == head_of(client, "ann", "hidden", "main")
    assert_error(client.post(f"{API}/repos/migrate", headers=basic("ann"), json=body), 409)
    previous = head_of(client, "ann", "hidden", "main")
    new = commit_file(client, "ann", "hidden", "later.txt")
    assert client.post(f"{API}/repos/ann/mirror/mirror-sync", headers=basic("ann")).status_code == 200
    assert head_of(client, "ann", "mirror", "main") == new
    mirror_id = made.get_json()["id"]
    assert RepoCreatedEvent(mirror_id, "mirror") in events
    ann_id = client.get(f"{API}/user", headers=basic("ann")).get_json()["id"]
    assert events[-1] == PushEvent(mirror_id, "refs/heads/main", str(previous), new, ann_id)
    assert_error(client.delete(f"{API}/repos/ann/mirror/branches/main", headers=basic("ann")), 403)
    assert_error(client.post(f"{API}/repos/ann/code/mirror-sync", headers=basic("ann")), 400, "not a mirror")


@pytest.mark.parametrize(
    ("address", "fragment"),
    [
        ("file:///etc", "local repositories"),
        ("/srv/git/x.git", "local repositories"),
        ("ssh://git@example.com/x.git", "only http and https"),
        ("ext::sh -c touch% /tmp/pwned", "local repositories"),
        ("https:///nohost", "no host"),
    ],
)
def test_migration_refuses_non_http_addresses(
    client: FlaskClient, admin_headers: dict[str, str], address: str, fragment: str
) -> None:
    body = {"clone_addr": address, "repo_name": "stolen"}
    assert_error(client.post(f"{API}/repos/migrate", headers=admin_headers, json=body), 422, fragment)


def test_upgrade_adds_the_fork_columns_to_an_old_table(tmp_path: Path) -> None:
    from reference_server.db import Database

    db = Database(tmp_path / "old.db")
    db.execute("CREATE TABLE repos (id INTEGER PRIMARY KEY, name TEXT)")
    upgrade(db)
    upgrade(db)
    columns = {row["name"] for row in db.all("PRAGMA table_info(repos)")}
    assert {"fork_of", "is_mirror", "original_url"} <= columns
    db.close()
