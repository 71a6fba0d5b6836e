"""The suite speed benchmark: its figures from results.json, its table, and a tiny real run so it cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # ``benchmarks`` is a folder of scripts, not an installed package
    sys.path.insert(0, str(REPO))

from benchmarks.suite_speed import figures_of, render, slowest  # noqa: E402


def _results(durations: dict[str, float], skipped: tuple[str, ...] = ()) -> dict[str, object]:
    scenarios = [{"id": name, "duration": seconds, "outcome": "passed"} for name, seconds in durations.items()]
    scenarios += [{"id": name, "duration": 0.0, "outcome": "skipped"} for name in skipped]
    return {"scenarios": scenarios}


def test_figures_count_scenarios_that_ran_and_their_median() -> None:
    figures = figures_of("0", 10.0, 0, _results({"a": 0.05, "b": 0.07, "c": 0.5}, skipped=("d",)))
    assert figures.scenarios == 3
    assert figures.per_second == 0.3
    assert round(figures.median_ms) == 70
    assert slowest(figures, 2) == [("c", 0.5), ("b", 0.07)]


def test_the_table_shows_each_mode_the_speed_up_and_the_slowest() -> None:
    serial = figures_of("0", 100.0, 0, _results({"a": 0.05, "slow one": 2.0}))
    parallel = figures_of("auto", 40.0, 0, _results({"a": 0.08, "slow one": 2.5}))
    lines = render([serial, parallel])
    assert lines[1].split()[:3] == ["0", "100.0", "2"]
    assert lines[2].split()[:3] == ["auto", "40.0", "2"]
    assert "speed-up (-n 0 over -n auto): 2.50x" in lines
    assert lines[-2].split() == ["2000", "ms", "slow", "one"]


def test_a_small_real_run_in_both_modes(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "suite_speed.py"),
            "-m",
            "api_description",
            "--workers",
            "0,2",
            "--max-wall",
            "600",
            "--max-median-ms",
            "5000",
            "--work-dir",
            str(tmp_path),
            "--json",
            str(tmp_path / "speed.json"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    figures = json.loads((tmp_path / "speed.json").read_text(encoding="utf-8"))
    assert [mode["workers"] for mode in figures["modes"]] == ["0", "2"]
    assert figures["modes"][0]["scenarios"] == figures["modes"][1]["scenarios"] > 0
    assert "speed-up (-n 0 over -n 2)" in completed.stdout
