"""``conformance janitor``: finds a run's leftovers by prefix, lists them (dry run) or deletes them in order."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import requests

from conformance.cli import main as cli_main
from conformance.janitor import Janitor, JanitorApi
from conformance.paths import KIT_ROOT
from conformance.target import LISTENING


def _answer(status: int, body: Any = None) -> requests.Response:
    import json

    response = requests.Response()
    response.status_code = status
    response._content = json.dumps(body if body is not None else []).encode()
    return response


def _iso(hours_ago: float) -> str:
    return (datetime.now(UTC) - timedelta(hours=hours_ago)).isoformat(timespec="seconds")


class FakeApi:
    """Answers the janitor's listings from tables and records its deletions."""

    def __init__(self, users: list[dict[str, Any]], orgs: list[str], repos: dict[str, list[dict[str, Any]]]) -> None:
        self.users = users
        self.orgs = orgs
        self.repos = repos
        self.deleted: list[str] = []
        self.searched: list[str] = []
        self.refuse: set[str] = set()

    def search_users(self, keyword: str, page: int) -> requests.Response:
        self.searched.append(keyword)
        found = [user for user in self.users if keyword in user["login"]]
        return _answer(200, found[(page - 1) * 50 : page * 50])

    def all_orgs(self, page: int) -> requests.Response:
        return _answer(200, [{"username": name} for name in self.orgs][(page - 1) * 50 : page * 50])

    def org_repos(self, org: str, page: int) -> requests.Response:
        return _answer(200, self.repos.get(org, []) if page == 1 else [])

    def _delete(self, what: str) -> requests.Response:
        self.deleted.append(what)
        return _answer(500, {"message": "busy"}) if what in self.refuse else _answer(204)

    def delete_repo(self, owner: str, name: str) -> requests.Response:
        return self._delete(f"repository {owner}/{name}")

    def delete_org(self, org: str) -> requests.Response:
        return self._delete(f"organization {org}")

    def delete_user(self, username: str) -> requests.Response:
        return self._delete(f"user {username}")


def _fake() -> FakeApi:
    users = [
        {"login": "ckaaaaaa-1-alice", "created": _iso(30)},
        {"login": "ckaaaaaa-2-bob", "created": _iso(30)},
        {"login": "ckbbbbbb-1-carol", "created": _iso(1)},
        {"login": "jack", "created": _iso(100)},
        {"login": "ckaaaaaa", "created": _iso(100)},
    ]
    orgs = ["ckaaaaaa-3-acme", "ckbbbbbb-2-beta", "public-org"]
    repos = {"ckaaaaaa-3-acme": [{"full_name": "ckaaaaaa-3-acme/ckaaaaaa-3-app", "created_at": _iso(29)}]}
    return FakeApi(users, orgs, repos)


def test_a_run_id_finds_its_repositories_organizations_and_users_in_deletion_order() -> None:
    fake = _fake()
    found = Janitor(fake).find(run_id="ckaaaaaa")  # type: ignore[arg-type]
    assert [(item.kind, item.name) for item in found] == [
        ("repository", "ckaaaaaa-3-acme/ckaaaaaa-3-app"),
        ("organization", "ckaaaaaa-3-acme"),
        ("user", "ckaaaaaa-1-alice"),
        ("user", "ckaaaaaa-2-bob"),
    ]
    assert fake.searched == ["ckaaaaaa-"]
    assert fake.deleted == [], "finding deletes nothing"


def test_all_older_than_keeps_only_prefixes_with_something_old_enough() -> None:
    fake = _fake()
    found = Janitor(fake).find(older_than=timedelta(hours=24))  # type: ignore[arg-type]
    assert {item.prefix for item in found} == {"ckaaaaaa"}
    assert "ckbbbbbb-2-beta" not in {item.name for item in found}
    assert "jack" not in {item.name for item in found} and "ckaaaaaa" not in {item.name for item in found}
    everything = Janitor(fake).find(older_than=timedelta(0))  # type: ignore[arg-type]
    assert {item.prefix for item in everything} == {"ckaaaaaa", "ckbbbbbb"}


