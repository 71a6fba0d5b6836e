"""The official ``@actions/artifact`` client (npm, pinned in tests/node) under ``mock-runner exec``.

CI installs it with ``npm ci --prefix tests/node`` (``./kit`` does); without Node or those modules the test
is skipped on a developer machine, and fails under CI (``CI`` set) so the gate never passes without it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_mock_runner_support import LiveForge, live_forge

__all__ = ["live_forge"]

NODE_DIR = Path(__file__).parent / "node"
WORKFLOW = """\
name: official-client
on: [push]
jobs:
  roundtrip:
    runs-on: ubuntu-latest
    steps:
      - run: node tests/node/roundtrip.mjs
"""


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (NODE_DIR / "node_modules" / "@actions" / "artifact").is_dir():
        return "tests/node/node_modules is missing: run `npm ci --prefix tests/node`"
    return None


def _skip_reason() -> str | None:
    """Why to skip here; never under CI, where a missing client must fail the gate."""
    return None if os.environ.get("CI") else _missing()


@pytest.mark.slow
@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_official_client_round_trip_under_mock_runner_exec(live_forge: LiveForge, tmp_path: Path) -> None:
    missing = _missing()
    assert missing is None, f"the official client cannot run under CI: {missing}"
    repo = live_forge.create_repo("official-client")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/roundtrip.yml", WORKFLOW)
    completed = subprocess.run(
        [sys.executable, "-m", "mock_runner.cli", "exec", "--runner-file", str(runner_file), "--timeout", "30",
         "--workdir", str(tmp_path / "work"), "--", "node", str(NODE_DIR / "roundtrip.mjs")],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    assert "official artifact client round trip: all checks passed" in completed.stdout
    assert "MISMATCH" not in completed.stdout
    (run,) = live_forge.runs(repo)
    assert run["conclusion"] == "success"
    assert [artifact["name"] for artifact in live_forge.artifacts(repo)] == ["single.json"]


def _missing_v1() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (NODE_DIR / "node_modules" / "artifact-v1").is_dir():
        return "tests/node/node_modules/artifact-v1 is missing: run `npm ci --prefix tests/node`"
    return None


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("CI") and _missing_v1() is not None, reason=_missing_v1() or "")
def test_official_v3_client_round_trip_under_mock_runner_exec(live_forge: LiveForge, tmp_path: Path) -> None:
    """``@actions/artifact`` 1.x (the v3 protocol at ``ACTIONS_RUNTIME_URL``) uploads, lists and downloads."""
    missing = _missing_v1()
    assert missing is None, f"the official v3 client cannot run under CI: {missing}"
    repo = live_forge.create_repo("official-client-v3")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/roundtrip.yml", WORKFLOW)
    completed = subprocess.run(
        [sys.executable, "-m", "mock_runner.cli", "exec", "--runner-file", str(runner_file), "--timeout", "30",
         "--workdir", str(tmp_path / "work"), "--", "node", str(NODE_DIR / "roundtrip_v3.mjs")],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    assert "official v3 artifact client round trip: all checks passed" in completed.stdout
    assert "MISMATCH" not in completed.stdout
    (run,) = live_forge.runs(repo)
    assert run["conclusion"] == "success"
    assert live_forge.artifacts(repo) == [], "Gitea's REST API lists v4 artifacts only"
