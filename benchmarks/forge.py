"""Preparing a fresh reference server for one artifact run: a repository, a workflow, a registered runner.

Only the public surfaces are used (REST under ``/api/v1`` and the ``mock-runner`` command), exactly as a
user would, so the benchmark measures the kit as shipped.
"""

from __future__ import annotations

import base64
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from benchmarks.processes import BenchmarkError, kit_environment

__all__ = ["RUNNER_LABEL", "WORKFLOW", "ForgeClient", "mock_runner_command"]

RUNNER_LABEL = "bench-runner"
WORKFLOW = f"""name: bench
on: push
jobs:
  roundtrip:
    runs-on: {RUNNER_LABEL}
    steps:
      - run: echo the benchmark runs its client as this job
"""


def mock_runner_command(*args: str) -> list[str]:
    """The ``mock-runner`` command with this interpreter, independent of PATH."""
    return [sys.executable, "-m", "mock_runner.cli", *args]


@dataclass
class ForgeClient:
    """The few REST operations the benchmark needs, authenticated with the admin token."""

    base_url: str
    admin_token: str

    def _call(self, method: str, path: str, json_body: dict[str, Any] | None = None) -> dict[str, Any]:
        url = self.base_url.rstrip("/") + "/api/v1" + path
        try:
            response = requests.request(
                method, url, json=json_body, headers={"Authorization": f"token {self.admin_token}"}, timeout=60
            )
        except requests.RequestException as exc:
            raise BenchmarkError(f"{method} {url} failed: {exc}") from exc
        if response.status_code >= 300:
            raise BenchmarkError(f"{method} {url} answered {response.status_code}: {response.text[:300]}")
        if not response.content:
            return {}
        body: dict[str, Any] = response.json()
        return body

    def owner(self) -> str:
        return str(self._call("GET", "/user")["login"])

    def create_repo(self, name: str) -> str:
        """Create a repository of the admin; returns ``owner/name``."""
        created = self._call("POST", "/user/repos", {"name": name, "auto_init": True, "private": False})
        return str(created["full_name"])

    def push_workflow(self, full_name: str, workflow: str = WORKFLOW, file_name: str = "bench.yml") -> None:
        """Commit the workflow through the contents API; the commit counts as a push and queues one run."""
        content = base64.b64encode(workflow.encode()).decode()
        self._call(
            "POST",
            f"/repos/{full_name}/contents/.gitea/workflows/{file_name}",
            {"content": content, "message": "Add the benchmark workflow"},
        )

    def registration_token(self, full_name: str) -> str:
        token = self._call("POST", f"/repos/{full_name}/actions/runners/registration-token").get("token")
        if not isinstance(token, str) or not token:
            raise BenchmarkError(f"registration-token of {full_name} returned no token")
        return token

    def get(self, path: str) -> dict[str, Any]:
        """Any GET under ``/api/v1`` (``path`` starts with ``/``), failing on a non-2xx answer."""
        return self._call("GET", path)

    def latest_run(self, full_name: str) -> dict[str, Any]:
        runs = self._call("GET", f"/repos/{full_name}/actions/runs").get("workflow_runs") or []
        if not runs:
            raise BenchmarkError(f"{full_name} has no workflow run")
        latest: dict[str, Any] = max(runs, key=lambda run: int(run["id"]))
        return latest

    def register_runner(self, full_name: str, runner_file: Path, log_path: Path) -> None:
        """Register a repository runner with ``mock-runner register`` into ``runner_file``."""
        token = self.registration_token(full_name)
        command = mock_runner_command(
            "register",
            "--no-interactive",
            "--instance",
            self.base_url,
            "--token",
            token,
            "--name",
            "bench",
            "--labels",
            RUNNER_LABEL,
            "--runner-file",
            str(runner_file),
        )
        with log_path.open("ab") as log:
            completed = subprocess.run(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                timeout=120,
                check=False,
                env=kit_environment(),
            )
        if completed.returncode != 0 or not runner_file.exists():
            raise BenchmarkError(
                f"mock-runner register failed with status {completed.returncode}; see {log_path}:\n"
                + log_path.read_text(errors="replace")[-1500:]
            )
