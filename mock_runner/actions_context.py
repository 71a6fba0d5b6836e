"""What the action kinds share while a job runs: the call being made and the job's action session.

A call carries the step's ``uses``, its evaluated ``with:`` inputs, its environment and the expression
contexts of the caller (the job, or the composite action around it); the session carries what outlives
one step: the environment and PATH steps add, the post steps waiting for the end of the job, the job's
status and the cache of fetched actions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions_resolve import ActionCache, ActionManifest, input_variable
from .expressions import Evaluator
from .hostexec import REFUSAL
from .jobenv import JobRuntime, StepError
from .workflow_commands import StepEffects

__all__ = ["MAX_DEPTH", "ActionCall", "ActionSession", "LocatedAction", "PostStep", "action_environment"]

MAX_DEPTH = 10
"""Composite actions nested deeper than this fail, as GitHub's runner refuses deeper nesting."""


@dataclass(frozen=True)
class ActionCall:
    """One ``uses:`` to run, with the caller's evaluated inputs, environment and contexts."""

    step_id: str
    display: str
    uses: str
    inputs: dict[str, str]
    env: dict[str, str]
    contexts: dict[str, Any]
    timeout: float | None = None
    depth: int = 0


@dataclass(frozen=True)
class LocatedAction:
    """An action found: its directory, the repository and ref it came from, and its ``action.yml``."""

    directory: Path
    repository: str
    ref: str
    manifest: ActionManifest


@dataclass(frozen=True)
class PostStep:
    """An action's ``post`` waiting for the end of the job; ``condition`` is its ``post-if``."""

    display: str
    condition: str
    contexts: dict[str, Any]
    run: Callable[[], None]


@dataclass
class ActionSession:
    """The job-wide state of actions (one per job)."""

    runtime: JobRuntime
    base_url: str
    cache: ActionCache
    effects: StepEffects
    job_status: Callable[[], str]
    dispatch: Callable[[ActionCall], dict[str, str]] | None = None
    posts: list[PostStep] = field(default_factory=list)
    counter: int = 0

    def next_tag(self) -> str:
        """A unique suffix for the command files and scripts of one phase."""
        self.counter += 1
        return f"action_{self.counter}"

    def require_host(self) -> None:
        """Actions run processes on this host: the same rule as ``run:`` steps."""
        if not self.runtime.allow_host_execution:
            raise StepError(REFUSAL)

    def nested(self, call: ActionCall) -> dict[str, str]:
        """Run an action a composite action uses."""
        assert self.dispatch is not None, "the session has no dispatcher"
        return self.dispatch(call)

    def run_posts(self) -> bool:
        """Run the waiting post steps, the last registered first; each ``post-if`` sees the job's status now.

        False when one failed: a failing post step fails the job, as on GitHub.
        """
        succeeded = True
        while self.posts:
            post = self.posts.pop()
            evaluator = Evaluator(post.contexts, self.job_status)
            try:
                wanted = evaluator.condition(post.condition)
            except ValueError as exc:
                self.runtime.write(f"Error: post-if of {post.display}: {exc}")
                succeeded = False
                continue
            if not wanted:
                self.runtime.write(f"Post {post.display} skipped: its post-if is false")
                continue
            self.runtime.write(f"::group::Post {post.display}")
            try:
                post.run()
            except StepError as exc:
                self.runtime.write(f"Error: {exc}")
                succeeded = False
            self.runtime.write("::endgroup::")
        return succeeded


def action_environment(
    call: ActionCall, action: LocatedAction, evaluator: Evaluator
) -> tuple[dict[str, str], dict[str, str]]:
    """The action's process environment and its resolved inputs (``with:`` values, else the defaults)."""
    inputs: dict[str, str] = {}
    for name, spec in action.manifest.inputs.items():
        given = next((value for key, value in call.inputs.items() if key.lower() == name.lower()), None)
        default = spec.get("default")
        if given is not None:
            inputs[name] = given
        elif default is not None:
            inputs[name] = evaluator.interpolate(str(default)) if isinstance(default, str) else _scalar(default)
        else:
            inputs[name] = ""
    for key, value in call.inputs.items():
        if not any(key.lower() == name.lower() for name in inputs):
            inputs[key] = value
    env = {key: value for key, value in call.env.items() if not key.startswith("INPUT_")}
    env.update({input_variable(name): value for name, value in inputs.items()})
    env.update(
        {
            "GITHUB_ACTION": call.step_id,
            "GITHUB_ACTION_PATH": str(action.directory),
            "GITHUB_ACTION_REPOSITORY": action.repository,
            "GITHUB_ACTION_REF": action.ref,
        }
    )
    return env, inputs


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
