"""Runs a ``uses:`` step as act_runner does: resolve, fetch, then a JavaScript or composite action.

A remote action the actions instance does not have (404) falls back to mock-runner's native
``actions/checkout``, ``actions/upload-artifact`` and ``actions/download-artifact``; any other missing action
fails the step saying where it was looked for. An unreachable instance falls back to a native too (with a
warning), so a runner cut off from its actions instance still checks out and moves artifacts. Docker
actions fail the step: host mode has no containers.
"""

from __future__ import annotations

from pathlib import Path

from .actions_builtin import BUILTINS, run_builtin
from .actions_composite import run_composite
from .actions_context import ActionCall, ActionSession, LocatedAction, action_environment
from .actions_node import NODE_RUNTIMES, run_javascript
from .actions_resolve import DOCKER_REFUSAL, ActionRef, ActionsUnreachable, load_manifest, parse_uses
from .expressions import Evaluator
from .jobenv import StepError

__all__ = ["run_action", "start_session"]


def _native(action: ActionRef) -> bool:
    return action.action_name in BUILTINS


def _locate(session: ActionSession, call: ActionCall, action: ActionRef) -> tuple[Path, str, str] | None:
    """The action's directory, repository and ref; None when a remote repository is missing."""
    runtime = session.runtime
    if action.kind == "local":
        directory = (runtime.workspace / action.path).resolve()
        if not directory.is_relative_to(runtime.workspace.resolve()):
            raise StepError(f"{call.uses}: the path leaves the workspace")
        if not directory.is_dir():
            raise StepError(f"{call.uses}: no directory {action.path or '.'} in the workspace (check out first)")
        github = call.contexts.get("github") or {}
        return directory, str(github.get("repository") or ""), str(github.get("sha") or "")
    fetched = session.cache.fetch(action, runtime.token, runtime.write)
    if fetched is None:
        return None
    directory = (fetched / action.path).resolve()
    if not directory.is_relative_to(fetched.resolve()) or not directory.is_dir():
        raise StepError(f"{call.uses}: {action.repository}@{action.ref} has no directory {action.path!r}")
    return directory, action.repository, action.ref


def run_action(session: ActionSession, call: ActionCall) -> dict[str, str]:
    """Run one ``uses:`` and return its outputs; a failure raises ``StepError`` with the reason."""
    action = parse_uses(call.uses, session.base_url)
    if action.kind == "docker":
        raise StepError(f"{call.uses}: {DOCKER_REFUSAL}")
    try:
        located = _locate(session, call, action)
    except ActionsUnreachable as exc:
        if not _native(action):
            raise
        session.runtime.write(f"Warning: {exc}; running mock-runner's native {action.action_name}")
        return run_builtin(call.uses, call.inputs, call.env, session.runtime)
    if located is None:
        if _native(action):
            session.runtime.write(f"{action.repository} is not on {action.base_url}: running mock-runner's native one")
            return run_builtin(call.uses, call.inputs, call.env, session.runtime)
        raise StepError(
            f"{call.uses}: no repository {action.repository} on {action.base_url} (the actions instance); "
            f"natively mock-runner has only {', '.join(sorted(BUILTINS))}"
        )
    directory, repository, ref = located
    found = LocatedAction(directory, repository, ref, load_manifest(directory, call.uses))
    evaluator = Evaluator({**call.contexts, "inputs": {}}, session.job_status)
    env, inputs = action_environment(call, found, evaluator)
    using = found.manifest.using
    if using in NODE_RUNTIMES:
        return run_javascript(session, call, found, env)
    if using == "composite":
        return run_composite(session, call, found, env, inputs)
    if using == "docker":
        raise StepError(f"{call.uses}: {DOCKER_REFUSAL}")
    known = ", ".join((*NODE_RUNTIMES, "composite", "docker"))
    raise StepError(f"{call.uses}: runs.using {using or 'is missing'!r} is not one of {known}")


def start_session(session: ActionSession) -> ActionSession:
    """Wire the session's dispatcher (nested actions of composites go through ``run_action`` too)."""
    session.dispatch = lambda call: run_action(session, call)
    return session
