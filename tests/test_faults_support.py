"""Shared helpers of the fault tests: a real ``reference-server`` process that can be killed and restarted.

The server runs as ``python -m reference_server.cli`` on a fixed port (so the signed URLs and the
``ACTIONS_RESULTS_URL`` a job holds stay valid across a restart) over one data directory. A forge is
set up through public surfaces only: a repository made through REST, a workflow committed through the
contents API, a runner registered and a task taken with the mock runner library, whose runtime token
gives an :class:`ArtifactClient` exactly as a job's steps get one. No test here lives in this module.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from benchmarks.processes import ServerProcess, start_server
from mock_runner.artifacts import ArtifactClient
from mock_runner.daemon import Daemon
from mock_runner.jobenv import job_environment, task_context
from mock_runner.protocol import RunnerClient
from mock_runner.runnerfile import RunnerFile
from mock_runner.transport import RetryPolicy

ADMIN_TOKEN = "f" * 40
LABEL = "fault-runner"
OWNER = "forge_admin"
WORKFLOW = f"""name: faults
on: push
jobs:
  victim:
    runs-on: {LABEL}
    steps:
      - run: echo the fault tests act as this job
"""
PATIENT = RetryPolicy(attempts=10, initial_wait=0.25, max_wait=2.0)
"""Enough retries to outlast a restart (a few seconds), as a runner should be configured for a flaky server."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class SlowReader(io.RawIOBase):
    """A byte source that pauses before each read, so a transfer lasts long enough to be interrupted."""

    def __init__(self, data: bytes, pause: float) -> None:
        self._source = io.BytesIO(data)
        self._pause = pause

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        time.sleep(self._pause)
        return self._source.readinto(buffer)


@dataclass
class Forge:
    """One data directory and the server process currently serving it (restartable on the same port)."""

    data_dir: Path
    log_dir: Path
    port: int = field(default_factory=free_port)
    server: ServerProcess | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def api(self) -> str:
        return f"{self.url}api/v1"

    def start(self) -> None:
        """Start (or restart) the server over the same data directory and port."""
        self.starts += 1
        command = [
            sys.executable,
            *("-m", "reference_server.cli", "--host", "127.0.0.1", "--port", str(self.port)),
            *("--data-dir", str(self.data_dir), "--admin-token", ADMIN_TOKEN, "--threads", "8"),
        ]
        deadline = time.monotonic() + 30
        while True:  # the port of a killed server can stay busy for a moment
            try:
                self.server = start_server("reference server", command, self.log_dir / f"server-{self.starts}.log")
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL: no clean-up code of the server runs (its child processes, such as git, live on)."""
        assert self.server is not None
        self.server.process.kill()
        self.server.process.wait(30)
        self.server = None

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"token {ADMIN_TOKEN}"}
        return requests.request(method, self.api + path, headers=headers, timeout=60, **kwargs)

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.call(method, path, **kwargs)
        assert response.status_code < 300, f"{method} {path}: {response.status_code} {response.text[:300]}"
        return response.json() if response.content else None

    def create_repo(self, name: str) -> None:
        self.ok("POST", "/user/repos", json={"name": name, "auto_init": True})

    def commit_files(self, repo: str, files: dict[str, bytes], message: str = "change") -> requests.Response:
        """One multi-file commit (``POST .../contents``), returning the raw answer."""
        operations = [
            {"operation": "create", "path": path, "content": base64.b64encode(data).decode()}
            for path, data in files.items()
        ]
        return self.call("POST", f"/repos/{OWNER}/{repo}/contents", json={"files": operations, "message": message})

    def git_dir(self, repo: str) -> Path:
        return self.data_dir / "git" / OWNER.lower() / f"{repo.lower()}.git"

    def job_client(self, repo: str, work: Path, retry: RetryPolicy = PATIENT) -> ArtifactClient:
        """Queue a run (commit a workflow), register a runner, take the task: the job's artifact client."""
        token = self.ok("POST", f"/repos/{OWNER}/{repo}/actions/runners/registration-token")["token"]
        runner = RunnerClient(self.url).register(token, "faults", [LABEL])
        runner_file = work / "faults.runner"
        RunnerFile(runner.id, runner.uuid, runner.name, runner.token, self.url, [LABEL], False).save(runner_file)
        workflow = base64.b64encode(WORKFLOW.encode()).decode()
        self.ok("POST", f"/repos/{OWNER}/{repo}/contents/.gitea/workflows/faults.yml", json={"content": workflow})
        task = Daemon(runner_file, fetch_interval=0.2).wait_for_task(30)
        assert task is not None, "the runner got no task"
        env = job_environment(task, task_context(task), instance_url=self.url, workspace=work, temp=work)
        return ArtifactClient(env["ACTIONS_RESULTS_URL"], env["ACTIONS_RUNTIME_TOKEN"], retry=retry, progress=False)