def test_deletion_goes_in_order_and_reports_what_failed() -> None:
    fake = _fake()
    fake.refuse = {"organization ckaaaaaa-3-acme"}
    janitor = Janitor(fake)  # type: ignore[arg-type]
    failures = janitor.delete(janitor.find(run_id="ckaaaaaa"))
    assert fake.deleted == [
        "repository ckaaaaaa-3-acme/ckaaaaaa-3-app",
        "organization ckaaaaaa-3-acme",
        "user ckaaaaaa-1-alice",
        "user ckaaaaaa-2-bob",
    ]
    assert [(leftover.name, reason[:19]) for leftover, reason in failures] == [
        ("ckaaaaaa-3-acme", "delete answered 500")
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--run-id", "ck12"], "--run-id must be ck and six base-36 characters"),
        (["--run-id", "ckaaaaaa", "--all-older-than", "2"], "not allowed with argument"),
        ([], "one of the arguments --run-id --all-older-than is required"),
    ],
)
def test_bad_usage_is_refused_with_its_reason(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli_main(["janitor", "--target", "http://forge.test/", "--token", "t", *arguments])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_without_a_live_target_the_janitor_refuses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CONFORMANCE_TARGET", raising=False)
    monkeypatch.delenv("CONFORMANCE_TOKEN", raising=False)
    assert cli_main(["janitor", "--run-id", "ckaaaaaa"]) == 4
    assert "a live target is needed" in capsys.readouterr().err


@dataclass
class Server:
    url: str
    token: str

    def api(self) -> JanitorApi:
        from conformance.client import HttpClient, Recorder, TokenAuth

        return JanitorApi(HttpClient(self.url + "api/v1/", TokenAuth(self.token), recorder=Recorder()), self.url)

    def post(self, path: str, body: dict[str, Any], auth: tuple[str, str] | None = None) -> None:
        headers = {} if auth else {"Authorization": f"token {self.token}"}
        answer = requests.post(self.url + "api/v1/" + path, json=body, headers=headers, auth=auth, timeout=30)
        assert answer.status_code == 201, answer.text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("janitor")
    token = secrets.token_hex(20)
    log_path = data / "server.log"
    command = [sys.executable, "-m", "reference_server.cli", "--port", "0", "--data-dir", str(data / "d")]
    command += ["--admin-token", token, "--password-cost", "fast"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=KIT_ROOT)
        try:
            deadline = time.monotonic() + 60
            found = None
            while found is None and time.monotonic() < deadline:
                found = LISTENING.search(log_path.read_text(encoding="utf-8"))
                assert process.poll() is None, log_path.read_text(encoding="utf-8")
                time.sleep(0.05)
            assert found is not None, "the reference server did not start"
            yield Server(found.group(1), token)
        finally:
            process.terminate()
            process.wait(timeout=10)


def _leave_a_crashed_runs_things(server: Server, prefix: str) -> None:
    password = "Pw1!long-enough-password"
    for short in ("alice", "bob"):
        body = {"username": f"{prefix}-1-{short}", "email": f"{prefix}-{short}@x.invalid", "password": password}
        server.post("admin/users", body | {"must_change_password": False})
    alice = (f"{prefix}-1-alice", password)
    server.post("user/repos", {"name": f"{prefix}-1-demo", "auto_init": True}, auth=alice)
    server.post("orgs", {"username": f"{prefix}-1-acme"}, auth=alice)
    server.post(f"orgs/{prefix}-1-acme/repos", {"name": f"{prefix}-1-app"}, auth=alice)


def test_against_a_live_server_a_dry_run_lists_and_delete_removes_everything(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    _leave_a_crashed_runs_things(server, "ckjjjjjj")
    _leave_a_crashed_runs_things(server, "ckkkkkkk")
    target = ["--target", server.url, "--token", server.token]
    assert cli_main(["janitor", *target, "--run-id", "ckjjjjjj"]) == 0
    listed = capsys.readouterr().out
    assert "repository   ckjjjjjj-1-acme/ckjjjjjj-1-app" in listed
    assert "organization ckjjjjjj-1-acme" in listed and "user         ckjjjjjj-1-bob" in listed
    assert "4 thing(s) found; nothing deleted" in listed
    assert cli_main(["janitor", *target, "--run-id", "ckjjjjjj", "--delete"]) == 0
    assert "4 of 4 deleted" in capsys.readouterr().out
    janitor = Janitor(server.api())
    assert janitor.find(run_id="ckjjjjjj") == []
    others = janitor.find(run_id="ckkkkkkk")
    assert sorted(item.name for item in others if item.kind == "user") == ["ckkkkkkk-1-alice", "ckkkkkkk-1-bob"]
    assert janitor.delete(others) == []
    answer = requests.get(f"{server.url}api/v1/repos/ckkkkkkk-1-alice/ckkkkkkk-1-demo", timeout=30)
    assert answer.status_code == 404, "the user's own repository went with the purge"
