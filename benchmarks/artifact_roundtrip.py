"""Speed and memory of the artifact path against a raw loopback baseline (``./kit bench``).

For each size: one data file is generated, then
1. baseline: the file is PUT to and GOT from a bare blob store served by waitress with
   ``reference-server``'s settings (benchmarks/raw_server.py);
2. artifact: a fresh ``reference-server`` gets a repository, a workflow and a registered mock runner, and
   ``mock-runner exec`` runs the client as a real job that uploads the file with the mock runner's
   artifact client and downloads it back.
3. with ``--clients kit,official``, the same job again with the official ``@actions/artifact`` client
   (npm, in tests/node) in place of the mock runner's, so both clients meet the same server and file.
The bytes that come back are checked against the file's sha256. Throughput both ways, the ratio to the
baseline and the peak memory of client and server per phase are printed; the exit status is 1 when a
target is missed, 2 when the benchmark could not run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script (``./kit bench``): make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.forge import ForgeClient, mock_runner_command
from benchmarks.measure import GIB, MIB, DataFile, format_size, make_data_file, parse_sizes
from benchmarks.processes import BenchmarkError, python_command, run_client, start_server
from benchmarks.report import PathFigures, SizeFigures, Targets, evaluate, mib_per_second, render_table, to_json
from benchmarks.transfer_client import NODE_DRIVER, Phase
from reference_server.config import Limits

__all__ = ["CLIENTS", "checked_phases", "main", "parse_clients", "run_size"]

HERE = Path(__file__).resolve().parent
RAW_SERVER = HERE / "raw_server.py"
CLIENT = HERE / "transfer_client.py"
CLIENTS = ("kit", "official")
"""The artifact clients the benchmark can run: the mock runner's, and the official npm one."""
REFERENCE_MAX_BLOCK = Limits().max_block_bytes
"""The largest body the reference server accepts; the baseline accepts at least as much."""


def missing_official_client() -> str | None:
    """What is missing to run the official client (None: nothing): ``node`` and ``./kit setup``'s npm packages."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (NODE_DRIVER.parent / "node_modules" / "@actions" / "artifact").is_dir():
        return "@actions/artifact is missing from tests/node/node_modules: run ./kit setup"
    return None


def _client_timeout(size: int) -> float:
    """Generous: a transfer slower than 2 MiB/s each way is broken, not slow."""
    return 300.0 + 2 * size / (2 * MIB)


def checked_phases(raw: list[dict[str, Any]], data: DataFile, path: str) -> PathFigures:
    """Typed phases, after checking that what came back is what went."""
    try:
        phases = {item["direction"]: Phase(**item) for item in raw}
        upload, download = phases["upload"], phases["download"]
    except (KeyError, TypeError) as exc:
        raise BenchmarkError(f"{path} client returned unreadable figures: {raw!r}") from exc
    for phase in (upload, download):
        if phase.size != data.size:
            raise BenchmarkError(f"{path} {phase.direction} moved {phase.size} bytes, expected {data.size}")
        if phase.sha256 and phase.sha256 != data.sha256:
            raise BenchmarkError(
                f"{path} {phase.direction}: sha256 {phase.sha256} differs from the file's {data.sha256}"
            )
    if not download.sha256:
        raise BenchmarkError(f"{path} download reported no sha256, so the round trip cannot be checked")
    return PathFigures(upload, download)


def run_baseline(data: DataFile, work: Path, threads: int) -> PathFigures:
    """PUT and GET the file through the raw blob server."""
    store = work / "raw-data"
    shutil.rmtree(store, ignore_errors=True)  # a previous, interrupted run may have left it
    server = start_server(
        "baseline server",
        python_command(
            RAW_SERVER,
            *("--data-dir", str(store), "--threads", str(threads)),
            *("--max-body", str(max(data.size, REFERENCE_MAX_BLOCK) + 1)),  # waitress refuses a body of exactly max
        ),
        work / "raw-server.log",
    )
    try:
        raw = run_client(
            python_command(
                CLIENT,
                "raw",
                *("--url", server.url, "--file", str(data.path), "--download-dir", str(work / "download")),
                *("--server-pid", str(server.pid), "--out", str(work / "raw-result.json")),
            ),
            work / "raw-result.json",
            work / "raw-client.log",
            timeout=_client_timeout(data.size),
        )
        server.ensure_alive()
    finally:
        server.stop()
        shutil.rmtree(store, ignore_errors=True)
    return checked_phases(raw, data, "baseline")


def parse_clients(text: str) -> list[str]:
    """``kit,official`` -> the clients to run, in that order; the kit's own client always runs."""
    clients = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [client for client in clients if client not in CLIENTS]
    if unknown or "kit" not in clients:
        raise ValueError(f"--clients takes kit, or kit,official (got {text!r})")
    return [client for client in CLIENTS if client in clients]


