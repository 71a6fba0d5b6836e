"""Deploy tokens: the REST management routes and their use as the password of Git smart HTTP requests."""

from __future__ import annotations

import base64
import hashlib
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_repos import assert_error, create_repo, live_url, make_user, run_git

from reference_server.deploy_tokens.models import verify_token
from reference_server.events import PushEvent

__all__ = ["live_url"]


def keys_url(repo: str) -> str:
    return f"/api/v1/repos/{repo}/keys"


def create_token(client: FlaskClient, headers: dict[str, str], repo: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"{keys_url(repo)}/tokens", headers=headers, json=body)
    assert response.status_code == 201, response.json
    created = response.json
    assert isinstance(created, dict)
    return created


def as_password(token: str, user: str = "anything") -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{token}".encode()).decode()}


def info_refs(client: FlaskClient, repo: str, service: str, headers: dict[str, str]) -> Any:
    return client.get(f"/{repo}.git/info/refs?service={service}", headers=headers)


@pytest.fixture
def owner(client: FlaskClient, admin_headers: dict[str, str]) -> dict[str, str]:
    headers = make_user(client, admin_headers, "olga")
    create_repo(client, headers, name="app", auto_init=True, private=True)
    create_repo(client, headers, name="other", auto_init=True, private=True)
    return headers


def test_create_shows_the_secret_once_and_stores_only_its_hash(
    app: Flask, client: FlaskClient, owner: dict[str, str]
) -> None:
    created = create_token(client, owner, "olga/app", title="ci", read_only=True)
    secret = created["key"]
    assert secret.startswith("gdt_") and len(secret) == 4 + 43 and secret[4:].isalnum()
    assert created["title"] == "ci" and created["read_only"] is True
    assert created["repository"]["full_name"] == "olga/app"
    assert created["url"] == f"http://forge.test/api/v1/repos/olga/app/keys/{created['id']}"
    listed = client.get(keys_url("olga/app"), headers=owner)
    assert listed.status_code == 200 and listed.headers["X-Total-Count"] == "1"
    assert [(k["id"], k["key"], k["title"]) for k in listed.json or []] == [(created["id"], "", "ci")]
    fetched = client.get(f"{keys_url('olga/app')}/{created['id']}", headers=owner)
    assert fetched.status_code == 200 and (fetched.json or {})["key"] == ""
    rows = app.extensions["forge"].db.all("SELECT * FROM deploy_token")
    stored = [str(value) for row in rows for value in tuple(row)]
    assert secret not in stored and hashlib.sha256(secret.encode()).hexdigest() in stored
    assert create_token(client, owner, "olga/app", title="writer")["read_only"] is False


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "[Title]: Required"),
        ({"title": ""}, "[Title]: Required"),
        ({"title": 5}, "[Title]"),
        ({"title": "x" * 51}, "[Title]: MaxSize"),
        ({"title": "ok", "read_only": "yes"}, "[ReadOnly]"),
    ],
)
def test_bad_options_are_422_and_store_nothing(
    app: Flask, client: FlaskClient, owner: dict[str, str], body: dict[str, Any], message: str
) -> None:
    response = client.post(f"{keys_url('olga/app')}/tokens", headers=owner, json=body)
    assert_error(response, 422, message)
    assert app.extensions["forge"].db.scalar("SELECT COUNT(*) FROM deploy_token") == 0


def test_duplicate_title_is_422_per_repository(client: FlaskClient, owner: dict[str, str]) -> None:
    create_token(client, owner, "olga/app", title="Deploy")
    again = client.post(f"{keys_url('olga/app')}/tokens", headers=owner, json={"title": "deploy"})
    assert_error(again, 422, "A key with the same name already exists")
    assert create_token(client, owner, "olga/other", title="Deploy")["title"] == "Deploy"


def test_only_repository_admins_manage_tokens(
    client: FlaskClient, admin_headers: dict[str, str], owner: dict[str, str]
) -> None:
    stranger = make_user(client, admin_headers, "sam")
    create_repo(client, owner, name="open", auto_init=True)
    assert_error(client.post(f"{keys_url('olga/app')}/tokens", json={"title": "x"}), 401)
    assert_error(client.post(f"{keys_url('olga/app')}/tokens", headers=stranger, json={"title": "x"}), 404)
    assert_error(client.post(f"{keys_url('olga/open')}/tokens", headers=stranger, json={"title": "x"}), 403)
    assert_error(client.get(keys_url("olga/open"), headers=stranger), 403)
    assert create_token(client, admin_headers, "olga/app", title="by-admin")["title"] == "by-admin"


