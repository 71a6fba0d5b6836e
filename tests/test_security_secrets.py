"""Credentials are stored hashed or sealed, never in clear: not in the database, its WAL, or the server log.

One real reference server (the harness's embedded subprocess, with its log file) gets every kind of
credential the kit knows: a password, an access token (also used in the deprecated ``?token=``), a
deploy token, a runner registration token, a runner token, a job token and a runtime token, an
action secret, a webhook secret and authorization header, and a mirror's remote credentials. Then
the database file, its WAL and shared-memory files and the log are searched for every plaintext.
"""

from __future__ import annotations

import base64
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from conformance.target import EmbeddedServer
from reference_server.actions import runners
from reference_server.app import create_app
from reference_server.config import Config

WORKFLOW = """
on: push
jobs:
  build:
    runs-on: sec-label
    steps:
      - run: echo hello
"""
RUNNER = "api/actions/runner.v1.RunnerService/"
PASSWORD = "Pa55word-that-is-secret"


class Server:
    """The embedded server and small helpers to call it as the admin or as a runner."""

    def __init__(self, embedded: EmbeddedServer) -> None:
        self.embedded = embedded
        self.base = embedded.base_url
        self.admin = {"Authorization": f"token {embedded.admin_token}"}

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("headers", self.admin)
        return requests.request(method, f"{self.base}api/v1/{path}", timeout=30, **kwargs)

    def runner_call(self, method: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        answer = requests.post(f"{self.base}{RUNNER}{method}", json=body, headers=headers or {}, timeout=30)
        assert answer.status_code == 200, answer.text
        return answer.json()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("secrets") / "reference-server.log"
    embedded = EmbeddedServer(log, keep_data=True)
    embedded.start()
    try:
        yield Server(embedded)
    finally:
        embedded.stop()
        import shutil

        shutil.rmtree(embedded.data_dir, ignore_errors=True)


def _created(response: requests.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), f"{response.status_code} {response.text}"
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture(scope="module")
def plaintexts(server: Server) -> dict[str, str]:
    """Every kind of credential, created and used over HTTP; the map of kind to plaintext."""
    found: dict[str, str] = {"password": PASSWORD}
    user = {"username": "sam", "email": "sam@example.com", "password": PASSWORD, "must_change_password": False}
    _created(server.api("POST", "admin/users", json=user))
    basic = {"Authorization": "Basic " + base64.b64encode(f"sam:{PASSWORD}".encode()).decode()}
    token = _created(server.api("POST", "users/sam/tokens", headers=basic, json={"name": "t", "scopes": ["all"]}))
    found["access token"] = token["sha1"]
    sam = {"Authorization": f"token {found['access token']}"}
    assert server.api("GET", f"user?token={found['access token']}", headers={}).status_code == 200
    _created(server.api("POST", "user/repos", headers=sam, json={"name": "app", "auto_init": True}))
    deploy = _created(server.api("POST", "repos/sam/app/keys/tokens", headers=sam, json={"title": "ci"}))
    found["deploy token"] = deploy["key"]
    secret = "action-secret-value-0xC0FFEE"
    assert server.api("PUT", "repos/sam/app/actions/secrets/DEPLOY_KEY", headers=sam, json={"data": secret}).ok
    found["action secret"] = secret
    hook = {
        "type": "gitea",
        "config": {"url": "http://127.0.0.2:9/hook", "content_type": "json", "secret": "webhook-secret-0xBEEF"},
        "authorization_header": "Bearer webhook-authorization-0xFACE",
        "events": ["workflow_run"],
        "active": True,
    }
    _created(server.api("POST", "repos/sam/app/hooks", headers=sam, json=hook))
    found["webhook secret"] = "webhook-secret-0xBEEF"
    found["webhook authorization header"] = "webhook-authorization-0xFACE"
    registration = _created(server.api("POST", "repos/sam/app/actions/runners/registration-token", headers=sam))
    found["registration token"] = registration["token"]
    registered = server.runner_call(
        "Register", {"name": "sec", "token": found["registration token"], "labels": ["sec-label"]}
    )
    found["runner token"] = registered["runner"]["token"]
    content = base64.b64encode(WORKFLOW.encode()).decode()
    _created(
        server.api("POST", "repos/sam/app/contents/.gitea/workflows/ci.yml", headers=sam, json={"content": content})
    )
    headers = {"x-runner-uuid": registered["runner"]["uuid"], "x-runner-token": found["runner token"]}
    task = server.runner_call("FetchTask", {"tasksVersion": "0"}, headers)["task"]
    found["job token"] = task["secrets"]["GITEA_TOKEN"]
    found["runtime token"] = task["context"]["gitea_runtime_token"]
    mirror = {
        "clone_addr": f"{server.base}sam/app.git",
        "repo_name": "mirrored",
        "mirror": True,
        "auth_username": "sam",
        "auth_password": found["access token"],
    }
    _created(server.api("POST", "repos/migrate", headers=sam, json=mirror))
    found["push mirror password"] = "push-mirror-password-0xC0DE"
    push_mirror = {
        "remote_address": f"{server.base}sam/mirrored.git",
        "remote_username": "sam",
        "remote_password": found["push mirror password"],
        "interval": "0",
    }
    added = server.api("POST", "repos/sam/app/push_mirrors", headers=sam, json=push_mirror)
    assert added.status_code == 200 and found["push mirror password"] not in added.text, added.text
    synced = server.api("POST", "repos/sam/app/push_mirrors-sync", headers=sam)  # refused: a wrong password
    assert synced.status_code == 400 and found["push mirror password"] not in synced.text, synced.text
    return found


def _files(server: Server) -> dict[str, bytes]:
    data = server.embedded.data_dir
    files = {name: (data / name).read_bytes() for name in ("forge.db", "forge.db-wal", "forge.db-shm")}
    assert len(files["forge.db"]) + len(files["forge.db-wal"]) > 0
    files["server log"] = server.embedded.log_path.read_bytes()
    return files


def test_every_kind_of_credential_was_made(plaintexts: dict[str, str]) -> None:
    assert len(plaintexts) == 11  # the pull mirror's remote password is the access token
    assert all(len(value) >= 16 for value in plaintexts.values())


@pytest.mark.parametrize(
    "kind",
    [
        "password",
        "access token",
        "deploy token",
        "action secret",
        "webhook secret",
        "webhook authorization header",
        "registration token",
        "runner token",
        "job token",
        "runtime token",
        "push mirror password",
    ],
)
def test_no_plaintext_in_the_database_its_wal_or_the_log(server: Server, plaintexts: dict[str, str], kind: str) -> None:
    value = plaintexts[kind].encode()
    for name, content in _files(server).items():
        assert value not in content, f"the {kind} is in {name} in clear"


def test_the_database_holds_the_sha256_of_tokens(server: Server, plaintexts: dict[str, str]) -> None:
    """Tokens are found again by their SHA-256 (so the tests above are not passing on an empty database)."""
    digest = runners.hash_token(plaintexts["registration token"])
    with sqlite3.connect(f"file:{server.embedded.data_dir / 'forge.db'}?mode=ro", uri=True) as db:
        assert db.execute("SELECT COUNT(*) FROM action_runner_token WHERE token_hash = ?", (digest,)).fetchone() == (1,)
        access = runners.hash_token(plaintexts["access token"])
        assert db.execute("SELECT COUNT(*) FROM access_tokens WHERE token_hash = ?", (access,)).fetchone() == (1,)
        password = db.execute("SELECT password_hash FROM accounts WHERE lower_name = 'sam'").fetchone()[0]
        assert str(password).startswith("scrypt"), "passwords are scrypt hashes"


def test_a_database_from_before_sealing_is_sealed_at_start(tmp_path: Path) -> None:
    """Registration tokens and webhook credentials stored in clear by an older version are sealed on start."""
    data = tmp_path / "data"
    app = create_app(Config(data_dir=data))
    forge = app.extensions["forge"]
    forge.db.execute("DROP TABLE action_runner_token")
    forge.db.execute(
        "CREATE TABLE action_runner_token (id INTEGER PRIMARY KEY AUTOINCREMENT, token TEXT NOT NULL UNIQUE,"
        " owner_id INTEGER NOT NULL, repo_id INTEGER NOT NULL, is_active INTEGER NOT NULL,"
        " created INTEGER NOT NULL, updated INTEGER NOT NULL)"
    )
    clear = "0123456789abcdef0123456789abcdef0badf00d"
    forge.db.execute("INSERT INTO action_runner_token VALUES (1, ?, 0, 0, 1, 0, 0)", (clear,))
    forge.db.execute(
        "INSERT INTO webhook (repo_id, type, url, content_type, secret, events, authorization_header, active,"
        " created, updated) VALUES (1, 'gitea', 'http://x/', 'json', 'old-clear-secret', '[]', 'Bearer old', 1, 0, 0)"
    )
    forge.db.close()
    again = create_app(Config(data_dir=data))
    with again.app_context():
        assert runners.registration_token(0, 0) == clear, "the active token is still shown (unsealed)"
        from reference_server.webhooks import models as hooks

        [row] = again.extensions["forge"].db.all("SELECT * FROM webhook")
        assert hooks.Hook.from_row(row).secret == "old-clear-secret"
        assert hooks.Hook.from_row(row).authorization_header == "Bearer old"
    again.extensions["forge"].db.close()
    with sqlite3.connect(data / "forge.db") as db:
        secret, header = db.execute("SELECT secret, authorization_header FROM webhook").fetchone()
        assert secret.startswith("sealed:") and header.startswith("sealed:")
        assert db.execute("SELECT token_hash FROM action_runner_token").fetchone()[0] == runners.hash_token(clear)
