"""Workflow files: parsing the YAML, deciding whether a push triggers it, and per-job payloads for runners."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import yaml

from .matrix import MatrixError, expand_matrix, matrix_job_name, substitute_matrix

__all__ = [
    "WORKFLOW_DIRS",
    "DispatchInput",
    "JobSpec",
    "Workflow",
    "WorkflowError",
    "parse_workflow",
    "pattern_matches",
]

WORKFLOW_DIRS = (".gitea/workflows", ".github/workflows")
"""Where workflows live, in priority order: a ``.gitea`` file shadows a ``.github`` file of the same name."""

MAX_NAME = 255
# Top-level keys copied into every single-job payload (the runner needs them to run that job alone).
PAYLOAD_KEYS = ("name", "run-name", "on", "env", "defaults", "permissions", "concurrency")


class WorkflowError(ValueError):
    """The file is not a usable workflow (bad YAML, no jobs, a ``needs`` naming an unknown job...)."""


@dataclass(frozen=True)
class JobSpec:
    """One job of a workflow, as the server stores it for a run."""

    key: str
    name: str
    runs_on: tuple[str, ...]
    needs: tuple[str, ...]
    condition: str
    steps: tuple[str, ...]
    payload: bytes


@dataclass(frozen=True)
class DispatchInput:
    """A declared ``workflow_dispatch`` input; its default is already a string as runs receive it."""

    name: str
    default: str | None
    required: bool


@dataclass(frozen=True)
class Workflow:
    """A parsed workflow file."""

    file_name: str
    path: str
    name: str
    triggers: Mapping[str, Mapping[str, Any]]
    jobs: tuple[JobSpec, ...]
    dispatch_inputs: Mapping[str, DispatchInput] = field(default_factory=dict)

    @property
    def dispatchable(self) -> bool:
        return "workflow_dispatch" in self.triggers

    def matches_push(self, ref: str, changed_files: Callable[[], list[str] | None]) -> bool:
        """Whether a push of ``ref`` triggers this workflow; ``changed_files`` is asked only for path filters
        and returns None when the change set is unknown (a new branch), which matches as Gitea does."""
        if "push" not in self.triggers:
            return False
        spec = self.triggers["push"]
        is_tag = ref.startswith("refs/tags/")
        short = ref.removeprefix("refs/tags/") if is_tag else ref.removeprefix("refs/heads/")
        branch_keys = [k for k in ("branches", "branches-ignore") if k in spec]
        tag_keys = [k for k in ("tags", "tags-ignore") if k in spec]
        own, other = (tag_keys, branch_keys) if is_tag else (branch_keys, tag_keys)
        if not own and other:
            return False  # only filters of the other ref kind: this kind of ref never triggers
        include_key, ignore_key = ("tags", "tags-ignore") if is_tag else ("branches", "branches-ignore")
        if include_key in spec and not _any_match(_patterns(spec[include_key]), short):
            return False
        if ignore_key in spec and _any_match(_patterns(spec[ignore_key]), short):
            return False
        if is_tag or not ({"paths", "paths-ignore"} & spec.keys()):
            return True  # path filters are not evaluated for tag pushes
        files = changed_files()
        if files is None:
            return True
        if "paths" in spec:
            wanted = _patterns(spec["paths"])
            if not any(_any_match(wanted, f) for f in files):
                return False
        if "paths-ignore" in spec:
            ignored = _patterns(spec["paths-ignore"])
            if files and all(_any_match(ignored, f) for f in files):
                return False
        return True


def _patterns(raw: Any) -> list[str]:
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list):
        return [str(item) for item in raw if item is not None]
    return []


@lru_cache(maxsize=512)
def _compile(pattern: str) -> re.Pattern[str]:
    """GitHub's filter pattern syntax: ``*`` stays within a path segment, ``**`` crosses them,
    ``?`` and ``+`` quantify the preceding character, ``[...]`` is a class."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "*":
            if pattern.startswith("**", i):
                out.append(".*")
                i += 2
                continue
            out.append("[^/]*")
        elif char in "?+":
            out.append(char if out else re.escape(char))
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                out.append("[" + pattern[i + 1 : end].replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    try:
        return re.compile("".join(out) + r"\Z")
    except re.error:
        return re.compile(re.escape(pattern) + r"\Z")


def pattern_matches(pattern: str, value: str) -> bool:
    """Whether one filter pattern (without a leading ``!``) matches ``value`` entirely."""
    return _compile(pattern).match(value) is not None


def _any_match(patterns: Iterable[str], value: str) -> bool:
    """Filter list semantics: patterns apply in order, a ``!pattern`` that matches excludes again."""
    matched = False
    for pattern in patterns:
        if pattern.startswith("!"):
            if matched and pattern_matches(pattern[1:], value):
                matched = False
        elif not matched and pattern_matches(pattern, value):
            matched = True
    return matched


def _normalize_triggers(raw: Any) -> dict[str, dict[str, Any]]:
    if isinstance(raw, str):
        return {raw: {}}
    if isinstance(raw, list):
        return {str(item): {} for item in raw if isinstance(item, str)}
    if isinstance(raw, dict):
        return {str(key): (value if isinstance(value, dict) else {}) for key, value in raw.items()}
    return {}


def _labels(raw: Any) -> tuple[str, ...]:
    if isinstance(raw, str):
        return (raw,)
    if isinstance(raw, list):
        return tuple(str(item) for item in raw)
    if isinstance(raw, dict):
        return _labels(raw.get("labels"))
    return ()


def _input_text(value: Any) -> str | None:
    """An input default as the string a run receives (booleans as ``true``/``false``)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _step_name(step: Any, index: int) -> str:
    """A step's display name, as act names it: ``name``, else ``uses``, else ``run``, else its id."""
    if isinstance(step, dict):
        for key in ("name", "uses", "run", "id"):
            value = step.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()[:MAX_NAME]
    return f"step {index + 1}"


def _dispatch_inputs(triggers: Mapping[str, Mapping[str, Any]]) -> dict[str, DispatchInput]:
    spec = triggers.get("workflow_dispatch", {})
    declared = spec.get("inputs") if isinstance(spec, Mapping) else None
    inputs: dict[str, DispatchInput] = {}
    if isinstance(declared, dict):
        for name, raw_options in declared.items():
            options = raw_options if isinstance(raw_options, dict) else {}
            default = _input_text(options.get("default"))
            inputs[str(name)] = DispatchInput(str(name), default, bool(options.get("required")))
    return inputs


def _job_payload(document: dict[Any, Any], key: str, job: dict[str, Any]) -> bytes:
    """The workflow with only this job (its ``needs`` erased: the runner gets the needs' results apart)."""
    single: dict[str, Any] = {}
    for name in PAYLOAD_KEYS:
        source: Any = True if name == "on" and True in document and "on" not in document else name
        if source in document:
            single[name] = document[source]
    single["jobs"] = {key: {k: v for k, v in job.items() if k != "needs"}}
    return yaml.safe_dump(single, sort_keys=False, allow_unicode=True).encode("utf-8")


def _needs(key: str, raw: Any, known: set[str]) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(need, str) for need in raw):
        raise WorkflowError(f"job {key!r}: needs must be a job id or a list of job ids")
    for need in raw:
        if need not in known:
            raise WorkflowError(f"job {key!r} needs unknown job {need!r}")
    return tuple(raw)


