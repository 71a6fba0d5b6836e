"""Many artifact jobs at once against one reference server, with REST readers alongside (``./kit load``).

A fresh ``reference-server`` process gets a repository and a workflow whose matrix makes ``--jobs`` jobs;
``--runners`` runners are registered with the mock runner library. Then, all at once, every job takes
its task, uploads an artifact of ``--size`` bytes through the mock runner's ``ArtifactClient`` and
downloads it back (both sha256 digests compared with the file's), while ``--listers`` REST clients loop
over the run list, the repository's artifacts and the run's artifacts. Printed: throughput both ways and
in jobs per second, the 50th and 99th percentile latency of the REST calls, the peak memory of the
server process and of this (the client) process. Exit status 0 when every job succeeded with its bytes
verified and no call failed or was retried, 1 otherwise (each error is printed), 2 when the benchmark
could not run at all.
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script (``./kit load``): make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.forge import ForgeClient
from benchmarks.load_parts import (
    JobRecord,
    Lister,
    ListerProcesses,
    RetryCounter,
    RunnerFleet,
    nearest_rank,
    register_runners,
)
from benchmarks.measure import MIB, format_size, parse_size, read_cpu_seconds, read_peak_rss, reset_peak_rss
from benchmarks.processes import BenchmarkError, start_server
from mock_runner.blob import BLOCK_SIZE

__all__ = ["LoadFigures", "LoadSettings", "main", "run_load"]

LABEL = "load-runner"


def workflow(jobs: int) -> str:
    """A workflow whose one job has a ``jobs``-entry matrix: ``jobs`` jobs queued by one push."""
    entries = ", ".join(str(index) for index in range(jobs))
    return f"""name: load
on: push
jobs:
  transfer:
    runs-on: {LABEL}
    strategy:
      matrix:
        shard: [{entries}]
    steps:
      - run: echo the load benchmark runs this job in-process
