"""SIGINT stops reference-server cleanly even when it was started with SIGINT ignored (a shell's background job)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path


def ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_sigint_stops_a_server_started_with_sigint_ignored(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "reference_server.cli", "--port", "0", "--data-dir", str(tmp_path / "data")]
    command += ["--admin-token", "a" * 40, "--password-cost", "fast"]
    server = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=ignore_sigint,  # noqa: PLW1509 - nothing else runs in the child before exec
    )
    try:
        assert server.stdout is not None
        for line in server.stdout:
            if "listening on" in line:
                break
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=20) == 0, "SIGINT is a clean shutdown"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