def test_delete_and_regenerate(client: FlaskClient, owner: dict[str, str]) -> None:
    created = create_token(client, owner, "olga/app", title="ci")
    key_url = f"{keys_url('olga/app')}/{created['id']}"
    regenerated = client.post(f"{keys_url('olga/app')}/tokens/{created['id']}/regenerate", headers=owner)
    assert regenerated.status_code == 200 and regenerated.json is not None
    assert regenerated.json["id"] == created["id"] and regenerated.json["title"] == "ci"
    assert regenerated.json["key"].startswith("gdt_") and regenerated.json["key"] != created["key"]
    assert_error(client.post(f"{keys_url('olga/other')}/tokens/{created['id']}/regenerate", headers=owner), 404)
    assert_error(client.delete(f"{keys_url('olga/other')}/{created['id']}", headers=owner), 404)
    assert_error(client.get(f"{keys_url('olga/app')}/nope", headers=owner), 404)
    assert client.delete(key_url, headers=owner).status_code == 204
    assert_error(client.delete(key_url, headers=owner), 404)
    assert client.get(keys_url("olga/app"), headers=owner).json == []


def test_git_access_with_deploy_tokens(client: FlaskClient, owner: dict[str, str]) -> None:
    reader = create_token(client, owner, "olga/app", title="reader", read_only=True)["key"]
    writer = create_token(client, owner, "olga/app", title="writer")
    assert info_refs(client, "olga/app", "git-upload-pack", as_password(reader)).status_code == 200
    refused = info_refs(client, "olga/app", "git-receive-pack", as_password(reader))
    assert refused.status_code == 403
    assert info_refs(client, "olga/app", "git-receive-pack", as_password(writer["key"], "x")).status_code == 200
    assert info_refs(client, "olga/other", "git-upload-pack", as_password(writer["key"])).status_code == 404
    assert client.get("/api/v1/repos/olga/app", headers=as_password(writer["key"])).status_code == 401
    old = writer["key"]
    client.post(f"{keys_url('olga/app')}/tokens/{writer['id']}/regenerate", headers=owner)
    assert info_refs(client, "olga/app", "git-upload-pack", as_password(old)).status_code == 401
    client.delete(f"{keys_url('olga/app')}/{writer['id']}", headers=owner)
    assert info_refs(client, "olga/app", "git-upload-pack", as_password(old)).status_code == 401


def test_deploy_token_of_a_deleted_repository_goes_with_it(
    app: Flask, client: FlaskClient, owner: dict[str, str]
) -> None:
    token = create_token(client, owner, "olga/other", title="gone")["key"]
    assert client.delete("/api/v1/repos/olga/other", headers=owner).status_code == 204
    assert app.extensions["forge"].db.scalar("SELECT COUNT(*) FROM deploy_token") == 0
    assert info_refs(client, "olga/other", "git-upload-pack", as_password(token)).status_code == 401


def test_real_git_push_with_a_read_write_token_publishes_a_push_event(
    app: Flask, client: FlaskClient, owner: dict[str, str], live_url: str, tmp_path: Path
) -> None:
    events: list[PushEvent] = []
    app.extensions["forge"].events.subscribe(PushEvent, events.append)
    reader = create_token(client, owner, "olga/app", title="reader", read_only=True)["key"]
    writer = create_token(client, owner, "olga/app", title="writer")["key"]
    host = live_url.removeprefix("http://")
    work = tmp_path / "work"
    assert run_git("clone", "-q", f"http://deploy:{reader}@{host}/olga/app.git", str(work)).returncode == 0
    (work / "deployed.txt").write_text("by a deploy token\n")
    assert run_git("add", "deployed.txt", cwd=work).returncode == 0
    assert run_git("commit", "-q", "-m", "deploy", cwd=work).returncode == 0
    head = run_git("rev-parse", "HEAD", cwd=work).stdout.strip()
    refused = run_git("push", "-q", f"http://deploy:{reader}@{host}/olga/app.git", "main", cwd=work)
    assert refused.returncode != 0 and "403" in refused.stderr
    assert events == []
    pushed = run_git("push", "-q", f"http://deploy:{writer}@{host}/olga/app.git", "main", cwd=work)
    assert pushed.returncode == 0, pushed.stderr
    owner_id = app.extensions["forge"].db.scalar("SELECT id FROM accounts WHERE name = 'olga'")
    assert [(e.ref, e.after, e.pusher_id) for e in events] == [("refs/heads/main", head, owner_id)]
    other = run_git("push", "-q", f"http://deploy:{writer}@{host}/olga/other.git", "main", cwd=work)
    assert other.returncode != 0


