"""Running a step's process on the host: the shell command, the output pump, cancellation and time limits.

Shared by ``run:`` steps, composite actions' scripts, JavaScript actions and ``mock-runner exec``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from .jobenv import JobRuntime, StepError
from .workflow_commands import LineCommands

__all__ = ["run_process", "shell_command"]


def shell_command(shell: str | None, script: Path) -> list[str]:
    """The command for ``shell:``: bash and sh as the runner runs them, or a template with ``{0}``."""
    name = (shell or ("bash" if shutil.which("bash") else "sh")).strip()
    if name == "bash":
        return ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)]
    if name == "sh":
        return ["sh", "-e", str(script)]
    if name in ("python", "python3"):
        return [name, str(script)]
    if "{0}" in name:
        return [part.replace("{0}", str(script)) for part in shlex.split(name)]
    raise StepError(f"shell {name!r} is not supported by mock-runner (use bash, sh, python or a command with {{0}})")


def _terminate(process: subprocess.Popen[bytes]) -> None:
    """Stop the step's whole process group: TERM, then KILL after a grace period."""
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


def run_process(
    command: list[str],
    cwd: Path,
    env: Mapping[str, str],
    runtime: JobRuntime,
    *,
    timeout: float | None,
    commands: LineCommands | None = None,
) -> int | None:
    """Run ``command``, its output becoming log lines; None when cancelled, 124-like failure on timeout."""
    try:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        raise StepError(f"cannot start {command[0]}: {exc}") from exc
    runtime.process_groups.append(process.pid)
    handler = commands if commands is not None else LineCommands(runtime)

    def pump() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            line = handler.handle(raw.decode("utf-8", errors="replace").rstrip("\n").rstrip("\r"))
            if line is not None:
                runtime.write(line)

    reader = threading.Thread(target=pump, name="step-output", daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout if timeout is not None else None
    outcome: int | None = None
    while True:
        try:
            outcome = process.wait(0.2)
            break
        except subprocess.TimeoutExpired:
            pass
        if runtime.cancelled.is_set():
            runtime.write("The job was cancelled: stopping the step.")
            _terminate(process)
            reader.join(5.0)
            return None
        if deadline is not None and time.monotonic() > deadline:
            runtime.write(f"Error: the step timed out after {timeout:.0f} seconds.")
            _terminate(process)
            reader.join(5.0)
            return 124
    reader.join(5.0)
    return outcome
