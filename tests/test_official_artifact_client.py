"""The official ``@actions/artifact`` client (npm, pinned in tests/node) under ``mock-runner exec``.

CI installs it with ``npm ci --prefix tests/node`` (``./kit`` does); without Node or those modules the test
is skipped on a developer machine, and fails under CI (``CI`` set) so the gate never passes without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from node_clients import NODE_DIR, missing_node_client, needs_node
from test_mock_runner_support import LiveForge, live_forge

from reference_server.artifacts import models, store

__all__ = ["live_forge"]

WORKFLOW = """\
name: official-client
on: [push]
jobs:
  roundtrip:
    runs-on: ubuntu-latest
    steps:
      - run: node tests/node/roundtrip.mjs
"""


def _run_job(forge: LiveForge, tmp_path: Path, package: str, repo_name: str, script: str) -> tuple[str, str]:
    """Push a workflow, then run ``node script`` as the whole job under ``mock-runner exec``; (repo, stdout)."""
    missing = missing_node_client(package)
    assert missing is None, f"the official client cannot run under CI: {missing}"
    repo = forge.create_repo(repo_name)
    runner_file = forge.register_runner(repo, tmp_path / ".runner")
    forge.push_file(repo, ".gitea/workflows/roundtrip.yml", WORKFLOW)
    completed = subprocess.run(
        [sys.executable, "-m", "mock_runner.cli", "exec", "--runner-file", str(runner_file), "--timeout", "30",
         "--workdir", str(tmp_path / "work"), "--", "node", str(NODE_DIR / script)],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "MISMATCH" not in completed.stdout
    (run,) = forge.runs(repo)
    assert run["conclusion"] == "success"
    return repo, completed.stdout


@pytest.mark.slow
@needs_node("@actions/artifact")
def test_official_client_round_trip_under_mock_runner_exec(live_forge: LiveForge, tmp_path: Path) -> None:
    repo, output = _run_job(live_forge, tmp_path, "@actions/artifact", "official-client", "roundtrip.mjs")
    assert "official artifact client round trip: all checks passed" in output
    assert [artifact["name"] for artifact in live_forge.artifacts(repo)] == ["single.json"]


def _corrupt_first_byte(forge: LiveForge, artifact_id: int) -> None:
    """Flip the first stored byte of the artifact (same size: only its digest can tell)."""
    with forge.app.app_context():
        row = store.find_by_id(artifact_id)
        assert row is not None
        part = models.stored_paths(row)[0]
        data = bytearray(part.read_bytes())
        data[0] ^= 0xFF
        part.write_bytes(bytes(data))


def _wait_for(path: Path, process: subprocess.Popen[str], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, f"the client stopped early: {process.communicate()[0]}"
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.1)


@pytest.mark.slow
@needs_node("@actions/artifact")
def test_official_client_reports_an_artifact_corrupted_behind_the_servers_back(
    live_forge: LiveForge, tmp_path: Path
) -> None:
    """The listed digest lets the official client notice bytes the server's storage changed."""
    missing = missing_node_client("@actions/artifact")
    assert missing is None, f"the official client cannot run under CI: {missing}"
    repo = live_forge.create_repo("official-digest")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/digest.yml", WORKFLOW.replace("roundtrip.mjs", "digest_mismatch.mjs"))
    sync = tmp_path / "sync"
    sync.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "mock_runner.cli", "exec", "--runner-file", str(runner_file), "--timeout", "30",
         "--workdir", str(tmp_path / "work"), "--", "node", str(NODE_DIR / "digest_mismatch.mjs"), str(sync)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    try:
        _wait_for(sync / "uploaded", process, 300)
        _corrupt_first_byte(live_forge, int((sync / "uploaded").read_text()))
        (sync / "corrupted").write_text("done")
        output, _ = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, output
    assert "the official client reported the digest mismatch" in output


@pytest.mark.slow
@needs_node("artifact-v1")
def test_official_v3_client_round_trip_under_mock_runner_exec(live_forge: LiveForge, tmp_path: Path) -> None:
    """``@actions/artifact`` 1.x (the v3 protocol at ``ACTIONS_RUNTIME_URL``) uploads, lists and downloads."""
    repo, output = _run_job(live_forge, tmp_path, "artifact-v1", "official-client-v3", "roundtrip_v3.mjs")
    assert "official v3 artifact client round trip: all checks passed" in output
    assert live_forge.artifacts(repo) == [], "Gitea's REST API lists v4 artifacts only"
