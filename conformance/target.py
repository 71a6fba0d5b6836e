"""Which forge the suite talks to: resolved from options, environment or a config file, else the embedded server.

The embedded target is the kit's reference server started once per run (once per worker under
xdist) as a subprocess on a free port, over real HTTP, with a temporary data directory, a random
admin token, its test hooks and the fast password-hash cost (its accounts are thrown away with it);
its log is kept in the report directory.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import requests
import yaml

from .paths import KIT_ROOT
from .receiver import RECEIVER_HOST

__all__ = [
    "ENV_TARGET",
    "ENV_TOKEN",
    "EmbeddedServer",
    "Target",
    "TargetError",
    "TargetSettings",
    "api_url_of",
    "load_target_config",
    "resolve_settings",
]

ENV_TARGET = "CONFORMANCE_TARGET"
ENV_TOKEN = "CONFORMANCE_TOKEN"  # noqa: S105 - the name of a variable, not a secret
EMBEDDED_WEBHOOK_HOSTS = f"external,{RECEIVER_HOST}"
"""The embedded server delivers to the harness's webhook receiver, and to no other local address."""
EMBEDDED_MIGRATION_HOSTS = "external,127.0.0.1"
"""The migration scenarios clone from the embedded server itself, at 127.0.0.1."""
LISTENING = re.compile(r"reference-server listening on (http://\S+)")
STARTUP_SECONDS = 60.0


class TargetError(RuntimeError):
    """The target cannot be used: a clear one-line reason for the person running the suite."""


@dataclass(frozen=True)
class TargetSettings:
    """Where the target is and how to authenticate; ``url`` None means the embedded server."""

    url: str | None
    token: str | None


def load_target_config(path: Path) -> dict[str, str]:
    """Read a YAML target file (keys ``target`` and ``token``), refusing anything else."""
    try:
        loaded: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise TargetError(f"cannot read target config {path}: {error.strerror}") from None
    except yaml.YAMLError as error:
        raise TargetError(f"target config {path} is not valid YAML: {error}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise TargetError(f"target config {path} must be a mapping with the keys target and token")
    unknown = sorted(set(loaded) - {"target", "token"})
    if unknown:
        raise TargetError(f"target config {path} has unknown keys: {', '.join(map(str, unknown))}")
    values: dict[str, str] = {}
    for key in ("target", "token"):
        if key in loaded and loaded[key] is not None:
            if not isinstance(loaded[key], str):
                raise TargetError(f"target config {path}: {key} must be a string")
            values[key] = loaded[key]
    return values


def resolve_settings(
    option_url: str | None,
    option_token: str | None,
    config_file: Path | None,
    environ: dict[str, str] | os._Environ[str] = os.environ,
) -> TargetSettings:
    """Options win over the environment, which wins over the config file; no URL means embedded."""
    from_file = load_target_config(config_file) if config_file is not None else {}
    url = option_url or environ.get(ENV_TARGET) or from_file.get("target")
    token = option_token or environ.get(ENV_TOKEN) or from_file.get("token")
    if url:
        if not url.startswith(("http://", "https://")):
            raise TargetError(f"target URL must start with http:// or https://, got {url!r}")
        if not token:
            raise TargetError(f"target {url} needs an admin token: --token, {ENV_TOKEN} or the config file's token")
        url = url if url.endswith("/") else url + "/"
    return TargetSettings(url=url or None, token=token or None)


def api_url_of(base_url: str) -> str:
    """The REST root under a forge's base URL (which may carry a sub-path)."""
    return (base_url if base_url.endswith("/") else base_url + "/") + "api/v1/"


@dataclass
class Target:
    """The forge under test, as steps see it."""

    base_url: str
    admin_token: str
    is_embedded: bool
    version: str = ""
    capabilities: dict[str, bool] = field(default_factory=dict)

    @property
    def api_url(self) -> str:
        """``{base_url}api/v1/``."""
        return api_url_of(self.base_url)

    @property
    def is_reference(self) -> bool:
        """Whether the target is the kit's reference server (embedded, or answering its test hooks)."""
        return self.is_embedded or self.capabilities.get("reference_clock", False)


class EmbeddedServer:
    """The reference server as a subprocess for one run, from the same checkout as this harness."""

    def __init__(self, log_path: Path, *, keep_data: bool = False) -> None:
        self.log_path = log_path
        self.keep_data = keep_data
        self.admin_token = secrets.token_hex(20)
        self.data_dir = Path(tempfile.mkdtemp(prefix="conformance-data-"))
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.base_url = ""

    def start(self) -> str:
        """Start the server, wait until it listens and answers, and return its base URL."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("wb")
        command = [
            sys.executable,
            "-m",
            "reference_server.cli",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data-dir",
            str(self.data_dir),
            "--admin-token",
            self.admin_token,
            "--test-hooks",
            "--webhook-allowed-hosts",
            EMBEDDED_WEBHOOK_HOSTS,
            "--migrations-allowed-hosts",
            EMBEDDED_MIGRATION_HOSTS,
            "--password-cost",
            "fast",
            "--log-level",
            "INFO",
        ]
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            part for part in (str(KIT_ROOT), environment.get("PYTHONPATH", "")) if part
        )
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, env=environment)
        self.base_url = self._wait_for_listening()
        self._wait_for_answer()
        return self.base_url

    def _log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def _wait_for_listening(self) -> str:
        deadline = time.monotonic() + STARTUP_SECONDS
        assert self.process is not None
        while time.monotonic() < deadline:
            match = LISTENING.search(self._log_text())
            if match:
                return match.group(1)
            if self.process.poll() is not None:
                tail = self._log_text()[-2000:]
                raise TargetError(f"the embedded reference server exited with {self.process.returncode}:\n{tail}")
            time.sleep(0.05)
        self.stop()
        raise TargetError(f"the embedded reference server did not start within {STARTUP_SECONDS:.0f} s")

    def _wait_for_answer(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            try:
                requests.get(api_url_of(self.base_url) + "version", timeout=5)
            except requests.RequestException:
                time.sleep(0.05)
                continue
            return
        self.stop()
        raise TargetError("the embedded reference server does not answer HTTP")

    def stop(self) -> None:
        """Stop the process; remove the data directory unless asked to keep it."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None
        if not self.keep_data:
            shutil.rmtree(self.data_dir, ignore_errors=True)
