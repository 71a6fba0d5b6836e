"""The moving parts of the load benchmark: the runner fleet running artifact jobs, and the REST listers.

Every job is a real task handed out by the runner protocol and reported back; its body runs in a thread
of the benchmark's own process (``Daemon.run_callable``), so one process holds all the jobs' clients and
its peak memory is the client's. A job generates its own data file (distinct bytes per job), waits at a
barrier until every job holds its task (so all of them transfer at once), uploads the file with the mock
runner's ``ArtifactClient``, downloads it back and compares both sha256 digests with the file's.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from benchmarks.measure import MIB, make_data_file
from mock_runner.artifacts import ArtifactClient
from mock_runner.blob import BLOCK_SIZE
from mock_runner.daemon import Daemon
from mock_runner.jobenv import JobRuntime
from mock_runner.protocol import RunnerClient
from mock_runner.runnerfile import RunnerFile

__all__ = [
    "JobRecord",
    "Lister",
    "ListerProcesses",
    "RetryCounter",
    "RunnerFleet",
    "nearest_rank",
    "register_runners",
]


@dataclass
class JobRecord:
    """What one job did: when its transfers started and ended (``perf_counter``), what moved, what failed."""

    task_id: int = 0
    size: int = 0
    sha256: str = ""
    uploaded_sha256: str = ""
    downloaded_sha256: str = ""
    downloaded_size: int = 0
    upload_start: float = 0.0
    upload_end: float = 0.0
    download_start: float = 0.0
    download_end: float = 0.0
    finished: float = 0.0
    status: int = -1
    result: str = ""
    error: str = ""

    @property
    def verified(self) -> bool:
        """Both directions carried exactly the job's bytes."""
        return (
            bool(self.sha256)
            and self.uploaded_sha256 == self.sha256
            and self.downloaded_sha256 == self.sha256
            and self.downloaded_size == self.size
        )


def register_runners(base_url: str, token: str, count: int, label: str, folder: Path) -> list[Path]:
    """Register ``count`` runners with the mock runner library; returns their ``.runner`` files."""
    client = RunnerClient(base_url)
    paths: list[Path] = []
    for index in range(count):
        runner = client.register(token, f"load-{index}", [label])
        record = RunnerFile(
            id=runner.id,
            uuid=runner.uuid,
            name=runner.name,
            token=runner.token,
            address=base_url,
            labels=[label],
            ephemeral=False,
        )
        path = folder / f"load-{index}.runner"
        record.save(path)
        paths.append(path)
    return paths