def run_artifact(
    data: DataFile, work: Path, threads: int, client: str = "kit", zip_level: int | None = None
) -> PathFigures:
    """Push the file through ``client`` (the mock runner's, or the official one) into a fresh reference
    server, as a job of the mock runner, and back."""
    store = work / "forge-data"
    shutil.rmtree(store, ignore_errors=True)  # a previous, interrupted run may have left it
    admin_token = secrets.token_hex(20)
    server = start_server(
        "reference server",
        [
            sys.executable,
            *("-m", "reference_server.cli", "--host", "127.0.0.1", "--port", "0"),
            *("--data-dir", str(store), "--admin-token", admin_token, "--threads", str(threads)),
        ],
        work / "reference-server.log",
    )
    try:
        forge = ForgeClient(server.url, admin_token)
        repo = forge.create_repo(f"bench-{data.size}")
        forge.push_workflow(repo)
        runner_file = work / "bench.runner"
        runner_file.unlink(missing_ok=True)
        forge.register_runner(repo, runner_file, work / "mock-runner.log")
        job = python_command(
            CLIENT,
            "artifact" if client == "kit" else client,
            *("--name", f"bench-{data.size}", "--file", str(data.path), "--download-dir", str(work / "download")),
            *("--server-pid", str(server.pid), "--out", str(work / "artifact-result.json")),
            *(("--zip-level", str(zip_level)) if zip_level is not None else ()),
        )
        raw = run_client(
            mock_runner_command(
                *("exec", "--runner-file", str(runner_file), "--workdir", str(work / "job"), "--timeout", "120"),
                "--",
                *job,
            ),
            work / "artifact-result.json",
            work / "artifact-client.log",
            timeout=_client_timeout(data.size),
        )
        server.ensure_alive()
        run = forge.latest_run(repo)
        if run.get("conclusion") != "success":
            raise BenchmarkError(f"the benchmark job's run ended {run.get('status')}/{run.get('conclusion')}")
    finally:
        server.stop()
        shutil.rmtree(store, ignore_errors=True)
    return checked_phases(raw, data, "artifact" if client == "kit" else client)


def _progress(label: str, figures: PathFigures) -> None:
    print(
        f"  {label:<21} upload {mib_per_second(figures.upload):8.1f} MiB/s   "
        f"download {mib_per_second(figures.download):8.1f} MiB/s",
        flush=True,
    )


def check_free_space(work: Path, size: int) -> None:
    """Refuse to start when the disk cannot hold the largest size's files at once.

    Those are the data file, the server's staged blocks and final blob (both exist during finalize) and
    the downloaded copy, plus a margin.
    """
    needed = 4 * size + 256 * MIB
    free = shutil.disk_usage(work).free
    if free < needed:
        raise BenchmarkError(
            f"{format_size(size)} needs about {needed / GIB:.1f} GiB free in {work}, which has {free / GIB:.1f} GiB; "
            "pass --work-dir on a larger disk or smaller --sizes"
        )


def run_size(
    size: int,
    work: Path,
    threads: int,
    repeat: int,
    *,
    clients: tuple[str, ...] = ("kit",),
    zip_level: int | None = None,
) -> SizeFigures:
    """Every path, alternately ``repeat`` times (fresh servers each time), on one freshly generated file.

    Alternating means a burst of load from elsewhere on the machine hits both paths alike.
    """
    data = make_data_file(work / f"data-{size}.bin", size)
    baseline: list[PathFigures] = []
    artifact: list[PathFigures] = []
    official: list[PathFigures] = []
    try:
        for attempt in range(1, repeat + 1):
            baseline.append(run_baseline(data, work, threads))
            _progress(f"run {attempt}/{repeat} baseline", baseline[-1])
            artifact.append(run_artifact(data, work, threads, "kit", zip_level))
            _progress(f"run {attempt}/{repeat} artifact", artifact[-1])
            if "official" in clients:
                official.append(run_artifact(data, work, threads, "official", zip_level))
                _progress(f"run {attempt}/{repeat} official", official[-1])
    finally:
        data.path.unlink(missing_ok=True)
    return SizeFigures(size, data.sha256, baseline, artifact, official)


