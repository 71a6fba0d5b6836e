"""The ``Task`` a runner receives: single-job workflow, the ``gitea`` context, secrets, needs' results."""

from __future__ import annotations

from typing import Any

from forge_proto import runner_pb2
from google.protobuf.struct_pb2 import Struct

from ..context import forge
from ..errors import ApiError, ConnectError
from ..repos.models import get_repo_by_id
from ..users.models import get_user
from . import runner_store
from .models import Run, get_run, jobs_of_run
from .secrets import job_secrets
from .status import Status, aggregate
from .tasks import PickedTask
from .variables import job_variables

__all__ = ["build_task_context", "build_task_message"]

DEFAULT_ACTIONS_URL = "https://github.com"
EMPTY_CONTEXT_KEYS = (
    "action",
    "action_path",
    "action_ref",
    "action_repository",
    "action_status",
    "base_ref",
    "env",
    "event_path",
    "graphql_url",
    "head_ref",
    "path",
    "retention_days",
    "triggering_actor",
    "workspace",
)


def _names(run: Run) -> tuple[str, str, str]:
    """``(owner/name, owner, actor)`` of a run, looked up now (empty when the account is gone)."""
    try:
        repo = get_repo_by_id(run.repo_id)
        full_name, owner = repo.full_name, repo.owner_name
    except ApiError:
        full_name, owner = "", ""
    try:
        actor = get_user(run.trigger_user_id).name
    except ApiError:
        actor = ""
    return full_name, owner, actor


def build_task_context(picked: PickedTask, run: Run, runtime_token: str) -> dict[str, Any]:
    """The ``gitea``/``github`` context, with the keys of Gitea's ``GenerateGiteaContext``."""
    full_name, owner, actor = _names(run)
    context: dict[str, Any] = dict.fromkeys(EMPTY_CONTEXT_KEYS, "")
    context.update(
        {
            "actor": actor,
            "api_url": forge().api_url("").rstrip("/"),
            "event": run.event_payload,
            "event_name": run.event,
            "gitea_default_actions_url": DEFAULT_ACTIONS_URL,
            "job": picked.job.job_key,
            "ref": run.ref,
            "ref_name": run.ref_name,
            "ref_protected": False,
            "ref_type": run.ref_type,
            "repository": full_name,
            "repository_owner": owner,
            "repositoryUrl": forge().url(full_name) + ".git" if full_name else "",
            "run_attempt": str(picked.task.attempt),
            "run_id": str(run.id),
            "run_number": str(run.run_number),
            "secret_source": "Actions",
            "server_url": forge().url(""),
            "sha": run.head_sha,
            "workflow": run.workflow_id,
            "token": picked.token,
            "gitea_runtime_token": runtime_token,
        }
    )
    if run.inputs is not None:
        context["inputs"] = dict(run.inputs)
    return context


def _needs(picked: PickedTask) -> dict[str, runner_pb2.TaskNeed]:
    """The result and outputs of each job this job needs; matrix siblings (same key) are merged, their
    result aggregated as a run's would be and their outputs combined (first value of a key wins)."""
    wanted = set(picked.job.needs)
    if not wanted:  # most jobs: no need to read every job of the run (a hundred FetchTasks read it a hundred times)
        return {}
    statuses: dict[str, list[Status]] = {}
    outputs: dict[str, dict[str, str]] = {}
    for job in jobs_of_run(picked.job.run_id):
        if job.job_key in wanted:
            statuses.setdefault(job.job_key, []).append(job.status)
            merged = outputs.setdefault(job.job_key, {})
            for name, value in (runner_store.outputs(job.task_id) if job.task_id else {}).items():
                merged.setdefault(name, value)
    return {
        key: runner_pb2.TaskNeed(outputs=outputs[key], result=aggregate(statuses[key]).as_result())  # type: ignore[arg-type]
        for key in statuses
    }


def build_task_message(picked: PickedTask) -> runner_pb2.Task:
    """Everything the runner needs to run the job, with a runtime token for the artifact protocol."""
    run = get_run(picked.task.run_id)
    if run is None:  # pragma: no cover - a run with a running job cannot be deleted
        raise ConnectError("internal", "the run of the task is gone")
    now = forge().now()
    runtime_token = forge().signer.issue_runtime_token(
        task_id=picked.task.id,
        run_id=run.id,
        job_id=picked.job.id,
        now=now,
        lifetime=forge().config.limits.runtime_token_lifetime_seconds,
    )
    context = Struct()
    context.update(build_task_context(picked, run, runtime_token))
    return runner_pb2.Task(
        id=picked.task.id,
        workflow_payload=picked.job.workflow_payload,
        context=context,
        secrets={**job_secrets(run.owner_id, run.repo_id), "GITHUB_TOKEN": picked.token, "GITEA_TOKEN": picked.token},
        needs=_needs(picked),
        vars=job_variables(run.owner_id, run.repo_id),
    )