def _expand(key: str, job: dict[str, Any]) -> list[tuple[str, tuple[str, ...], dict[str, Any]]]:
    """``(name, runs-on labels, job for the payload)`` for each matrix combination (one without a matrix)."""
    raw_name = job.get("name")
    name = str(raw_name) if raw_name else key
    labels = _labels(job.get("runs-on"))
    strategy = job.get("strategy")
    try:
        combinations = expand_matrix(strategy.get("matrix") if isinstance(strategy, dict) else None)
    except MatrixError as exc:
        raise WorkflowError(f"job {key!r}: {exc}") from exc
    if not combinations:
        return [(name, labels, job)]
    expanded = []
    for combination in combinations:
        concrete = dict(job)
        concrete["strategy"] = {**(strategy or {}), "matrix": {k: [v] for k, v in combination.items()}}
        runs_on = tuple(substitute_matrix(label, combination) for label in labels)
        if "runs-on" in job:
            concrete["runs-on"] = list(runs_on)
        expanded.append((matrix_job_name(name, combination), runs_on, concrete))
    return expanded


def _job_specs(document: dict[Any, Any]) -> tuple[JobSpec, ...]:
    jobs = document.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        raise WorkflowError("the workflow has no jobs")
    known = {str(k) for k in jobs}
    specs: list[JobSpec] = []
    for raw_key, job in jobs.items():
        key = str(raw_key)
        if not isinstance(job, dict):
            raise WorkflowError(f"job {key!r} is not a mapping")
        needs = _needs(key, job.get("needs"), known)
        steps_raw = job.get("steps") or []
        steps = tuple(_step_name(step, i) for i, step in enumerate(steps_raw if isinstance(steps_raw, list) else []))
        for name, runs_on, concrete in _expand(key, job):
            specs.append(
                JobSpec(
                    key=key,
                    name=name[:MAX_NAME],
                    runs_on=runs_on,
                    needs=needs,
                    condition=str(job.get("if") or "").strip(),
                    steps=steps,
                    payload=_job_payload(document, key, concrete),
                )
            )
    _reject_cycles({spec.key: spec.needs for spec in specs})
    return tuple(specs)


def _reject_cycles(needs: Mapping[str, tuple[str, ...]]) -> None:
    done: set[str] = set()
    for start in needs:
        stack = [(start, iter(needs[start]))]
        visiting = {start}
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                visiting.discard(node)
                done.add(node)
                continue
            if child in visiting:
                cycle = " -> ".join([name for name, _ in stack] + [child])
                raise WorkflowError(f"the jobs' needs form a cycle: {cycle}")
            if child not in done:
                visiting.add(child)
                stack.append((child, iter(needs[child])))


def parse_workflow(file_name: str, path: str, content: bytes) -> Workflow:
    """Parse one workflow file; raises :class:`WorkflowError` when it cannot run."""
    try:
        document = yaml.safe_load(content.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        raise WorkflowError(f"invalid workflow YAML: {exc}") from exc
    except RecursionError as exc:
        raise WorkflowError("invalid workflow YAML: nested too deeply") from exc
    if not isinstance(document, dict):
        raise WorkflowError("a workflow must be a YAML mapping")
    raw_on = document["on"] if "on" in document else document.get(True)  # YAML 1.1 reads a bare `on` as true
    triggers = _normalize_triggers(raw_on)
    name = document.get("name")
    return Workflow(
        file_name=file_name,
        path=path,
        name=(str(name).strip() if name else "") or file_name,
        triggers=triggers,
        jobs=_job_specs(document),
        dispatch_inputs=_dispatch_inputs(triggers),
    )
