"""The contents benchmark: its history stream is what it claims, and a tiny end-to-end run prints figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # ``benchmarks`` is a folder of scripts, not an installed package
    sys.path.insert(0, str(REPO))

from benchmarks.contents_speed import COLD_FILES, HOT_FILES, fast_import_stream, main  # noqa: E402


def test_history_has_the_commits_and_the_cold_files_stay_old(tmp_path: Path) -> None:
    repo = tmp_path / "h.git"
    subprocess.run(["git", "init", "--bare", "--quiet", str(repo)], check=True)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=fast_import_stream(120), check=True)

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True, text=True).stdout.strip()

    assert git("rev-list", "--count", "main") == "120"
    files = git("ls-tree", "-r", "--name-only", "main").splitlines()
    assert len(files) == HOT_FILES + COLD_FILES
    assert git("log", "--format=%s", "-1", "main", "--", "cold/c000.txt") == "commit 1"
    assert git("log", "--format=%s", "-1", "main", "--", "hot/h019.txt") == "commit 119"


def test_a_tiny_run_prints_the_figures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    figures = tmp_path / "figures.json"
    status = main(["--commits", "30", "--files", "4", "--change", "5", "--repeat", "1", "--json", str(figures)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "file-contents, 4 files, one call" in out and "POST contents, 5 files, one commit" in out
    assert '"ratio"' in figures.read_text()
