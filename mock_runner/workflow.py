"""The single-job workflow a task carries (``workflow_payload``), parsed into what the executor needs.

The server sends one job per task (act_runner refuses more), already expanded: a matrix job arrives
with one value per matrix key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

__all__ = ["Job", "Step", "Workflow", "WorkflowError", "parse_payload", "parse_step"]


class WorkflowError(ValueError):
    """The payload is not a single-job workflow the mock runner can run; the message says why."""


@dataclass(frozen=True)
class Step:
    """One step: either ``run`` (a script) or ``uses`` (an action), with its options as written."""

    index: int
    id: str
    name: str
    run: str | None = None
    uses: str | None = None
    with_: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    if_: Any = None
    shell: str | None = None
    working_directory: str | None = None
    continue_on_error: Any = False
    timeout_minutes: Any = None

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.uses:
            return self.uses
        first = (self.run or "").strip().splitlines()
        return first[0] if first else f"step {self.index}"


@dataclass(frozen=True)
class Job:
    """The job of the payload: its YAML id, steps, environment, outputs and defaults."""

    id: str
    name: str
    runs_on: list[str]
    steps: list[Step]
    env: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    if_: Any = None
    shell: str | None = None
    working_directory: str | None = None
    timeout_minutes: Any = None
    matrix: dict[str, Any] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    """Keys that need containers (``container``, ``services``), which host mode cannot honour."""


@dataclass(frozen=True)
class Workflow:
    """The workflow around the job: its name and workflow-level ``env``."""

    name: str
    env: dict[str, str]
    job: Job


def _text(value: Any) -> str:
    """An env or ``with`` value as the runner sees it (YAML scalars become strings)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _mapping(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise WorkflowError(f"{where} must be a mapping, not {type(value).__name__}")
    return {str(key): _text(item) for key, item in value.items()}


def _defaults(node: dict[str, Any], where: str) -> tuple[str | None, str | None]:
    defaults = node.get("defaults") or {}
    run = defaults.get("run") or {} if isinstance(defaults, dict) else None
    if not isinstance(run, dict):
        raise WorkflowError(f"{where}.defaults.run must be a mapping")
    shell = run.get("shell")
    directory = run.get("working-directory")
    return (str(shell) if shell else None, str(directory) if directory else None)


def _step(index: int, node: Any, where: str) -> Step:
    if not isinstance(node, dict):
        raise WorkflowError(f"{where} must be a mapping")
    run, uses = node.get("run"), node.get("uses")
    if (run is None) == (uses is None):
        raise WorkflowError(f"{where} must have exactly one of 'run' and 'uses'")
    step_id = node.get("id")
    return Step(
        index=index,
        id=str(step_id) if step_id not in (None, "") else f"__step_{index}",
        name=_text(node.get("name")),
        run=_text(run) if run is not None else None,
        uses=str(uses).strip() if uses is not None else None,
        with_=_mapping(node.get("with"), f"{where}.with"),
        env=_mapping(node.get("env"), f"{where}.env"),
        if_=node.get("if"),
        shell=str(node["shell"]) if node.get("shell") else None,
        working_directory=str(node["working-directory"]) if node.get("working-directory") else None,
        continue_on_error=node.get("continue-on-error", False),
        timeout_minutes=node.get("timeout-minutes"),
    )


def _matrix(job: dict[str, Any]) -> dict[str, Any]:
    strategy = job.get("strategy") or {}
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    if not isinstance(matrix, dict):
        return {}
    values: dict[str, Any] = {}
    for key, value in matrix.items():
        if key in ("include", "exclude"):
            continue
        values[str(key)] = value[0] if isinstance(value, list) and len(value) == 1 else value
    return values


def parse_payload(payload: bytes | str) -> Workflow:
    """Parse the task's ``workflow_payload``; refuse anything but exactly one job with steps."""
    try:
        document = yaml.safe_load(payload)
    except yaml.YAMLError as exc:
        raise WorkflowError(f"workflow payload is not valid YAML: {exc}") from exc
    if not isinstance(document, dict):
        raise WorkflowError("workflow payload is not a YAML mapping")
    jobs = document.get("jobs")
    if not isinstance(jobs, dict) or len(jobs) != 1:
        count = len(jobs) if isinstance(jobs, dict) else 0
        raise WorkflowError(f"a task must carry exactly one job, this payload has {count}")
    ((job_id, node),) = jobs.items()
    where = f"jobs.{job_id}"
    if not isinstance(node, dict):
        raise WorkflowError(f"{where} must be a mapping")
    if node.get("uses"):
        raise WorkflowError(f"{where} calls a reusable workflow ({node['uses']}), which mock-runner cannot run")
    steps_node = node.get("steps")
    if not isinstance(steps_node, list) or not steps_node:
        raise WorkflowError(f"{where}.steps must be a non-empty list")
    steps = [_step(index, item, f"{where}.steps[{index}]") for index, item in enumerate(steps_node)]
    ids = [step.id for step in steps]
    duplicates = sorted({step_id for step_id in ids if ids.count(step_id) > 1})
    if duplicates:
        raise WorkflowError(f"{where}: step ids must be unique, repeated: {', '.join(duplicates)}")
    runs_on = node.get("runs-on")
    labels = [str(item) for item in runs_on] if isinstance(runs_on, list) else ([str(runs_on)] if runs_on else [])
    workflow_shell, workflow_directory = _defaults(document, "workflow")
    job_shell, job_directory = _defaults(node, where)
    outputs = node.get("outputs") or {}
    if not isinstance(outputs, dict):
        raise WorkflowError(f"{where}.outputs must be a mapping")
    job = Job(
        id=str(job_id),
        name=_text(node.get("name")) or str(job_id),
        runs_on=labels,
        steps=steps,
        env=_mapping(node.get("env"), f"{where}.env"),
        outputs={str(key): _text(value) for key, value in outputs.items()},
        if_=node.get("if"),
        shell=job_shell or workflow_shell,
        working_directory=job_directory or workflow_directory,
        timeout_minutes=node.get("timeout-minutes"),
        matrix=_matrix(node),
        ignored=[key for key in ("container", "services") if node.get(key)],
    )
    return Workflow(name=_text(document.get("name")), env=_mapping(document.get("env"), "env"), job=job)


def parse_step(index: int, node: Any, where: str) -> Step:
    """One step of a composite action's ``runs.steps``, read like a job's step."""
    return _step(index, node, where)