@pytest.fixture
def forge(tmp_path: Path) -> Iterator[Forge]:
    """A started server over ``tmp_path/data``, stopped (or already killed) at the end."""
    instance = Forge(tmp_path / "data", tmp_path / "logs")
    instance.start()
    yield instance
    instance.stop()


def git(*args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """The git CLI with no user or system configuration, as the server runs it."""
    env = {
        **os.environ,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": "Fault Test",
        "GIT_AUTHOR_EMAIL": "faults@example.com",
        "GIT_COMMITTER_NAME": "Fault Test",
        "GIT_COMMITTER_EMAIL": "faults@example.com",
    }
    completed = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if check:
        assert completed.returncode == 0, f"git {' '.join(args)}: {completed.stderr}"
    return completed


def fsck_clean(git_dir: Path) -> None:
    """``git fsck --full`` finds no error (dangling objects of an interrupted write are allowed)."""
    completed = git("--git-dir", str(git_dir), "fsck", "--full", "--no-dangling", check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "error" not in completed.stderr.lower() and "missing" not in completed.stdout.lower(), completed.stderr


def branch_head(git_dir: Path, branch: str = "main") -> str:
    return git("--git-dir", str(git_dir), "rev-parse", f"refs/heads/{branch}").stdout.strip()


def tree_blobs(git_dir: Path, commit: str) -> dict[str, str]:
    """Path -> blob id of every file of a commit."""
    listing = git("--git-dir", str(git_dir), "ls-tree", "-r", commit).stdout
    return {line.split("\t", 1)[1]: line.split()[2] for line in listing.splitlines()}


def blob_id(data: bytes) -> str:
    """Git's id of a blob holding ``data``: every byte of a file is checked by comparing ids."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # noqa: S324 (Git's object id)


def integrity_ok(data_dir: Path) -> None:
    """SQLite's own check of the forge database, read-only beside the running server."""
    with sqlite3.connect(f"file:{data_dir / 'forge.db'}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def push_url(forge: Forge, repo: str, port: int | None = None) -> str:
    return f"http://{OWNER}:{ADMIN_TOKEN}@127.0.0.1:{port or forge.port}/{OWNER}/{repo}.git"


def clone_with_payload(forge: Forge, repo: str, work: Path, files: dict[str, bytes]) -> tuple[Path, str]:
    """A clone with one new commit adding ``files``; returns the clone and the commit id."""
    clone = work / "clone"
    git("clone", "-q", push_url(forge, repo), str(clone))
    for path, data in files.items():
        (clone / path).parent.mkdir(parents=True, exist_ok=True)
        (clone / path).write_bytes(data)
    git("config", "core.compression", "0", cwd=clone)  # random bytes do not compress: spare the CPU
    git("config", "pack.compression", "0", cwd=clone)
    git("add", "-A", cwd=clone)
    git("commit", "-q", "-m", "large payload", cwd=clone)
    return clone, git("rev-parse", "HEAD", cwd=clone).stdout.strip()


class SlowProxy:
    """A TCP proxy that forwards each client's bytes to the server at a bounded rate, counting them.

    A ``git push`` through it lasts long enough to be interrupted at a chosen point of its upload, and
    ``sent`` says how far the upload got. Answers flow back unthrottled.
    """

    def __init__(self, upstream_port: int, bytes_per_second: int) -> None:
        self.upstream_port = upstream_port
        self.rate = bytes_per_second
        self.sent = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        except OSError:
            client.close()
            return
        threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()
        self._pipe(client, upstream, True)

    def _pipe(self, source: socket.socket, sink: socket.socket, throttle: bool) -> None:
        piece = 64 * 1024
        try:
            while data := source.recv(piece):
                sink.sendall(data)
                if throttle:
                    self.sent += len(data)
                    time.sleep(len(data) / self.rate)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def close(self) -> None:
        self._closed = True
        self._listener.close()
