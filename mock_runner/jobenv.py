"""The job's environment as act_runner builds it, and what a step gets to work with (``JobRuntime``)."""

from __future__ import annotations

import json
import os
import platform
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from forge_proto import runner_pb2
from google.protobuf import json_format

from . import VERSION
from .artifacts import ArtifactClient
from .logs import Masker

__all__ = [
    "JobRuntime",
    "StepError",
    "job_environment",
    "job_token",
    "masker_for",
    "runner_arch",
    "runner_os",
    "runtime_token",
    "task_context",
    "trusted_by_artifact_client",
]


class StepError(Exception):
    """A step failed for a reason the runner itself knows (not a script's exit status); logged as is."""


def task_context(task: runner_pb2.Task) -> dict[str, Any]:
    """The task's ``context`` Struct (the ``github`` context plus Gitea's tokens) as plain data."""
    if not task.HasField("context"):
        return {}
    return json_format.MessageToDict(task.context)


def job_token(task: runner_pb2.Task, context: Mapping[str, Any]) -> str:
    """The job's token as act_runner picks it: secret GITEA_TOKEN, else GITHUB_TOKEN, else context ``token``."""
    return task.secrets.get("GITEA_TOKEN") or task.secrets.get("GITHUB_TOKEN") or str(context.get("token") or "")


def runtime_token(task: runner_pb2.Task, context: Mapping[str, Any]) -> str:
    """``ACTIONS_RUNTIME_TOKEN``: the context's ``gitea_runtime_token``, else the task token."""
    return str(context.get("gitea_runtime_token") or "") or job_token(task, context)


def masker_for(task: runner_pb2.Task, context: Mapping[str, Any]) -> Masker:
    """Mask every secret and both tokens in the log, as act_runner does."""
    values = [*task.secrets.values(), str(context.get("token") or ""), str(context.get("gitea_runtime_token") or "")]
    return Masker(value for value in values if value)


def trusted_by_artifact_client(server_url: str) -> bool:
    """Whether @actions/artifact accepts this GITHUB_SERVER_URL instead of refusing it as GHES."""
    host = (urlsplit(server_url).hostname or "").lower()
    return host == "github.com" or host.endswith((".ghe.com", ".localhost"))


def runner_os() -> str:
    """``RUNNER_OS`` / ``runner.os`` of this host, in the runner's spelling."""
    return {"Darwin": "macOS", "Windows": "Windows"}.get(platform.system(), "Linux")