def _environment(threads: int, repeat: int) -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "waitress_threads": threads,
        "repeat": repeat,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="artifact_roundtrip.py",
        description="Throughput and peak memory of the artifact path versus a raw loopback baseline.",
        epilog="Exit status: 0 every target met, 1 a target missed (TARGET MISSED lines say which), "
        "2 the benchmark could not run (bad arguments, a process failed, bytes came back different).",
    )
    parser.add_argument("--sizes", default="64M,1G", help="comma-separated sizes, binary units (default 64M,1G)")
    parser.add_argument(
        "--clients",
        default="kit",
        help="artifact clients: kit (the mock runner's, default) or kit,official (also @actions/artifact)",
    )
    parser.add_argument(
        "--zip-level",
        type=int,
        choices=range(10),
        metavar="0-9",
        help="zip the file at this level on the way up and extract it on the way down, as upload-artifact and "
        "download-artifact do (default: the raw file, as `mock-runner artifact upload FILE` and skipArchive)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--work-dir", type=Path, help="where data files, server data and logs go (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs) after the run")
    parser.add_argument("--threads", type=int, default=16, help="waitress threads of both servers (default 16)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each path per size, alternating; the fastest counts (default 3)"
    )
    parser.add_argument("--min-ratio", type=float, default=Targets.min_ratio, help="throughput target vs baseline")
    parser.add_argument("--max-peak-mib", type=float, default=Targets.max_peak_mib, help="peak memory target")
    parser.add_argument(
        "--max-growth-mib", type=float, default=Targets.max_growth_mib, help="allowed peak rise, smallest to largest"
    )
    parser.add_argument(
        "--min-client-ratio",
        type=float,
        default=Targets.min_client_ratio,
        help="with --clients kit,official: the kit's client throughput over the official client's",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    options = parser.parse_args(argv)
    try:
        sizes = parse_sizes(options.sizes)
        clients = tuple(parse_clients(options.clients))
    except ValueError as exc:
        parser.error(str(exc))
    if "official" in clients and (missing := missing_official_client()) is not None:
        parser.error(f"--clients official: {missing}")
    if options.threads < 1 or options.repeat < 1:
        parser.error("--threads and --repeat must be at least 1")
    if options.json is not None and not options.json.parent.is_dir():
        parser.error(f"--json: folder {options.json.parent} does not exist")
    targets = Targets(options.min_ratio, options.max_peak_mib, options.max_growth_mib, options.min_client_ratio)
    work = options.work_dir or Path(tempfile.mkdtemp(prefix="kit-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    environment = _environment(options.threads, options.repeat)  # the load before the run, not after it
    figures: list[SizeFigures] = []
    finished = False
    try:
        check_free_space(work, sizes[-1])
        for size in sizes:
            print(f"benchmarking {format_size(size)} ...", flush=True)
            figures.append(
                run_size(size, work, options.threads, options.repeat, clients=clients, zip_level=options.zip_level)
            )
        finished = True
    except BenchmarkError as exc:
        print(f"benchmark failed: {exc}", file=sys.stderr)
        return 2
    finally:
        if not finished:
            print(f"logs are in {work}", file=sys.stderr, flush=True)
        elif not options.keep and options.work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    misses = evaluate(figures, targets)
    print()
    print(render_table(figures))
    print()
    if options.json:
        report = to_json(figures, targets, misses, environment)
        options.json.write_text(json.dumps(report, indent=2) + "\n")
    for miss in misses:
        print(f"TARGET MISSED: {miss}")
    if misses:
        return 1
    print(
        f"all targets met: artifact throughput at least {targets.min_ratio:.2f} x baseline both ways, peak memory "
        f"under {targets.max_peak_mib:.0f} MiB per process, growth at most {targets.max_growth_mib:.0f} MiB"
        + (
            f", the kit's client at least {targets.min_client_ratio:.2f} x the official client's throughput both ways"
            if "official" in clients
            else ""
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
