"""The load benchmark (benchmarks/load.py): a short real run in CI, and its arithmetic.

The smoke run is the benchmark itself at a small scale (10 jobs, 256 KiB each): a real server process,
real runners and tasks, real transfers. It asserts what must hold at any scale (every job succeeded,
every byte verified, every REST call answered, figures came out), never a speed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.load import LoadFigures, LoadSettings, _job_figures, _rest_figures, workflow
from benchmarks.load_parts import JobRecord, Lister, nearest_rank
from benchmarks.measure import MIB

REPO = Path(__file__).resolve().parent.parent


def test_nearest_rank_percentiles() -> None:
    values = [float(n) for n in range(1, 101)]
    assert nearest_rank(values, 50) == 50.0
    assert nearest_rank(values, 99) == 99.0
    assert nearest_rank([3.0, 1.0, 2.0], 50) == 2.0
    assert nearest_rank([7.0], 99) == 7.0
    assert nearest_rank([], 50) == 0.0


def test_the_workflow_makes_one_job_per_matrix_entry() -> None:
    text = workflow(3)
    assert "shard: [0, 1, 2]" in text and "runs-on: load-runner" in text


def _record(task_id: int, *, start: float, sha: str = "a" * 64, downloaded: str = "a" * 64) -> JobRecord:
    return JobRecord(
        task_id=task_id,
        size=MIB,
        sha256="a" * 64,
        uploaded_sha256=sha,
        downloaded_sha256=downloaded,
        downloaded_size=MIB,
        upload_start=start,
        upload_end=start + 1.0,
        download_start=start + 1.0,
        download_end=start + 1.5,
        finished=start + 2.0,
        status=0,
        result="success",
    )


def test_throughput_counts_only_verified_jobs_over_the_span_they_needed() -> None:
    figures = LoadFigures(LoadSettings(jobs=3))
    records = [_record(1, start=10.0), _record(2, start=11.0), _record(3, start=10.5, downloaded="b" * 64)]
    _job_figures(figures, records, released=10.0)
    assert figures.jobs_succeeded == 2
    assert figures.upload_mib_s == 1.0  # 2 MiB over 10.0 .. 12.0
    assert figures.download_mib_s == 1.3  # 2 MiB over 11.0 .. 12.5
    assert figures.jobs_per_second == round(2 / 3.0, 2)  # released at 10.0, last report at 13.0
    assert len(figures.errors) == 1 and figures.errors[0].startswith("job of task 3:")


def test_rest_latency_beside_the_transfers_counts_only_calls_started_in_that_window() -> None:
    figures = LoadFigures(LoadSettings(jobs=1))
    lister = Lister("http://forge.test/api/v1", "t", ["/runs"])
    lister.latencies["/runs"] = [5.0, 0.1, 0.2, 0.3, 4.0]
    lister.started["/runs"] = [1.0, 10.0, 11.0, 12.0, 20.0]  # the first and last lie outside 10 .. 15
    _rest_figures(figures, [lister], (10.0, 15.0))
    assert (figures.rest_calls, figures.rest_p99_ms) == (5, 5000.0)
    during = (figures.rest_transfer_calls, figures.rest_transfer_p50_ms, figures.rest_transfer_p99_ms)
    assert during == (3, 200.0, 300.0)


@pytest.mark.slow
def test_smoke_run_of_the_load_benchmark(tmp_path: Path) -> None:
    """Ten jobs at once with REST readers: no error, every byte verified, every figure present."""
    report_path = tmp_path / "load.json"
    completed = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "load.py"),
            *("--jobs", "10", "--size", "256K", "--runners", "2", "--listers", "2", "--threads", "8"),
            *("--json", str(report_path), "--work-dir", str(tmp_path / "work")),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    report = json.loads(report_path.read_text())
    assert report["ok"] and report["errors"] == [] and report["retries"] == 0
    assert report["jobs_succeeded"] == 10 and report["bytes_verified"] == 10 * 256 * 1024
    assert report["upload_mib_s"] > 0 and report["download_mib_s"] > 0 and report["jobs_per_second"] > 0
    assert report["rest_calls"] > 0 and 0 < report["rest_p50_ms"] <= report["rest_p99_ms"]
    assert 0 < report["rest_transfer_calls"] <= report["rest_calls"]
    assert len(report["rest_by_path"]) == 3
    assert report["server_peak_mib"] > 0 and report["client_peak_mib"] > 0
    assert "every byte verified" in completed.stdout
