"""Runs a task's job in host mode: each ``run:`` step as a script, native actions in-process.

Semantics follow the runner: a failing step fails the job and the following steps are skipped unless
their ``if:`` asks for ``always()`` or ``failure()``; ``continue-on-error`` keeps the job going;
``GITHUB_OUTPUT``/``GITHUB_ENV``/``GITHUB_PATH`` carry outputs and environment to later steps.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from forge_proto import runner_pb2

from .actions_builtin import run_builtin
from .expressions import Evaluator, ExpressionError, to_text
from .hostexec import REFUSAL
from .jobenv import JobRuntime, StepError, job_environment, runner_arch, runner_os
from .workflow import Job, Step, Workflow, WorkflowError, parse_payload

__all__ = ["JobSink", "execute_job", "parse_command_file", "run_process", "shell_command", "stop_leftover_processes"]

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


def shell_command(shell: str | None, script: Path) -> list[str]:
    """The command for ``shell:``: bash and sh as the runner runs them, or a template with ``{0}``."""
    name = (shell or ("bash" if shutil.which("bash") else "sh")).strip()
    if name == "bash":
        return ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)]
    if name == "sh":
        return ["sh", "-e", str(script)]
    if name in ("python", "python3"):
        return [name, str(script)]
    if "{0}" in name:
        return [part.replace("{0}", str(script)) for part in shlex.split(name)]
    raise StepError(f"shell {name!r} is not supported by mock-runner (use bash, sh, python or a command with {{0}})")


def parse_command_file(path: Path) -> dict[str, str]:
    """Read a ``GITHUB_OUTPUT``/``GITHUB_ENV`` file: ``name=value`` lines and ``name<<DELIM`` blocks."""
    if not path.exists():
        return {}
    values: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    position = 0
    while position < len(lines):
        line = lines[position]
        position += 1
        if not line.strip():
            continue
        equals, heredoc = line.find("="), line.find("<<")
        if heredoc > 0 and (equals < 0 or heredoc < equals):
            name, delimiter = line[:heredoc], line[heredoc + 2 :]
            block: list[str] = []
            while position < len(lines) and lines[position] != delimiter:
                block.append(lines[position])
                position += 1
            if position >= len(lines):
                raise StepError(f"{path.name}: no closing {delimiter!r} for {name!r}")
            position += 1
            values[name] = "\n".join(block)
        elif equals > 0:
            values[line[:equals]] = line[equals + 1 :]
        else:
            raise StepError(f"{path.name}: cannot read line {line[:80]!r} (expected name=value or name<<DELIMITER)")
    return values


class _JobExecution:
    """State of one job while its steps run."""

    def __init__(self, workflow: Workflow, runtime: JobRuntime, sink: JobSink, runner_name: str) -> None:
        self.workflow = workflow
        self.job: Job = workflow.job
        self.runtime = runtime
        self.sink = sink
        self.status = "success"
        self.step_results: dict[str, dict[str, Any]] = {}
        self.added_env: dict[str, str] = {}
        self.added_path: list[str] = []
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

    def _interpolate_env(self, values: Mapping[str, str], env: Mapping[str, str]) -> dict[str, str]:
        self.contexts["env"] = dict(env)
        result = dict(env)
        for key, value in values.items():
            result[key] = self.evaluator.interpolate(value)
            self.contexts["env"] = dict(result)
        return result

    def _step_env(self, step: Step) -> dict[str, str]:
        env = self._interpolate_env(step.env, {**self.job_env, **self.added_env})
        self.contexts["env"] = env
        full = {**self.base_env, **env}
        if self.added_path:
            full["PATH"] = os.pathsep.join([*reversed(self.added_path), full.get("PATH", "")])
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
                outputs = run_builtin(step.uses, inputs, env, self.runtime)
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
        files = {
            name: self.runtime.temp / f"{name.lower()}_{step.index}"
            for name in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY")
        }
        for name, path in files.items():
            path.write_bytes(b"")
            env[name] = str(path)
        env["GITHUB_ACTION"] = step.id
        script_path = self.runtime.temp / f"step_{step.index}.sh"
        script_path.write_text(self.evaluator.interpolate(step.run or ""), encoding="utf-8")
        command = shell_command(step.shell or self.job.shell, script_path)
        directory = step.working_directory or self.job.working_directory
        cwd = self.runtime.workspace / self.evaluator.interpolate(directory) if directory else self.runtime.workspace
        if not cwd.is_dir():
            raise StepError(f"working-directory {cwd} does not exist")
        legacy_outputs: dict[str, str] = {}
        code = run_process(command, cwd, env, self.runtime, timeout=timeout, outputs=legacy_outputs)
        if code is None:
            return "cancelled", {}
        outputs = {**legacy_outputs, **parse_command_file(files["GITHUB_OUTPUT"])}
        self.added_env.update(parse_command_file(files["GITHUB_ENV"]))
        self.added_path.extend(
            line.strip() for line in files["GITHUB_PATH"].read_text(encoding="utf-8").splitlines() if line.strip()
        )
        if code != 0:
            self.sink.write(f"Error: Process completed with exit code {code}.")
            return "failure", outputs
        return "success", outputs


def _handle_command(line: str, runtime: JobRuntime, outputs: dict[str, str]) -> str | None:
    """Apply the workflow commands a script may print (``::add-mask::``, legacy ``::set-output``).

    ``::debug::`` lines are dropped unless the secret or variable ``ACTIONS_STEP_DEBUG`` is ``true``, as runners do;
    None means the line is not logged.
    """
    if line.startswith("::debug::") and not runtime.step_debug:
        return None
    if line.startswith("::add-mask::"):
        value = line[len("::add-mask::") :]
        if value:
            runtime.masker.add(value)
        return "::add-mask::***"
    if line.startswith("::set-output name="):
        name, _, value = line[len("::set-output name=") :].partition("::")
        outputs[name] = value
    return line


def _terminate(process: subprocess.Popen[bytes]) -> None:
    """Stop the step's whole process group: TERM, then KILL after a grace period."""
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


def run_process(
    command: list[str],
    cwd: Path,
    env: Mapping[str, str],
    runtime: JobRuntime,
    *,
    timeout: float | None,
    outputs: dict[str, str] | None = None,
) -> int | None:
    """Run ``command``, its output becoming log lines; None when cancelled, 124-like failure on timeout."""
    try:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        raise StepError(f"cannot start {command[0]}: {exc}") from exc
    runtime.process_groups.append(process.pid)
    collected = outputs if outputs is not None else {}

    def pump() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            line = _handle_command(raw.decode("utf-8", errors="replace").rstrip("\n").rstrip("\r"), runtime, collected)
            if line is not None:
                runtime.write(line)

    reader = threading.Thread(target=pump, name="step-output", daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout if timeout is not None else None
    outcome: int | None = None
    while True:
        try:
            outcome = process.wait(0.2)
            break
        except subprocess.TimeoutExpired:
            pass
        if runtime.cancelled.is_set():
            runtime.write("The job was cancelled: stopping the step.")
            _terminate(process)
            reader.join(5.0)
            return None
        if deadline is not None and time.monotonic() > deadline:
            runtime.write(f"Error: the step timed out after {timeout:.0f} seconds.")
            _terminate(process)
            reader.join(5.0)
            return 124
    reader.join(5.0)
    return outcome


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
