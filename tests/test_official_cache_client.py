"""The official ``@actions/cache`` client (npm, pinned in tests/node) saving and restoring in jobs of the mock runner.

Two jobs of one run: the first saves a directory, the second (after a restart of the runner, on the same cache
directory) restores it by a restore-key prefix, and the bytes are compared here with the originals. A job of
another repository on the same runner misses that entry, then saves and restores its own. Skipped without
Node or the modules on a developer machine; under CI (``CI`` set) a missing client fails the gate.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_mock_runner_support import ADMIN, LiveForge, live_forge

from mock_runner.cli import main

__all__ = ["live_forge"]

NODE_DIR = Path(__file__).parent / "node"
SAVE_THEN_RESTORE = """\
name: cache-round-trip
on: [push]
jobs:
  save:
    runs-on: ubuntu-latest
    steps:
      - run: node {node}/cache_save.mjs {source} deps-linux-{marker}
  restore:
    needs: save
    runs-on: ubuntu-latest
    steps:
      - run: node {node}/cache_restore.mjs {out} deps-linux-not-saved deps-linux-
"""
OTHER_REPOSITORY = """\
name: cache-isolation
on: [push]
jobs:
  isolated:
    runs-on: ubuntu-latest
    steps:
      - run: node {node}/cache_restore.mjs {out}-miss deps-linux-{marker} deps-linux- --expect-miss
      - run: node {node}/cache_save.mjs {source} deps-linux-{marker}
      - run: node {node}/cache_restore.mjs {out} deps-linux-{marker} deps-linux-
"""


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (NODE_DIR / "node_modules" / "@actions" / "cache").is_dir():
        return "tests/node/node_modules is missing: run `npm ci --prefix tests/node`"
    return None


def _skip_reason() -> str | None:
    """Why to skip here; never under CI, where a missing client must fail the gate."""
    return None if os.environ.get("CI") else _missing()


def _make_tree(root: Path, seed: bytes) -> dict[str, bytes]:
    """A directory of incompressible files (several 64 KiB chunks once archived), an empty file and a subfolder."""
    files = {
        "lib/big.bin": seed + os.urandom(300 * 1024),
        "lib/nested/small.txt": b"restored from the cache\n" + seed,
        "empty.txt": b"",
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return files


def _tree(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*") if path.is_file()}


def _repository(forge: LiveForge, tmp_path: Path, name: str, workflow: str) -> tuple[Path, dict[str, bytes], Path]:
    """A repository with its runner and a cache workflow; its runner file, the tree it saves, where it restores."""
    source, out = tmp_path / f"source-{name}", tmp_path / f"out-{name}"
    tree = _make_tree(source, f"repository {name}\n".encode())
    repo = forge.create_repo(f"cache-{name}")
    runner_file = forge.register_runner(repo, tmp_path / f"{name}.runner", name=f"runner-{name}")
    text = workflow.format(node=NODE_DIR, source=source, out=out, marker="v1")
    forge.push_file(repo, ".gitea/workflows/cache.yml", text)
    return runner_file, tree, out


def _daemon_once(runner_file: Path, cache_dir: Path, work: Path) -> int:
    """One job through ``mock-runner daemon --once`` with its cache server on ``cache_dir``."""
    return main(
        [
            "daemon", "--once", "--runner-file", str(runner_file), "--fetch-interval", "0.3",
            "--workdir", str(work), "--cache-dir", str(cache_dir),
        ]
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
def test_actions_cache_saves_in_one_job_and_restores_in_the_next(
    live_forge: LiveForge, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = _missing()
    assert missing is None, f"the official client cannot run under CI: {missing}"
    cache_dir, work = tmp_path / "cache", tmp_path / "work"
    runner_a, saved, out_a = _repository(live_forge, tmp_path, "a", SAVE_THEN_RESTORE)

    assert _daemon_once(runner_a, cache_dir, work) == 0, capsys.readouterr().out
    assert _daemon_once(runner_a, cache_dir, work) == 0, capsys.readouterr().out  # a restarted runner
    log = capsys.readouterr().out
    assert "cache saved: key deps-linux-v1" in log, log
    assert "cache restored from key deps-linux-v1" in log, log
    assert _tree(out_a) == saved
    (run,) = live_forge.runs(f"{ADMIN}/cache-a")
    assert run["conclusion"] == "success"

    runner_b, own, out_b = _repository(live_forge, tmp_path, "b", OTHER_REPOSITORY)

    assert _daemon_once(runner_b, cache_dir, work) == 0, capsys.readouterr().out
    log = capsys.readouterr().out
    assert "cache miss" in log, log
    assert "::warning::" not in log, log  # the miss was a 204, not a refused request the client shrugged off
    assert not (tmp_path / "out-b-miss").exists()
    assert _tree(out_b) == own
