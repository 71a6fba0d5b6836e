"""Runs a task's job in host mode: each ``run:`` step as a script, each ``uses:`` through :mod:`.actions_run`.

Semantics follow the runner: a failing step fails the job and the following steps are skipped unless
their ``if:`` asks for ``always()`` or ``failure()``; ``continue-on-error`` keeps the job going;
``GITHUB_OUTPUT``/``GITHUB_ENV``/``GITHUB_PATH`` carry outputs and environment to later steps.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Mapping
from typing import Any, Protocol

from forge_proto import runner_pb2

from .actions_context import ActionCall, ActionSession
from .actions_resolve import ActionCache, actions_base_url
from .actions_run import run_action, start_session
from .expressions import Evaluator, ExpressionError, to_text
from .hostexec import REFUSAL
from .jobenv import JobRuntime, StepError, job_environment, runner_arch, runner_os
from .steprun import run_process, shell_command
from .workflow import Job, Step, Workflow, WorkflowError, parse_payload
from .workflow_commands import CommandFiles, LineCommands, StepEffects

__all__ = ["JobSink", "execute_job", "stop_leftover_processes"]

log = logging.getLogger("mock_runner.executor")

RESULT_BY_STATUS: dict[str, int] = {
    "success": runner_pb2.RESULT_SUCCESS,
    "failure": runner_pb2.RESULT_FAILURE,
    "cancelled": runner_pb2.RESULT_CANCELLED,
    "skipped": runner_pb2.RESULT_SKIPPED,
}
NEED_RESULTS: dict[int, str] = {
    runner_pb2.RESULT_SUCCESS: "success",
    runner_pb2.RESULT_FAILURE: "failure",
    runner_pb2.RESULT_CANCELLED: "cancelled",
    runner_pb2.RESULT_SKIPPED: "skipped",
}


class JobSink(Protocol):
    """Where the executor reports to (the ``TaskReporter`` in production, a recorder in tests)."""

    cancelled: threading.Event

    def write(self, text: str) -> None: ...
    def set_steps(self, count: int) -> None: ...
    def step_started(self, index: int) -> None: ...
    def step_finished(self, index: int, result: int) -> None: ...
    def set_outputs(self, outputs: Mapping[str, str]) -> None: ...


class _JobExecution:
    """State of one job while its steps run."""

    def __init__(self, workflow: Workflow, runtime: JobRuntime, sink: JobSink, runner_name: str) -> None:
        self.workflow = workflow
        self.job: Job = workflow.job
        self.runtime = runtime
        self.sink = sink
        self.status = "success"
        self.step_results: dict[str, dict[str, Any]] = {}
        self.effects = StepEffects()
        context = dict(runtime.context)
        context.update(
            {"workspace": str(runtime.workspace), "job": self.job.id, "event_path": str(runtime.temp / "event.json")}
        )
        event = context.get("event") if isinstance(context.get("event"), dict) else {}
        self.contexts: dict[str, Any] = {
            "github": context,
            "secrets": dict(runtime.task.secrets),
            "vars": dict(runtime.task.vars),
            "inputs": dict(event.get("inputs") or {}) if isinstance(event, dict) else {},
            "needs": {
                name: {"outputs": dict(need.outputs), "result": NEED_RESULTS.get(need.result, "")}
                for name, need in runtime.task.needs.items()
            },
            "matrix": dict(self.job.matrix),
            "strategy": {},
            "steps": self.step_results,
            "job": {"status": "success"},
            "runner": {
                "name": runner_name,
                "os": runner_os(),
                "arch": runner_arch(),
                "temp": str(runtime.temp),
                "tool_cache": str(runtime.temp / "toolcache"),
            },
            "env": {},
        }
        self.evaluator = Evaluator(self.contexts, lambda: self.status)
        self.base_env = job_environment(
            runtime.task,
            runtime.context,
            instance_url=runtime.instance_url,
            workspace=runtime.workspace,
            temp=runtime.temp,
            job_id=self.job.id,
            runner_name=runner_name,
            cache_url=runtime.cache_url,
        )
        self.job_env = self._interpolate_env({**workflow.env, **self.job.env}, {})
        cache = runtime.action_cache or runtime.temp / "actions"
        self.actions = start_session(
            ActionSession(
                runtime,
                actions_base_url(runtime.actions_url, runtime.context, runtime.instance_url),
                ActionCache(cache),
                self.effects,
                lambda: self.status,
            )
        )

    def _interpolate_env(self, values: Mapping[str, str], env: Mapping[str, str]) -> dict[str, str]:
        self.contexts["env"] = dict(env)
        result = dict(env)
        for key, value in values.items():
            result[key] = self.evaluator.interpolate(value)
            self.contexts["env"] = dict(result)
        return result

    def _step_env(self, step: Step) -> dict[str, str]:
        env = self._interpolate_env(step.env, {**self.job_env, **self.effects.env})
        self.contexts["env"] = env
        full = {**self.base_env, **env}
        self.effects.apply_path(full)
        return full

    def _timeout(self, value: Any) -> float | None:
        if value in (None, ""):
            return None
        text = self.evaluator.interpolate(str(value)) if isinstance(value, str) else value
        try:
            minutes = float(text)
        except (TypeError, ValueError) as exc:
            raise StepError(f"timeout-minutes {value!r} is not a number") from exc
        return minutes * 60 if minutes > 0 else None

    def run(self) -> int:
        steps = self.job.steps
        self.sink.set_steps(len(steps))
        results = {need["result"] for need in self.contexts["needs"].values()}
        # a job's success()/failure() look at the jobs it needs; its steps then start from success
        self.status = "cancelled" if "cancelled" in results else ("failure" if "failure" in results else "success")
        try:
            wanted = self.evaluator.condition(self.job.if_)
            self.status = "success"
            if not wanted:
                self.sink.write(f"Job {self.job.id} skipped: its if: is false")
                for step in steps:
                    self.sink.step_finished(step.index, runner_pb2.RESULT_SKIPPED)
                return runner_pb2.RESULT_SKIPPED
        except ExpressionError as exc:
            self.sink.write(f"Error: job if: {exc}")
            return runner_pb2.RESULT_FAILURE
        deadline_seconds = self._job_timeout()
        deadline = time.monotonic() + deadline_seconds if deadline_seconds else None
        for step in steps:
            self._run_step(step, deadline)
        if not self.actions.run_posts() and self.status == "success":
            self.status = "failure"
        self._report_outputs()
        self.contexts["job"]["status"] = self.status
        return RESULT_BY_STATUS[self.status]

    def _job_timeout(self) -> float | None:
        try:
            return self._timeout(self.job.timeout_minutes)
        except StepError as exc:
            self.sink.write(f"Warning: job {exc}; running without a time limit")
            return None

    def _report_outputs(self) -> None:
        outputs: dict[str, str] = {}
        for key, expression in self.job.outputs.items():
            try:
                outputs[key] = self.evaluator.interpolate(expression)
            except ExpressionError as exc:
                self.sink.write(f"Warning: job output {key!r}: {exc}")
        if outputs:
            self.sink.set_outputs(outputs)

    def _run_step(self, step: Step, deadline: float | None) -> None:
        index = step.index
        if self.sink.cancelled.is_set():
            self.status = "cancelled"
        try:
            wanted = self.evaluator.condition(step.if_)
        except ExpressionError as exc:
            self.sink.step_started(index)
            self.sink.write(f"Error: step if: {exc}")
            self._conclude(step, "failure", continue_on_error=False)
            return
        if self.status == "cancelled":
            self.step_results[step.id] = {"outputs": {}, "outcome": "cancelled", "conclusion": "cancelled"}
            self.sink.step_finished(index, runner_pb2.RESULT_CANCELLED)
            return
        if not wanted:
            self.step_results[step.id] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
            self.sink.step_finished(index, runner_pb2.RESULT_SKIPPED)
            return
        self.sink.step_started(index)
        self.sink.write(f"::group::{step.display_name}")
        outcome = "failure"
        outputs: dict[str, str] = {}
        try:
            env = self._step_env(step)
            timeout = self._timeout(step.timeout_minutes)
            if deadline is not None:
                remaining = max(0.0, deadline - time.monotonic())
                timeout = remaining if timeout is None else min(timeout, remaining)
            if step.uses is not None:
                inputs = {key: self.evaluator.interpolate(value) for key, value in step.with_.items()}
                contexts = {**self.contexts, "steps": self.step_results}
                call = ActionCall(step.id, step.display_name, step.uses, inputs, env, contexts, timeout)
                outputs = run_action(self.actions, call)
                outcome = "success"
            else:
                outcome, outputs = self._run_script(step, env, timeout)
        except (StepError, ExpressionError) as exc:
            self.sink.write(f"Error: {exc}")
        except Exception as exc:  # a native action's unexpected failure must not lose the task
            log.exception("step %d failed unexpectedly", index)
            self.sink.write(f"Error: {type(exc).__name__}: {exc}")
        self.sink.write("::endgroup::")
        self.step_results[step.id] = {"outputs": outputs, "outcome": outcome, "conclusion": outcome}
        continue_on_error = False
        if outcome == "failure":
            value = step.continue_on_error
            try:
                text = self.evaluator.interpolate(value) if isinstance(value, str) else to_text(value)
                continue_on_error = text.strip().lower() == "true"
            except ExpressionError as exc:
                self.sink.write(f"Error: continue-on-error: {exc}")
        self._conclude(step, outcome, continue_on_error=continue_on_error)

    def _conclude(self, step: Step, outcome: str, *, continue_on_error: bool) -> None:
        conclusion = "success" if outcome == "failure" and continue_on_error else outcome
        record = self.step_results.setdefault(step.id, {"outputs": {}})
        record.update({"outcome": outcome, "conclusion": conclusion})
        if conclusion == "failure" and self.status == "success":
            self.status = "failure"
        if outcome == "cancelled":
            self.status = "cancelled"
        self.contexts["job"]["status"] = self.status
        self.sink.step_finished(step.index, RESULT_BY_STATUS[conclusion])

    def _run_script(self, step: Step, env: dict[str, str], timeout: float | None) -> tuple[str, dict[str, str]]:
        if not self.runtime.allow_host_execution:
            raise StepError(REFUSAL)
        files = CommandFiles.create(self.runtime.temp, str(step.index))
        files.export(env)
        env["GITHUB_ACTION"] = step.id
        script_path = self.runtime.temp / f"step_{step.index}.sh"
        script_path.write_text(self.evaluator.interpolate(step.run or ""), encoding="utf-8")
        command = shell_command(step.shell or self.job.shell, script_path)
        directory = step.working_directory or self.job.working_directory
        cwd = self.runtime.workspace / self.evaluator.interpolate(directory) if directory else self.runtime.workspace
        if not cwd.is_dir():
            raise StepError(f"working-directory {cwd} does not exist")
        commands = LineCommands(self.runtime)
        code = run_process(command, cwd, env, self.runtime, timeout=timeout, commands=commands)
        if code is None:
            return "cancelled", {}
        outputs = {**commands.outputs, **files.outputs()}
        self.effects.absorb(files)
        if code != 0:
            self.sink.write(f"Error: Process completed with exit code {code}.")
            return "failure", outputs
        return "success", outputs


def execute_job(
    task: runner_pb2.Task,
    runtime: JobRuntime,
    sink: JobSink,
    *,
    runner_name: str = "mock-runner",
) -> int:
    """Run the task's job to its end and return its ``runner.v1.Result``; every outcome is in the log."""
    try:
        workflow = parse_payload(task.workflow_payload)
    except WorkflowError as exc:
        sink.write(f"Error: {exc}")
        return runner_pb2.RESULT_FAILURE
    sink.write(f"mock-runner runs job {workflow.job.id!r} of workflow {workflow.name!r} in host mode")
    for key in workflow.job.ignored:
        sink.write(f"Warning: the job's {key}: is ignored; mock-runner runs every step on the host")
    try:
        execution = _JobExecution(workflow, runtime, sink, runner_name)
    except (ExpressionError, OSError) as exc:
        sink.write(f"Error: cannot prepare the job: {exc}")
        return runner_pb2.RESULT_FAILURE
    try:
        result = execution.run()
    finally:
        stop_leftover_processes(runtime)
    sink.write(f"Job {RESULT_BY_NAME.get(result, str(result))}")
    return result


def stop_leftover_processes(runtime: JobRuntime) -> None:
    """Kill what the job's steps left running in the background (the runner's orphan clean-up)."""
    for group in runtime.process_groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)
    runtime.process_groups.clear()


RESULT_BY_NAME: dict[int, str] = {value: name for name, value in RESULT_BY_STATUS.items()}