class RetryCounter(logging.Handler):
    """Counts the artifact client's retries (each is a request that failed under load)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.samples: list[str] = []
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self._lock:
            self.count += 1
            if len(self.samples) < 5:
                self.samples.append(record.getMessage())


@dataclass
class RunnerFleet:
    """Worker threads over several registered runners, one job each, started together at a barrier."""

    runner_files: list[Path]
    jobs: int
    size: int
    workdir: Path
    block_size: int = BLOCK_SIZE
    fetch_timeout: float = 120.0
    records: list[JobRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.daemons = [
            Daemon(path, workdir=self.workdir / path.stem, capacity=self.jobs, fetch_interval=0.2)
            for path in self.runner_files
        ]
        self.released = 0.0
        self.barrier = threading.Barrier(self.jobs, action=self._release)
        self.records = [JobRecord() for _ in range(self.jobs)]
        self._threads: list[threading.Thread] = []

    def _release(self) -> None:
        self.released = time.perf_counter()

    def start(self) -> None:
        for daemon in self.daemons:
            daemon.declare()
        for index in range(self.jobs):
            thread = threading.Thread(target=self._work, args=(index,), name=f"load-job-{index}", daemon=True)
            self._threads.append(thread)
            thread.start()

    def join(self, timeout: float) -> bool:
        """Wait for every job; False when some are still running at the deadline."""
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self._threads)

    def _work(self, index: int) -> None:
        record = self.records[index]
        daemon = self.daemons[index % len(self.daemons)]
        try:
            task = daemon.wait_for_task(self.fetch_timeout)
        except Exception as exc:  # a failed poll is a job error, reported with the rest
            task = None
            record.error = f"FetchTask failed: {type(exc).__name__}: {exc}"
        if task is None:
            record.error = record.error or f"no task came within {self.fetch_timeout:.0f} s"
            self.barrier.abort()
            return
        record.task_id = task.id

        def body(runtime: JobRuntime, env: dict[str, str]) -> int:
            return self._transfer(record, runtime, env)

        outcome, status = daemon.run_callable(task, body)
        record.status = status
        record.result = outcome.result_name
        record.finished = time.perf_counter()

    def _transfer(self, record: JobRecord, runtime: JobRuntime, env: dict[str, str]) -> int:
        """The job: make the data, wait for the others, upload, download, compare digests."""
        try:
            source = make_data_file(runtime.workspace / "data.bin", self.size, seed_block=os.urandom(MIB))
            record.size, record.sha256 = source.size, source.sha256
            client = ArtifactClient.from_environment(env, progress=False)
            name = f"load-{runtime.task.id}"
            self.barrier.wait()
            record.upload_start = time.perf_counter()
            uploaded = client.upload(name, source.path, block_size=self.block_size)
            record.upload_end = time.perf_counter()
            record.uploaded_sha256 = uploaded.sha256
            back = runtime.workspace / "back.bin"
            record.download_start = time.perf_counter()
            downloaded = client.download(name, back)
            record.download_end = time.perf_counter()
            record.downloaded_sha256, record.downloaded_size = downloaded.sha256, downloaded.size
        except threading.BrokenBarrierError:
            record.error = "another job could not start, so the jobs never ran together"
            return 1
        except Exception as exc:  # every failure is a figure of the run, never a crash of the benchmark
            record.error = f"{type(exc).__name__}: {exc}"
            self.barrier.abort()
            runtime.write(f"Error: {record.error}")
            return 1
        if not record.verified:
            record.error = (
                f"bytes differ: file sha256 {record.sha256}, upload {record.uploaded_sha256}, "
                f"download {record.downloaded_sha256} ({record.downloaded_size} of {record.size} bytes)"
            )
            runtime.write(f"Error: {record.error}")
            return 1
        return 0


@dataclass
class Lister:
    """One REST client looping over the listing endpoints until told to stop, timing every call."""

    api_url: str
    token: str
    paths: list[str]
    latencies: dict[str, list[float]] = field(default_factory=dict)
    started: dict[str, list[float]] = field(default_factory=dict)
    """When each timed call started (``perf_counter``), parallel to ``latencies``."""
    errors: list[str] = field(default_factory=list)

    def run(self, stop: threading.Event) -> None:
        session = requests.Session()
        session.headers["Authorization"] = f"token {self.token}"
        turn = 0
        while not stop.is_set():
            path = self.paths[turn % len(self.paths)]
            turn += 1
            started = time.perf_counter()
            try:
                response = session.get(self.api_url + path, params={"limit": 50}, timeout=60)
                response.content  # noqa: B018 (the body is part of the call's latency)
            except requests.RequestException as exc:
                self.errors.append(f"GET {path}: {exc}")
                continue
            self.latencies.setdefault(path, []).append(time.perf_counter() - started)
            self.started.setdefault(path, []).append(started)
            if response.status_code != 200:
                self.errors.append(f"GET {path} answered {response.status_code}: {response.text[:200]}")


def _lister_process(lister: Lister, stop: Any, ready: Any, results: Any) -> None:
    """A lister's process: say it is ready, loop until ``stop``, then send back what it timed."""
    ready.put(True)
    lister.run(stop)
    results.put((lister.latencies, lister.started, lister.errors))


class ListerProcesses:
    """The REST listers, each in a process of its own.

    In the benchmark's process a hundred job threads take the interpreter lock in turn, so a lister
    thread there waited for it after each answer and its timings were the load generator's as much as
    the server's; a process of its own times the server alone.
    """

    def __init__(self, listers: list[Lister]) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process running threads
        self.listers = listers
        self.stop = context.Event()
        self.ready: Any = context.Queue()
        self.results: Any = context.Queue()
        self.processes = [
            context.Process(target=_lister_process, args=(lister, self.stop, self.ready, self.results), daemon=True)
            for lister in listers
        ]

    def start(self, timeout: float = 120.0) -> None:
        """Start every lister and wait until each runs (an interpreter takes a second or so to start)."""
        for process in self.processes:
            process.start()
        for _ in self.processes:
            self.ready.get(timeout=timeout)

    def finish(self, timeout: float) -> None:
        """Stop every lister and gather its timings into ``listers`` (an error for one that never answered)."""
        self.stop.set()
        for lister in self.listers:
            try:
                latencies, started, errors = self.results.get(timeout=timeout)
            except queue.Empty:
                lister.errors.append(f"a REST lister process sent no figures within {timeout:.0f} s")
                continue
            lister.latencies, lister.started, lister.errors = latencies, started, errors
        for process in self.processes:
            process.join(timeout)


def nearest_rank(values: list[float], percentile: float) -> float:
    """The nearest-rank percentile (the smallest value with at least ``percentile`` % at or below it)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * percentile // 100))
    return ordered[int(rank) - 1]
