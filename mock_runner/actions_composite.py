"""Composite actions (``runs.using: composite``): their steps in order, nested actions, inputs and outputs.

Inside, ``inputs`` holds the resolved inputs, ``steps`` the composite's own steps, ``github.action_path``
the action's directory. A ``run`` step must name its ``shell`` (GitHub refuses one without). A failing step
skips the following ones unless their ``if:`` asks for ``always()``/``failure()``, and fails the action;
the action's ``outputs.<name>.value`` are evaluated once its steps are done. Environment and PATH
written by the steps reach the later steps and the rest of the job.
"""

from __future__ import annotations

from typing import Any

from .actions_context import MAX_DEPTH, ActionCall, ActionSession, LocatedAction
from .expressions import Evaluator, ExpressionError, to_text
from .jobenv import StepError
from .steprun import run_process, shell_command
from .workflow import Step, WorkflowError, parse_step
from .workflow_commands import CommandFiles, LineCommands

__all__ = ["run_composite"]


class _Composite:
    """One run of a composite action."""

    def __init__(
        self,
        session: ActionSession,
        call: ActionCall,
        action: LocatedAction,
        env: dict[str, str],
        inputs: dict[str, str],
    ) -> None:
        self.session = session
        self.call = call
        self.manifest = action.manifest
        self.env = env
        self.status = "success"
        self.steps: dict[str, dict[str, Any]] = {}
        github = dict(call.contexts.get("github") or {})
        github.update(
            {
                "action_path": str(action.directory),
                "action_repository": env.get("GITHUB_ACTION_REPOSITORY", ""),
                "action_ref": env.get("GITHUB_ACTION_REF", ""),
            }
        )
        self.contexts: dict[str, Any] = {**call.contexts, "github": github, "inputs": inputs, "steps": self.steps}
        self.evaluator = Evaluator(self.contexts, lambda: self.status)

    def parse(self) -> list[Step]:
        nodes = self.manifest.runs.get("steps")
        if not isinstance(nodes, list) or not nodes:
            raise StepError(f"{self.call.uses}: a composite action needs runs.steps")
        try:
            return [parse_step(index, node, f"runs.steps[{index}]") for index, node in enumerate(nodes)]
        except WorkflowError as exc:
            raise StepError(f"{self.call.uses}: {exc}") from exc

    def run(self) -> dict[str, str]:
        for step in self.parse():
            self.run_step(step)
        outputs: dict[str, str] = {}
        for name, spec in self.manifest.outputs.items():
            outputs[name] = self.evaluator.interpolate(to_text(spec.get("value")))
        if self.status != "success":
            failed = [key for key, value in self.steps.items() if value["conclusion"] == "failure"]
            raise StepError(f"{self.call.uses}: the composite action's step {', '.join(failed) or '?'} failed")
        return outputs

    def step_env(self, step: Step) -> dict[str, str]:
        """The step's process environment: the action's, what earlier steps added, the step's ``env``."""
        own = {key: self.evaluator.interpolate(value) for key, value in step.env.items()}
        self.contexts["env"] = {**dict(self.call.contexts.get("env") or {}), **own}
        env = {**self.env, **self.session.effects.env, **own}
        self.session.effects.apply_path(env)
        return env

    def run_step(self, step: Step) -> None:
        runtime = self.session.runtime
        if runtime.cancelled.is_set():
            self.status = "cancelled"
        try:
            wanted = self.status != "cancelled" and self.evaluator.condition(step.if_)
        except ExpressionError as exc:
            raise StepError(f"{self.call.uses}: step {step.id} if: {exc}") from exc
        if not wanted:
            self.steps[step.id] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
            return
        outcome, outputs = "failure", {}
        try:
            env = self.step_env(step)
            if step.uses is not None:
                inputs = {key: self.evaluator.interpolate(value) for key, value in step.with_.items()}
                nested = ActionCall(
                    step.id, step.display_name, step.uses, inputs, env, self.contexts, self.call.timeout,
                    self.call.depth + 1,
                )  # fmt: skip
                outputs = self.session.nested(nested)
                outcome = "success"
            else:
                outcome, outputs = self.run_script(step, env)
        except (StepError, ExpressionError) as exc:
            runtime.write(f"Error: {exc}")
        conclusion = outcome
        if outcome == "failure" and to_text(self.evaluator.interpolate(to_text(step.continue_on_error))) == "true":
            conclusion = "success"
        self.steps[step.id] = {"outputs": outputs, "outcome": outcome, "conclusion": conclusion}
        if conclusion == "failure" and self.status == "success":
            self.status = "failure"

    def run_script(self, step: Step, env: dict[str, str]) -> tuple[str, dict[str, str]]:
        if not step.shell:
            raise StepError(f"{self.call.uses}: step {step.id} of a composite action needs shell:")
        self.session.require_host()
        runtime = self.session.runtime
        tag = self.session.next_tag()
        files = CommandFiles.create(runtime.temp, tag)
        files.export(env)
        script = runtime.temp / f"{tag}.sh"
        script.write_text(self.evaluator.interpolate(step.run or ""), encoding="utf-8")
        directory = step.working_directory
        cwd = runtime.workspace / self.evaluator.interpolate(directory) if directory else runtime.workspace
        if not cwd.is_dir():
            raise StepError(f"working-directory {cwd} does not exist")
        commands = LineCommands(runtime)
        code = run_process(
            shell_command(self.evaluator.interpolate(step.shell), script), cwd, env, runtime,
            timeout=self.call.timeout, commands=commands,
        )  # fmt: skip
        self.session.effects.absorb(files)
        outputs = {**commands.outputs, **files.outputs()}
        if code is None:
            return "cancelled", outputs
        if code != 0:
            runtime.write(f"Error: Process completed with exit code {code}.")
            return "failure", outputs
        return "success", outputs


def run_composite(
    session: ActionSession,
    call: ActionCall,
    action: LocatedAction,
    env: dict[str, str],
    inputs: dict[str, str],
) -> dict[str, str]:
    """Run a composite action's steps; its outputs, or StepError when a step failed."""
    if call.depth >= MAX_DEPTH:
        raise StepError(f"{call.uses}: composite actions are nested more than {MAX_DEPTH} deep")
    return _Composite(session, call, action, env, inputs).run()