"""


@dataclass(frozen=True)
class LoadSettings:
    """One load run: how many jobs, how big their artifacts, how many runners and REST readers, server knobs."""

    jobs: int = 50
    size: int = 4 * MIB
    runners: int = 5
    listers: int = 4
    threads: int = 16
    recv_bytes: int | None = None
    block_size: int = BLOCK_SIZE
    timeout: float = 600.0


@dataclass
class LoadFigures:
    """Everything one run measured; ``errors`` empty means every byte verified and no call failed."""

    settings: LoadSettings
    jobs_succeeded: int = 0
    bytes_verified: int = 0
    upload_mib_s: float = 0.0
    download_mib_s: float = 0.0
    jobs_per_second: float = 0.0
    wall_seconds: float = 0.0
    rest_calls: int = 0
    rest_p50_ms: float = 0.0
    rest_p99_ms: float = 0.0
    rest_by_path: dict[str, dict[str, float]] = field(default_factory=dict)
    rest_transfer_calls: int = 0
    rest_transfer_p50_ms: float = 0.0
    rest_transfer_p99_ms: float = 0.0
    """The calls started while the jobs transferred (from the barrier to the last transfer's end): the REST
    latency beside the transfers, without the start, where a hundred jobs take their tasks at once."""
    server_peak_mib: float = 0.0
    client_peak_mib: float = 0.0
    server_cpu_ms_per_mib: float = 0.0
    client_cpu_ms_per_mib: float = 0.0
    retries: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _server_command(data_dir: Path, admin_token: str, settings: LoadSettings) -> list[str]:
    command = [
        sys.executable,
        *("-m", "reference_server.cli", "--host", "127.0.0.1", "--port", "0"),
        *("--data-dir", str(data_dir), "--admin-token", admin_token, "--threads", str(settings.threads)),
    ]
    if settings.recv_bytes is not None:
        command += ["--recv-bytes", str(settings.recv_bytes)]
    return command


def _span(starts: list[float], ends: list[float]) -> float:
    return max(ends) - min(starts) if starts and ends else 0.0


def _job_figures(figures: LoadFigures, records: list[JobRecord], released: float) -> None:
    """Throughput from the jobs' timestamps: bytes of each direction over the span all jobs needed for it."""
    done = [record for record in records if record.verified and record.status == 0]
    figures.jobs_succeeded = len(done)
    figures.bytes_verified = sum(record.size for record in done)
    moved = figures.bytes_verified / MIB
    upload = _span([r.upload_start for r in done], [r.upload_end for r in done])
    download = _span([r.download_start for r in done], [r.download_end for r in done])
    figures.upload_mib_s = round(moved / upload, 1) if upload else 0.0
    figures.download_mib_s = round(moved / download, 1) if download else 0.0
    finished = [record.finished for record in records if record.finished]
    figures.wall_seconds = round(max(finished) - released, 2) if finished and released else 0.0
    figures.jobs_per_second = round(len(done) / figures.wall_seconds, 2) if figures.wall_seconds else 0.0
    for record in records:
        if record.error or record.status != 0 or not record.verified:
            reason = record.error or f"ended {record.result or 'unreported'} with status {record.status}"
            figures.errors.append(f"job of task {record.task_id}: {reason}")


def _rest_figures(figures: LoadFigures, listers: list[Lister], window: tuple[float, float]) -> None:
    every: list[float] = []
    during: list[float] = []
    by_path: dict[str, list[float]] = {}
    for lister in listers:
        figures.errors.extend(lister.errors[:10])
        for path, values in lister.latencies.items():
            by_path.setdefault(path, []).extend(values)
            every.extend(values)
            starts = lister.started.get(path, [])
            during.extend(value for value, start in zip(values, starts, strict=True) if window[0] <= start <= window[1])
    figures.rest_transfer_calls = len(during)
    figures.rest_transfer_p50_ms = round(nearest_rank(during, 50) * 1000, 1)
    figures.rest_transfer_p99_ms = round(nearest_rank(during, 99) * 1000, 1)
    figures.rest_calls = len(every)
    figures.rest_p50_ms = round(nearest_rank(every, 50) * 1000, 1)
    figures.rest_p99_ms = round(nearest_rank(every, 99) * 1000, 1)
    for path, values in by_path.items():
        figures.rest_by_path[path] = {
            "calls": len(values),
            "p50_ms": round(nearest_rank(values, 50) * 1000, 1),
            "p99_ms": round(nearest_rank(values, 99) * 1000, 1),
        }
    if listers and not every:
        figures.errors.append("the REST listers made no successful call")


def _final_checks(figures: LoadFigures, forge: ForgeClient, repo: str, run_id: int, jobs: int) -> None:
    """The server's own view after the load: the run succeeded and lists every artifact."""
    run = forge.get(f"/repos/{repo}/actions/runs/{run_id}")
    if (run.get("status"), run.get("conclusion")) != ("completed", "success"):
        figures.errors.append(f"the run ended {run.get('status')}/{run.get('conclusion')}, not completed/success")
    listed = forge.get(f"/repos/{repo}/actions/runs/{run_id}/artifacts?limit=1")
    if listed.get("total_count") != jobs:
        figures.errors.append(f"the run lists {listed.get('total_count')} artifacts, expected {jobs}")


def run_load(settings: LoadSettings, work: Path) -> LoadFigures:
    """One full run over a fresh server in ``work``; raises ``BenchmarkError`` when it cannot run at all."""
    admin_token = secrets.token_hex(20)
    server = start_server(
        "reference server", _server_command(work / "forge-data", admin_token, settings), work / "server.log"
    )
    figures = LoadFigures(settings)
    retries = RetryCounter()
    client_log = logging.getLogger("mock_runner.artifacts")
    client_log.addHandler(retries)
    try:
        forge = ForgeClient(server.url, admin_token)
        repo = forge.create_repo("load")
        token = forge.registration_token(repo)
        runner_files = register_runners(server.url, token, settings.runners, LABEL, work)
        forge.push_workflow(repo, workflow(settings.jobs), "load.yml")
        run_id = int(forge.latest_run(repo)["id"])
        api = server.url.rstrip("/") + "/api/v1"
        paths = [
            f"/repos/{repo}/actions/runs",
            f"/repos/{repo}/actions/artifacts",
            f"/repos/{repo}/actions/runs/{run_id}/artifacts",
        ]
        listers = [
            Lister(api, admin_token, paths[index % 3 :] + paths[: index % 3]) for index in range(settings.listers)
        ]
        fleet = RunnerFleet(runner_files, settings.jobs, settings.size, work / "jobs", block_size=settings.block_size)
        lister_processes = ListerProcesses(listers)
        reset_peak_rss()
        reset_peak_rss(server.pid)
        cpu_before = (read_cpu_seconds(), read_cpu_seconds(server.pid))
        lister_processes.start()
        fleet.start()
        finished = fleet.join(settings.timeout)
        lister_processes.finish(70)
        figures.client_peak_mib = round(read_peak_rss() / MIB, 1)
        figures.server_peak_mib = round(read_peak_rss(server.pid) / MIB, 1)
        cpu = (read_cpu_seconds() - cpu_before[0], read_cpu_seconds(server.pid) - cpu_before[1])
        server.ensure_alive()
        if not finished:
            figures.errors.append(f"some jobs were still running after {settings.timeout:.0f} s")
        _job_figures(figures, fleet.records, fleet.released)
        moved = 2 * figures.bytes_verified / MIB  # up and down
        if moved:
            figures.client_cpu_ms_per_mib = round(1000 * cpu[0] / moved, 1)
            figures.server_cpu_ms_per_mib = round(1000 * cpu[1] / moved, 1)
        done = [record for record in fleet.records if record.download_end]
        _rest_figures(figures, listers, (fleet.released, max((r.download_end for r in done), default=0.0)))
        if finished:
            _final_checks(figures, forge, repo, run_id, settings.jobs)
    finally:
        client_log.removeHandler(retries)
        server.stop()
    figures.retries = retries.count
    if retries.count:
        figures.errors.append(f"the artifact client retried {retries.count} requests, e.g. {retries.samples[0]}")
    return figures


def render(figures: LoadFigures) -> str:
    """The figures as a few readable lines."""
    settings = figures.settings
    lines = [
        f"{settings.jobs} jobs x {format_size(settings.size)} ({settings.runners} runners, {settings.listers} REST "
        f"listers, server threads {settings.threads}, recv_bytes {settings.recv_bytes or 'as the server'})",
        f"  jobs succeeded, bytes verified: {figures.jobs_succeeded}/{settings.jobs}, "
        f"{figures.bytes_verified / MIB:.1f} MiB each way",
        f"  throughput: upload {figures.upload_mib_s} MiB/s, download {figures.download_mib_s} MiB/s, "
        f"{figures.jobs_per_second} jobs/s ({figures.wall_seconds} s from start to the last report)",
        f"  REST latency over {figures.rest_calls} calls: p50 {figures.rest_p50_ms} ms, p99 {figures.rest_p99_ms} ms",
        f"  REST latency beside the transfers ({figures.rest_transfer_calls} calls started from the barrier to the "
        f"last transfer's end): p50 {figures.rest_transfer_p50_ms} ms, p99 {figures.rest_transfer_p99_ms} ms",
    ]
    for path, stats in figures.rest_by_path.items():
        lines.append(f"    {path}: {stats['calls']:.0f} calls, p50 {stats['p50_ms']} ms, p99 {stats['p99_ms']} ms")
    lines.append(f"  peak memory (RSS): server {figures.server_peak_mib} MiB, client {figures.client_peak_mib} MiB")
    lines.append(
        f"  CPU per MiB moved (up + down, REST included): server {figures.server_cpu_ms_per_mib} ms, "
        f"client {figures.client_cpu_ms_per_mib} ms"
    )
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="load.py",
        description="Many artifact jobs at once with REST readers alongside: throughput, latency, peak memory.",
        epilog="Exit status: 0 no error and every byte verified, 1 some error (printed), 2 could not run.",
    )
    parser.add_argument("--jobs", type=int, default=50, help="jobs running at once (default 50)")
    parser.add_argument("--size", default="4M", help="artifact size per job, binary units (default 4M)")
    parser.add_argument("--runners", type=int, default=5, help="registered runners sharing the jobs (default 5)")
    parser.add_argument("--listers", type=int, default=4, help="REST listing threads (default 4; 0: none)")
    parser.add_argument("--threads", type=int, default=16, help="waitress threads of the server (default 16)")
    parser.add_argument("--recv-bytes", type=int, help="waitress recv_bytes of the server (default: the server's)")
    parser.add_argument("--block-size", default="8M", help="the artifact client's block size (default 8M)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds the jobs may take (default 600)")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--work-dir", type=Path, help="server data, job workspaces and logs (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory after the run")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    options = parser.parse_args(argv)
    try:
        size, block_size = parse_size(options.size), parse_size(options.block_size)
    except ValueError as exc:
        parser.error(str(exc))
    if min(options.jobs, options.runners, options.threads) < 1 or options.listers < 0:
        parser.error("--jobs, --runners and --threads must be at least 1, --listers at least 0")
    settings = LoadSettings(
        options.jobs, size, options.runners, options.listers, options.threads, options.recv_bytes, block_size
    )
    settings = LoadSettings(**{**asdict(settings), "timeout": options.timeout})
    work = options.work_dir or Path(tempfile.mkdtemp(prefix="kit-load-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.time()
    try:
        figures = run_load(settings, work)
    except BenchmarkError as exc:
        print(f"load benchmark failed: {exc}\nlogs are in {work}", file=sys.stderr)
        return 2
    print(render(figures))
    if options.json:
        report: dict[str, Any] = {**asdict(figures), "ok": figures.ok, "started": started}
        options.json.write_text(json.dumps(report, indent=2) + "\n")
    for error in figures.errors:
        print(f"ERROR: {error}")
    if figures.errors:
        print(f"logs are in {work}")
        return 1
    if not options.keep and options.work_dir is None:
        shutil.rmtree(work, ignore_errors=True)
    print("no error: every job succeeded, every byte verified, every REST call answered 200")
    return 0


if __name__ == "__main__":
    sys.exit(main())
