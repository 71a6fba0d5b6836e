"""The cache server as jobs meet it: ``ACTIONS_CACHE_URL`` in their environment, their token good while they run."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
import requests
from test_mock_runner_support import LiveForge, live_forge

from mock_runner.cache_server import API_PATH, CacheServer
from mock_runner.cli import main
from mock_runner.daemon import Daemon

__all__ = ["live_forge"]

PROBE = """\
name: cache-probe
on: [push]
jobs:
  probe:
    runs-on: ubuntu-latest
    steps:
      - run: |
          printf %s "$ACTIONS_CACHE_URL" > {out}/url
          printf %s "$ACTIONS_RUNTIME_TOKEN" > {out}/token
          curl -s -o /dev/null -w '%{{http_code}}' -H "Authorization: Bearer $ACTIONS_RUNTIME_TOKEN" \\
            "${{ACTIONS_CACHE_URL}}_apis/artifactcache/cache?keys=probe&version=v1" > {out}/status
"""
TWO_JOBS = """\
name: two
on: [push]
jobs:
  one:
    runs-on: ubuntu-latest
    steps:
      - run: "true"
  two:
    runs-on: ubuntu-latest
    steps:
      - run: "true"
"""


def test_a_job_reaches_the_cache_with_its_token_which_is_refused_once_the_job_ended(
    live_forge: LiveForge, tmp_path: Path
) -> None:
    repo = live_forge.create_repo("cache-probe")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    out = tmp_path / "out"
    out.mkdir()
    live_forge.push_file(repo, ".gitea/workflows/probe.yml", PROBE.format(out=out))
    with CacheServer(tmp_path / "cache") as cache:
        daemon = Daemon(runner_file, workdir=tmp_path / "work", fetch_interval=0.2, cache=cache)
        outcome = daemon.run_once(timeout=30)
        assert outcome is not None and outcome.result_name == "success", outcome
        assert (out / "url").read_text() == cache.url
        assert (out / "status").read_text() == "204"  # a miss, answered to the job's own token
        token = (out / "token").read_text()
        assert token
        assert token not in "\n".join(outcome.log_lines)  # masked in the log, as every runtime token
        after = requests.get(
            f"{cache.url}{API_PATH.lstrip('/')}/cache",
            params={"keys": "probe", "version": "v1"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert (after.status_code, after.json()) == (401, {"error": "unknown bearer token"})


def test_exec_hands_the_cache_url_to_the_job_and_no_cache_hands_none(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("cache-exec")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/two.yml", TWO_JOBS)
    common = ["exec", "--runner-file", str(runner_file), "--timeout", "30", "--workdir", str(tmp_path / "work")]
    served, unserved = tmp_path / "served", tmp_path / "unserved"
    write = 'printf %s "${ACTIONS_CACHE_URL-unset}" > "$0"'
    assert main([*common, "--cache-dir", str(tmp_path / "cache"), "--", "sh", "-c", write, str(served)]) == 0
    assert main([*common, "--no-cache", "--", "sh", "-c", write, str(unserved)]) == 0
    assert re.fullmatch(r"http://127\.0\.0\.1:[0-9]+/", served.read_text())
    assert unserved.read_text() == "unset"


def test_a_cache_port_out_of_range_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["exec", "--runner-file", str(tmp_path / ".runner"), "--cache-port", "70000", "--", "true"])
    assert status == 2
    assert "--cache-port must be between 0 and 65535" in capsys.readouterr().err


def test_a_cache_port_in_use_stops_the_runner_with_a_clear_error(
    live_forge: LiveForge, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = live_forge.create_repo("cache-port")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        status = main(["daemon", "--once", "--runner-file", str(runner_file), "--cache-port", port])
    assert status == 1
    assert "mock-runner daemon:" in capsys.readouterr().err
    assert not (tmp_path / "work").exists()