# -- SSH deploy keys (POST /keys), listed with the tokens --------------------------------------------------


def _ssh_key(tmp_path: Path, name: str, kind: str = "ed25519", bits: int = 0) -> str:
    path = tmp_path / name
    args = ["ssh-keygen", "-q", "-N", "", "-t", kind, "-f", str(path), "-C", f"{name}@example"]
    if bits:
        args += ["-b", str(bits)]
    subprocess.run(args, check=True, capture_output=True)
    return (tmp_path / f"{name}.pub").read_text()


KEYS = keys_url("olga/app")


def test_deploy_key_is_parsed_fingerprinted_and_listed_with_tokens(
    client: FlaskClient, owner: dict[str, str], tmp_path: Path
) -> None:
    public = _ssh_key(tmp_path, "k1")
    expected = subprocess.run(
        ["ssh-keygen", "-l", "-f", str(tmp_path / "k1.pub")], check=True, capture_output=True, text=True
    ).stdout.split()[1]
    created = client.post(f"{KEYS}", headers=owner, json={"title": "ci", "key": public, "read_only": True})
    assert created.status_code == 201, created.get_data(as_text=True)
    body = created.get_json()
    assert body["fingerprint"] == expected
    assert body["key"] == " ".join(public.split()[:2])
    assert body["read_only"] is True and body["key_id"] == body["id"]
    assert "repository" not in body
    token = client.post(f"{KEYS}/tokens", headers=owner, json={"title": "tok"})
    assert token.status_code == 201
    listed = client.get(KEYS, headers=owner).get_json()
    assert [item["title"] for item in listed] == ["ci", "tok"]
    fetched = client.get(f"{KEYS}/{body['id']}", headers=owner).get_json()
    assert fetched["fingerprint"] == expected and fetched["key"] == body["key"]
    assert client.delete(f"{KEYS}/{body['id']}", headers=owner).status_code == 204


def test_deploy_key_refusals(client: FlaskClient, owner: dict[str, str], tmp_path: Path) -> None:
    public = _ssh_key(tmp_path, "k2")
    assert client.post(KEYS, headers=owner, json={"title": "one", "key": public}).status_code == 201
    again = client.post(KEYS, headers=owner, json={"title": "two", "key": public})
    assert again.status_code == 422
    assert again.get_json()["message"] == "This key has already been added to this repository"
    other = _ssh_key(tmp_path, "k3")
    taken = client.post(KEYS, headers=owner, json={"title": "one", "key": other})
    assert taken.status_code == 422 and taken.get_json()["message"] == "A key with the same name already exists"
    garbage = client.post(KEYS, headers=owner, json={"title": "bad", "key": "ssh-ed25519 notbase64!"})
    assert garbage.status_code == 422 and garbage.get_json()["message"].startswith("Invalid key content")
    small = _ssh_key(tmp_path, "k4", "rsa", 2048)
    weak = client.post(KEYS, headers=owner, json={"title": "weak", "key": small})
    assert weak.status_code == 422
    assert weak.get_json()["message"] == "Invalid key content: key length is not enough: got 2048, needs 3071"
    missing = client.post(KEYS, headers=owner, json={"title": "none"})
    assert missing.status_code == 422


def test_a_deploy_key_is_no_password(client: FlaskClient, owner: dict[str, str], tmp_path: Path) -> None:
    public = _ssh_key(tmp_path, "k5")
    assert client.post(KEYS, headers=owner, json={"title": "ssh", "key": public}).status_code == 201
    with client.application.app_context():
        assert verify_token(public) is None
