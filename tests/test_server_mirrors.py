"""Push mirrors: Go durations, address checks, credentials never answered, and a sync that really pushes
(to an empty repository of this very app served over HTTP)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_branches_support import API, basic, commit_file, head_of, make_repo, make_user
from test_server_orgs_support import PASSWORD
from waitress.server import create_server

from reference_server.timefmt import format_duration, parse_duration

MIRRORS = f"{API}/repos/ann/code/push_mirrors"


@pytest.fixture
def served(app: Flask) -> Iterator[str]:
    """The app on a real port, so a push mirror can push to the app itself."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.close()
    thread.join(timeout=5)


@pytest.fixture
def ann(client: FlaskClient, admin_headers: dict[str, str]) -> None:
    """``ann/code`` with a commit, and an empty ``ann/target`` to push to."""
    make_user(client, admin_headers, "ann")
    make_repo(client, "ann", "code")
    assert client.post(f"{API}/user/repos", headers=basic("ann"), json={"name": "target"}).status_code == 201


@pytest.mark.parametrize(
    ("text", "ns", "shown"),
    [("8h", 8 * 3600 * 10**9, "8h0m0s"), ("10m", 600 * 10**9, "10m0s"), ("0", 0, "0s"),
     ("1h30m", 5400 * 10**9, "1h30m0s"), ("90.5s", 90_500_000_000, "1m30.5s"), ("250ms", 250_000_000, "250ms")],
)  # fmt: skip
def test_go_durations(text: str, ns: int, shown: str) -> None:
    assert parse_duration(text) == ns
    assert format_duration(ns) == shown


@pytest.mark.parametrize("bad", ["", "8", "h", "1x", "--1h", "1h-"])
def test_bad_go_durations(bad: str) -> None:
    assert parse_duration(bad) is None


def test_add_get_list_delete_and_no_secret(client: FlaskClient, ann: None) -> None:
    body = {
        "remote_address": "https://someone:inline@example.com/x.git",
        "remote_username": "u",
        "remote_password": "s3cret-password",
        "interval": "8h",
        "sync_on_commit": True,
    }
    added = client.post(MIRRORS, headers=basic("ann"), json=body)
    assert added.status_code == 200, added.get_json()
    mirror = added.get_json()
    assert mirror["remote_address"] == "https://example.com/x.git" and mirror["interval"] == "8h0m0s"
    assert mirror["remote_name"].startswith("remote_mirror_") and len(mirror["remote_name"]) == 24
    assert mirror["last_update"] is None and mirror["sync_on_commit"] is True and mirror["repo_name"] == "code"
    assert "s3cret" not in added.get_data(as_text=True) and "inline" not in added.get_data(as_text=True)
    listed = client.get(MIRRORS, headers=basic("ann"))
    assert [item["remote_name"] for item in listed.get_json()] == [mirror["remote_name"]]
    assert listed.headers["X-Total-Count"] == "1"
    one = client.get(f"{MIRRORS}/{mirror['remote_name']}", headers=basic("ann"))
    assert one.status_code == 200 and "s3cret" not in one.get_data(as_text=True)
    assert client.delete(f"{MIRRORS}/{mirror['remote_name']}", headers=basic("ann")).status_code == 204
    assert client.get(f"{MIRRORS}/{mirror['remote_name']}", headers=basic("ann")).status_code == 404


@pytest.mark.parametrize(
    ("address", "interval", "status"),
    [
        ("https://example.com/x.git", "5m", 400),
        ("https://example.com/x.git", "soon", 400),
        ("ssh://example.com/x.git", "8h", 400),
        ("not a url", "8h", 400),
        ("file:///etc", "8h", 401),
        ("/srv/git/x.git", "8h", 401),
        ("http://10.0.0.1/x.git", "8h", 401),
    ],
)
def test_refusals(client: FlaskClient, ann: None, address: str, interval: str, status: int) -> None:
    answer = client.post(MIRRORS, headers=basic("ann"), json={"remote_address": address, "interval": interval})
    assert answer.status_code == status, answer.get_json()
    assert client.get(MIRRORS, headers=basic("ann")).get_json() == []


def test_sync_pushes_every_branch(client: FlaskClient, ann: None, served: str) -> None:
    commit_file(client, "ann", "code", "a.txt", content="hello")
    body = {"remote_address": f"{served}/ann/target.git", "remote_username": "ann", "remote_password": PASSWORD}
    added = client.post(MIRRORS, headers=basic("ann"), json={**body, "interval": "0"})
    assert added.status_code == 200, added.get_json()
    synced = client.post(f"{API}/repos/ann/code/push_mirrors-sync", headers=basic("ann"))
    mirror = client.get(f"{MIRRORS}/{added.get_json()['remote_name']}", headers=basic("ann")).get_json()
    assert synced.status_code == 200, mirror["last_error"]
    assert head_of(client, "ann", "target", "main") == head_of(client, "ann", "code", "main")
    mirror = client.get(f"{MIRRORS}/{added.get_json()['remote_name']}", headers=basic("ann")).get_json()
    assert mirror["last_update"] is not None and mirror["last_error"] == ""


def test_a_failed_sync_is_recorded(client: FlaskClient, ann: None, served: str) -> None:
    body = {"remote_address": f"{served}/ann/target.git", "remote_username": "ann", "remote_password": "wrong"}
    added = client.post(MIRRORS, headers=basic("ann"), json={**body, "interval": "0"})
    synced = client.post(f"{API}/repos/ann/code/push_mirrors-sync", headers=basic("ann"))
    assert synced.status_code == 400 and added.get_json()["remote_name"] in synced.get_json()["message"]
    mirror = client.get(f"{MIRRORS}/{added.get_json()['remote_name']}", headers=basic("ann")).get_json()
    assert mirror["last_error"] and "wrong" not in mirror["last_error"]


def test_only_administrators(client: FlaskClient, ann: None, admin_headers: dict[str, str]) -> None:
    make_user(client, admin_headers, "bob")
    assert client.get(MIRRORS, headers=basic("bob")).status_code == 403


def test_a_commit_syncs_the_mirrors_that_ask_for_it(app: Flask, client: FlaskClient, ann: None, served: str) -> None:
    body = {"remote_address": f"{served}/ann/target.git", "remote_username": "ann", "remote_password": PASSWORD}
    assert (
        client.post(MIRRORS, headers=basic("ann"), json={**body, "interval": "0", "sync_on_commit": True}).status_code
        == 200
    )
    commit_file(client, "ann", "code", "b.txt", content="pushed on commit")
    assert app.extensions["push_mirror_syncs"].wait_idle(30)
    assert head_of(client, "ann", "target", "main") == head_of(client, "ann", "code", "main")
