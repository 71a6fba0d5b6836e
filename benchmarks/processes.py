"""Starting and stopping the benchmark's server processes, and running its client processes.

Servers write to a log file (never a pipe nobody drains, which would stall them) and announce their
address with a ``... listening on http://HOST:PORT/`` line; they are stopped with SIGINT, which both
servers treat as a clean shutdown.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["BenchmarkError", "ServerProcess", "kit_environment", "python_command", "run_client", "start_server"]

_LISTENING = re.compile(rb"listening on (http://\S+?/)")


class BenchmarkError(RuntimeError):
    """The benchmark could not produce figures (a process failed, or bytes came back different)."""


def _tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


@dataclass
class ServerProcess:
    """A running server: its process, the base URL it announced, and its log."""

    name: str
    process: subprocess.Popen[bytes]
    url: str
    log_path: Path
    _stopped: bool = field(default=False, repr=False)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, timeout: float = 20.0) -> None:
        """Ask for a clean shutdown, then insist."""
        if self._stopped:
            return
        self._stopped = True
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)

    def ensure_alive(self) -> None:
        if self.process.poll() is not None:
            raise BenchmarkError(
                f"{self.name} exited with status {self.process.returncode}; its log ends with:\n{_tail(self.log_path)}"
            )


REPO = Path(__file__).resolve().parent.parent


def kit_environment() -> dict[str, str]:
    """This process's environment with the checkout first on ``PYTHONPATH``.

    Every process of the benchmark (servers, ``mock-runner``, the client inside a job's workspace) then
    runs the code of the checkout the benchmark lives in, whatever the current directory.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return env


def start_server(name: str, command: list[str], log_path: Path, *, timeout: float = 60.0) -> ServerProcess:
    """Start ``command`` and wait for its ``listening on`` line; fail with the log's tail if it never comes."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=kit_environment()
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = _LISTENING.search(log_path.read_bytes())
        if match:
            return ServerProcess(name, process, match.group(1).decode(), log_path)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    if process.poll() is None:
        process.kill()
        process.wait()
        reason = f"did not announce its address within {timeout:.0f} s"
    else:
        reason = f"exited with status {process.returncode} before announcing its address"
    raise BenchmarkError(f"{name} {reason}: {' '.join(command)}\n{_tail(log_path)}")


def run_client(command: list[str], out_path: Path, log_path: Path, *, timeout: float) -> list[dict[str, Any]]:
    """Run a client process that writes its phases to ``out_path``; return them or fail with its reason."""
    out_path.unlink(missing_ok=True)
    with log_path.open("wb") as log:
        try:
            completed = subprocess.run(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                timeout=timeout,
                check=False,
                env=kit_environment(),
            )
        except subprocess.TimeoutExpired as exc:
            raise BenchmarkError(f"client timed out after {timeout:.0f} s: {' '.join(command)}") from exc
    try:
        result = json.loads(out_path.read_text())
    except (OSError, ValueError):
        result = {}
    if "error" in result:
        raise BenchmarkError(f"client failed: {result['error']}\n{_tail(log_path)}")
    if completed.returncode != 0 or "phases" not in result:
        raise BenchmarkError(
            f"client exited with status {completed.returncode} without figures: {' '.join(command)}\n{_tail(log_path)}"
        )
    phases: list[dict[str, Any]] = result["phases"]
    return phases


def python_command(script: Path, *args: str) -> list[str]:
    """A command running one of the benchmark's scripts with this interpreter (the kit's virtualenv)."""
    return [sys.executable, str(script), *args]