def runner_arch() -> str:
    """``RUNNER_ARCH`` / ``runner.arch`` of this host, in the runner's spelling."""
    machine = platform.machine().lower()
    return {"x86_64": "X64", "amd64": "X64", "aarch64": "ARM64", "arm64": "ARM64", "i386": "X86", "i686": "X86"}.get(
        machine, machine.upper() or "X64"
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def job_environment(
    task: runner_pb2.Task,
    context: Mapping[str, Any],
    *,
    instance_url: str,
    workspace: Path,
    temp: Path,
    job_id: str = "",
    runner_name: str = "mock-runner",
    base: Mapping[str, str] | None = None,
    cache_url: str = "",
) -> dict[str, str]:
    """The variables every step sees: the host's, then act_runner's ``ACTIONS_*``, ``GITHUB_*``, ``GITEA_*``."""
    instance = instance_url.rstrip("/")
    env = dict(os.environ if base is None else base)
    event_path = temp / "event.json"
    event_path.write_text(json.dumps(context.get("event") or {}), encoding="utf-8")
    env.update(
        {
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITEA_ACTIONS": "true",
            "GITEA_ACTIONS_RUNNER_VERSION": VERSION,
            "ACTIONS_RUNTIME_URL": f"{instance}/api/actions_pipeline/",
            "ACTIONS_RESULTS_URL": instance,
            "ACTIONS_RUNTIME_TOKEN": runtime_token(task, context),
            "GITHUB_SERVER_URL": instance,
            "GITHUB_API_URL": f"{instance}/api/v1",
            "GITHUB_GRAPHQL_URL": "",
            "GITHUB_REPOSITORY": _text(context.get("repository")),
            "GITHUB_REPOSITORY_OWNER": _text(context.get("repository_owner")),
            "GITHUB_RUN_ID": _text(context.get("run_id")),
            "GITHUB_RUN_NUMBER": _text(context.get("run_number")),
            "GITHUB_RUN_ATTEMPT": _text(context.get("run_attempt")) or "1",
            "GITHUB_SHA": _text(context.get("sha")),
            "GITHUB_REF": _text(context.get("ref")),
            "GITHUB_REF_NAME": _text(context.get("ref_name")),
            "GITHUB_REF_TYPE": _text(context.get("ref_type")),
            "GITHUB_HEAD_REF": _text(context.get("head_ref")),
            "GITHUB_BASE_REF": _text(context.get("base_ref")),
            "GITHUB_EVENT_NAME": _text(context.get("event_name")),
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_ACTOR": _text(context.get("actor")),
            "GITHUB_TRIGGERING_ACTOR": _text(context.get("triggering_actor") or context.get("actor")),
            "GITHUB_WORKFLOW": _text(context.get("workflow")),
            "GITHUB_JOB": job_id or _text(context.get("job")),
            "GITHUB_WORKSPACE": str(workspace),
            "RUNNER_OS": runner_os(),
            "RUNNER_ARCH": runner_arch(),
            "RUNNER_NAME": runner_name,
            "RUNNER_TEMP": str(temp),
            "RUNNER_TOOL_CACHE": str(temp / "toolcache"),
        }
    )
    for key, name in (
        ("actions_id_token_request_url", "ACTIONS_ID_TOKEN_REQUEST_URL"),
        ("actions_id_token_request_token", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"),
    ):
        if context.get(key):
            env[name] = str(context[key])
    if cache_url:  # the runner's own cache server (mock_runner.cache_server), as act_runner hands it out
        env["ACTIONS_CACHE_URL"] = cache_url
    else:  # one the host inherited (a runner inside a CI job) would not take this job's token
        env.pop("ACTIONS_CACHE_URL", None)
    return env


@dataclass
class JobRuntime:
    """What a step (a script or a native action) may use: where to work, the environment, the log."""

    task: runner_pb2.Task
    context: dict[str, Any]
    instance_url: str
    workspace: Path
    temp: Path
    write: Callable[[str], None]
    masker: Masker
    cancelled: threading.Event = field(default_factory=threading.Event)
    artifact_client_factory: Callable[[dict[str, str]], ArtifactClient] | None = None
    process_groups: list[int] = field(default_factory=list)
    """Process groups the job's steps started: whatever still runs in them is stopped when the job ends."""
    allow_host_execution: bool = True
    """Whether ``run:`` steps may run on this host (the daemon sets it by :mod:`mock_runner.hostexec`'s rule)."""
    cache_url: str = ""
    """``ACTIONS_CACHE_URL`` of the runner's cache server, empty when the runner serves no cache."""

    @property
    def token(self) -> str:
        return job_token(self.task, self.context)

    @property
    def step_debug(self) -> bool:
        """Whether ``::debug::`` lines go to the log (secret or variable ``ACTIONS_STEP_DEBUG`` = true)."""
        value = self.task.secrets.get("ACTIONS_STEP_DEBUG") or self.task.vars.get("ACTIONS_STEP_DEBUG") or ""
        return value.strip().lower() == "true"

    def artifact_client(self, env: Mapping[str, str]) -> ArtifactClient:
        """The artifact client for this job, from the step's ``ACTIONS_*`` variables."""
        if self.artifact_client_factory is not None:
            return self.artifact_client_factory(dict(env))
        return ArtifactClient.from_environment(dict(env), progress=False)
