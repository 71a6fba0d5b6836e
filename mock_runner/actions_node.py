"""JavaScript actions (``runs.using: node12/16/20/24``) with the ``node`` on the PATH: pre, main, post.

``pre`` runs just before ``main`` when its ``pre-if`` holds; ``post`` waits for the end of the job and runs
then (the last registered first) when its ``post-if`` holds, ``always()`` by default. State saved in one
phase (``GITHUB_STATE`` or ``::save-state``) reaches the later ones as ``STATE_<name>``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .actions_context import ActionCall, ActionSession, LocatedAction, PostStep
from .actions_resolve import ActionManifest
from .expressions import Evaluator
from .jobenv import StepError
from .steprun import run_process
from .workflow_commands import CommandFiles, LineCommands

__all__ = ["NODE_RUNTIMES", "run_javascript"]

NODE_RUNTIMES = ("node12", "node16", "node20", "node24")


def _script(manifest: ActionManifest, directory: Path, phase: str, uses: str) -> Path:
    relative = str(manifest.runs.get(phase) or "")
    script = (directory / relative).resolve()
    if not relative or not script.is_relative_to(directory.resolve()):
        raise StepError(f"{uses}: runs.{phase} {relative!r} is not a file of the action")
    if not script.is_file():
        raise StepError(f"{uses}: runs.{phase} names {relative!r}, which the action does not contain")
    return script


def _phase(
    session: ActionSession,
    call: ActionCall,
    script: Path,
    env: dict[str, str],
    state: dict[str, str],
    *,
    timeout: float | None,
) -> dict[str, str]:
    """Run one phase with ``node``; its outputs, or StepError when node fails or the job is cancelled."""
    runtime = session.runtime
    session.require_host()
    process_env = {**env, **session.effects.env, **{f"STATE_{key}": value for key, value in state.items()}}
    session.effects.apply_path(process_env)
    node = shutil.which("node", path=process_env.get("PATH"))
    if node is None:
        raise StepError(f"{call.uses}: node is not on the PATH; a JavaScript action needs it")
    files = CommandFiles.create(runtime.temp, session.next_tag())
    files.export(process_env)
    commands = LineCommands(runtime)
    code = run_process([node, str(script)], runtime.workspace, process_env, runtime, timeout=timeout, commands=commands)
    state.update({**commands.state, **files.state()})
    session.effects.absorb(files)
    if code is None:
        raise StepError(f"{call.uses}: cancelled")
    if code != 0:
        raise StepError(f"Process completed with exit code {code}.")
    return {**commands.outputs, **files.outputs()}


def run_javascript(
    session: ActionSession, call: ActionCall, action: LocatedAction, env: dict[str, str]
) -> dict[str, str]:
    """Run pre (if any and wanted) and main now, and leave post for the end of the job."""
    manifest, directory = action.manifest, action.directory
    main = _script(manifest, directory, "main", call.uses)
    state: dict[str, str] = {}
    if manifest.runs.get("pre"):
        pre = _script(manifest, directory, "pre", call.uses)
        condition = str(manifest.runs.get("pre-if") or "always()")
        if Evaluator(call.contexts, session.job_status).condition(condition):
            session.runtime.write(f"Pre {call.display}")
            _phase(session, call, pre, env, state, timeout=call.timeout)
    if manifest.runs.get("post"):
        post = _script(manifest, directory, "post", call.uses)

        def run_post() -> None:
            _phase(session, call, post, env, state, timeout=None)

        condition = str(manifest.runs.get("post-if") or "always()")
        session.posts.append(PostStep(call.display, condition, call.contexts, run_post))
    return _phase(session, call, main, env, state, timeout=call.timeout)
