"""The harness's git wrapper against a live reference server: isolation, credentials kept out of every
file and transcript, clone/push/fetch, and an LFS round trip with the real git-lfs client."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_server_repos import PASSWORD, create_repo, live_url, make_user
from werkzeug.serving import make_server

from conformance.client import Recorder
from conformance.gitclient import GitClient, GitCredentials, git_lfs_available
from reference_server.app import create_app
from reference_server.config import Config

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

__all__ = ["live_url"]


@pytest.fixture
def served(tmp_path: Path, admin_headers: dict[str, str]) -> Iterator[tuple[Flask, str]]:
    """An app whose base URL is the address it is served at, as LFS hrefs must be reachable."""
    holder: dict[str, Flask] = {}

    def dispatch(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        return holder["app"].wsgi_app(environ, start_response)

    server = make_server("127.0.0.1", 0, dispatch, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    token = admin_headers["Authorization"].split()[1]
    config = Config(data_dir=tmp_path / "served", base_url=url + "/", admin_token=token, test_hooks=True)
    holder["app"] = create_app(config)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield holder["app"], url
    server.shutdown()
    thread.join(timeout=5)
    holder["app"].extensions["forge"].db.close()


@pytest.fixture
def git(tmp_path: Path) -> GitClient:
    return GitClient(tmp_path / "git", Recorder())


def all_text(root: Path) -> str:
    """Every readable file under ``root``, to prove a secret was written nowhere."""
    parts = []
    for path in root.rglob("*"):
        if path.is_file() and path.stat().st_size < 1_000_000:
            parts.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(parts)


def test_clone_push_fetch_keep_credentials_out_of_files_and_transcripts(
    client: FlaskClient, admin_headers: dict[str, str], live_url: str, git: GitClient
) -> None:
    make_user(client, admin_headers, "gil")
    create_repo(client, make_user(client, admin_headers, "gia"), name="code", auto_init=True, private=True)
    credentials = GitCredentials("gia", PASSWORD)
    url = f"{live_url}/gia/code.git"
    anonymous_dir, anonymous = git.clone(url, "anonymous")
    assert not anonymous.ok
    work, cloned = git.clone(url, "work", credentials)
    assert cloned.ok, cloned.describe()
    head = git.commit_file(work, "notes/a.txt", b"hello\n", "add a")
    pushed = git.push(work, "main", credentials)
    assert pushed.ok, pushed.describe()
    assert git.remote_head(url, "main", credentials) == head
    assert git.fetch(work, credentials).ok
    wrong = git.push(work, "main:other", GitCredentials("gil", PASSWORD))
    assert not wrong.ok and "not found" in wrong.stderr  # a private repository is invisible to "gil"
    assert PASSWORD not in all_text(git.workdir)
    transcript = "\n".join(exchange.render() for exchange in git.recorder.page())
    assert "git push origin main" in transcript and PASSWORD not in transcript
    assert not anonymous_dir.exists() or not any(anonymous_dir.iterdir())


def test_the_machine_configuration_is_not_read(tmp_path: Path, git: GitClient) -> None:
    result = git.run("config", "--show-origin", "--list")
    origins = {line.split("\t", 1)[0] for line in result.stdout.splitlines()}
    assert origins == {f"file:{git.home / '.gitconfig'}"}
    assert os.environ.get("HOME") != str(git.home)


@pytest.mark.skipif(not git_lfs_available(), reason="git-lfs is not installed")
def test_lfs_round_trip_with_the_real_client(
    served: tuple[Flask, str], admin_headers: dict[str, str], git: GitClient
) -> None:
    app, live_url = served
    client = app.test_client()
    create_repo(client, make_user(client, admin_headers, "lia"), name="assets", auto_init=True)
    credentials = GitCredentials("lia", PASSWORD)
    url = f"{live_url}/lia/assets.git"
    work, cloned = git.clone(url, "work", credentials)
    assert cloned.ok, cloned.describe()
    git.lfs_track(work, "*.bin")
    content = os.urandom(2 * 1024 * 1024)
    git.commit_file(work, "big.bin", content, "add a binary")
    pushed = git.push(work, "main", credentials)
    assert pushed.ok, pushed.describe()
    blob = app.extensions["forge"].db.scalar("SELECT COUNT(*) FROM lfs_meta_object")
    assert blob == 1
    again, second = git.clone(url, "again", credentials)
    assert second.ok, second.describe()
    assert (again / "big.bin").read_bytes() == content
    assert PASSWORD not in all_text(git.workdir)


def test_a_revealed_deploy_token_is_masked_in_the_exchange_that_showed_it() -> None:
    from conformance.client import Exchange
    from steps.deploy_tokens import _mask_secret

    recorder = Recorder()
    secret = "gdt_" + "A1" * 21 + "b"
    shown = Exchange("POST", "http://forge/api/v1/repos/o/r/keys/tokens", 201, {}, "", {}, f'{{"key":"{secret}"}}', 1.0)
    recorder.exchanges.append(shown)
    _mask_secret(recorder, secret)
    [masked] = recorder.page()
    assert secret not in masked.response_body and "***" in masked.response_body
    assert secret in recorder.masked_values()
