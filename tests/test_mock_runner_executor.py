"""Host-mode execution of a task's job: steps, environment, outputs, failure handling, conditions."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from forge_proto import runner_pb2
from google.protobuf import struct_pb2

from mock_runner.executor import execute_job
from mock_runner.jobenv import JobRuntime, StepError, masker_for, task_context
from mock_runner.steprun import shell_command
from mock_runner.workflow_commands import parse_command_file

SUCCESS, FAILURE, CANCELLED, SKIPPED = (
    runner_pb2.RESULT_SUCCESS,
    runner_pb2.RESULT_FAILURE,
    runner_pb2.RESULT_CANCELLED,
    runner_pb2.RESULT_SKIPPED,
)


class RecordingSink:
    """Records what the executor reports, as the server would see it."""

    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self.lines: list[str] = []
        self.steps: dict[int, int] = {}
        self.started: list[int] = []
        self.outputs: dict[str, str] = {}
        self.masker: Any = None

    def write(self, text: str) -> None:
        for line in text.split("\n"):
            self.lines.append(self.masker(line) if self.masker else line)

    def set_steps(self, count: int) -> None:
        self.steps = dict.fromkeys(range(count), 0)

    def step_started(self, index: int) -> None:
        self.started.append(index)

    def step_finished(self, index: int, result: int) -> None:
        self.steps[index] = result

    def set_outputs(self, outputs: Mapping[str, str]) -> None:
        self.outputs.update(outputs)


CONTEXT: dict[str, Any] = {
    "repository": "alice/demo",
    "repository_owner": "alice",
    "sha": "a" * 40,
    "ref": "refs/heads/main",
    "ref_name": "main",
    "event_name": "push",
    "run_id": "17",
    "run_number": "3",
    "job": "build",
    "token": "task-token-1234",
    "gitea_runtime_token": "runtime.jwt.token",
    "event": {"inputs": {"who": "you"}},
}


def make_task(workflow: str, **extra: Any) -> runner_pb2.Task:
    context = struct_pb2.Struct()
    context.update(CONTEXT)
    return runner_pb2.Task(id=1, workflow_payload=workflow.encode(), context=context, **extra)


def run(
    workflow: str, tmp_path: Path, sink: RecordingSink | None = None, *, allow_host_execution: bool = True, **extra: Any
) -> tuple[int, RecordingSink]:
    task = make_task(workflow, **extra)
    sink = sink or RecordingSink()
    workspace, temp = tmp_path / "workspace", tmp_path / "temp"
    workspace.mkdir(exist_ok=True)
    temp.mkdir(exist_ok=True)
    context = task_context(task)
    masker = masker_for(task, context)
    sink.masker = masker
    runtime = JobRuntime(
        task=task,
        context=context,
        instance_url="http://forge.test:3000",
        workspace=workspace,
        temp=temp,
        write=sink.write,
        masker=masker,
        cancelled=sink.cancelled,
        allow_host_execution=allow_host_execution,
    )
    return execute_job(task, runtime, sink), sink


def test_run_steps_see_the_job_environment_and_pass_outputs_and_env(tmp_path: Path) -> None:
    workflow = """
name: wf
env:
  LEVEL: workflow
  KEPT: from-workflow
jobs:
  build:
    runs-on: ubuntu-latest
    env:
      LEVEL: job
    outputs:
      answer: ${{ steps.first.outputs.answer }}
      missing: ${{ steps.first.outputs.nothing }}
    steps:
      - id: first
        env:
          LEVEL: step
        run: |
          echo "level=$LEVEL kept=$KEPT"
          echo "repo=$GITHUB_REPOSITORY run=$GITHUB_RUN_ID number=$GITHUB_RUN_NUMBER job=$GITHUB_JOB"
          echo "server=$GITHUB_SERVER_URL api=$GITHUB_API_URL results=$ACTIONS_RESULTS_URL"
          echo "runtime=$ACTIONS_RUNTIME_URL token=$ACTIONS_RUNTIME_TOKEN"
          echo "flags=$CI/$GITHUB_ACTIONS/$GITEA_ACTIONS sha=$GITHUB_SHA ref=$GITHUB_REF name=$GITHUB_REF_NAME"
          echo "event=$GITHUB_EVENT_NAME workspace-is-cwd=$([ "$GITHUB_WORKSPACE" = "$PWD" ] && echo yes)"
          echo "answer=42" >> "$GITHUB_OUTPUT"
          { echo "multi<<EOF"; echo "one"; echo "two"; echo "EOF"; } >> "$GITHUB_OUTPUT"
          echo "FROM_ENV_FILE=carried" >> "$GITHUB_ENV"
          mkdir -p "$RUNNER_TEMP/bin" && printf '#!/bin/sh\\necho tool ran\\n' > "$RUNNER_TEMP/bin/mytool"
          chmod +x "$RUNNER_TEMP/bin/mytool" && echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
      - run: |
          echo "second sees $FROM_ENV_FILE and level=$LEVEL"
          echo "multi=${{ steps.first.outputs.multi }}" | tr '\\n' ' '; echo
          mytool
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS, sink.lines
    assert "level=step kept=from-workflow" in sink.lines
    assert "repo=alice/demo run=17 number=3 job=build" in sink.lines
    assert (
        "server=http://forge.test:3000 api=http://forge.test:3000/api/v1 results=http://forge.test:3000" in sink.lines
    )
    assert "runtime=http://forge.test:3000/api/actions_pipeline/ token=***" in sink.lines
    assert f"flags=true/true/true sha={'a' * 40} ref=refs/heads/main name=main" in sink.lines
    assert "event=push workspace-is-cwd=yes" in sink.lines
    assert "second sees carried and level=job" in sink.lines
    assert "multi=one two " in sink.lines
    assert "tool ran" in sink.lines
    assert sink.outputs == {"answer": "42", "missing": ""}
    assert sink.steps == {0: SUCCESS, 1: SUCCESS}


def test_expressions_reach_secrets_vars_inputs_and_needs(tmp_path: Path) -> None:
    workflow = """
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: echo "${{ vars.TARGET }} ${{ inputs.who }} ${{ needs.build.outputs.version }} ${{ needs.build.result }}"
      - run: echo "key is ${{ secrets.API_KEY }}"
"""
    needs = {"build": runner_pb2.TaskNeed(outputs={"version": "1.2"}, result=SUCCESS)}
    result, sink = run(workflow, tmp_path, secrets={"API_KEY": "hunter2"}, vars={"TARGET": "prod"}, needs=needs)
    assert result == SUCCESS
    assert "prod you 1.2 success" in sink.lines
    assert "key is ***" in sink.lines
    assert not any("hunter2" in line for line in sink.lines)


def test_a_failing_step_fails_the_job_and_only_always_or_failure_steps_follow(tmp_path: Path) -> None:
    workflow = """
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: echo before
      - run: echo failing && exit 3
      - run: echo never
      - if: always()
        run: echo cleanup
      - if: failure()
        run: echo report
      - if: success()
        run: echo not-this
"""
    result, sink = run(workflow, tmp_path)
    assert result == FAILURE
    assert sink.steps == {0: SUCCESS, 1: FAILURE, 2: SKIPPED, 3: SUCCESS, 4: SUCCESS, 5: SKIPPED}
    assert "Error: Process completed with exit code 3." in sink.lines
    assert "cleanup" in sink.lines and "report" in sink.lines
    assert "never" not in sink.lines and "not-this" not in sink.lines


def test_bash_runs_with_errexit_and_pipefail(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: |
          false | cat
          echo unreachable
"""
    result, sink = run(workflow, tmp_path)
    assert result == FAILURE
    assert "unreachable" not in sink.lines


def test_continue_on_error_keeps_the_job_successful(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - id: flaky
        continue-on-error: true
        run: exit 1
      - run: echo "outcome=${{ steps.flaky.outcome }} conclusion=${{ steps.flaky.conclusion }}"
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS
    assert sink.steps == {0: SUCCESS, 1: SUCCESS}
    assert "outcome=failure conclusion=success" in sink.lines


def test_shell_sh_working_directory_and_step_if_expression(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    defaults:
      run:
        shell: sh
    steps:
      - run: mkdir -p sub/dir
      - working-directory: sub/dir
        run: echo "in $(basename "$PWD")"
      - if: github.ref == 'refs/heads/other'
        run: echo skipped
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS
    assert "in dir" in sink.lines
    assert sink.steps[2] == SKIPPED


def test_an_action_from_an_unreachable_instance_fails_the_step_with_a_clear_message(tmp_path: Path) -> None:
    """The actions instance (here the forge, unreachable) is asked first; only natives stand in for it."""
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - uses: actions/setup-node@v4
      - uses: actions/upload-artifact@v3
        if: always()
"""
    result, sink = run(workflow, tmp_path)
    assert result == FAILURE
    assert any("cannot reach http://forge.test:3000 to fetch 'actions/setup-node@v4'" in line for line in sink.lines)
    assert any("running mock-runner's native actions/upload-artifact" in line for line in sink.lines)
    assert "Error: input 'path' is required" in sink.lines, "the native upload-artifact@v3 did not check its inputs"


def test_add_mask_hides_values_printed_later(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: |
          echo "::add-mask::generated-password"
          echo "the password is generated-password"
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS
    assert "the password is ***" in sink.lines
    assert "::add-mask::***" in sink.lines
    # only the step's title (its script's first line, written before the script ran) shows the value
    assert [line for line in sink.lines if "generated-password" in line and not line.startswith("::group::")] == []


def test_step_timeout_fails_the_step(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - timeout-minutes: 0.01
        run: sleep 30
"""
    result, sink = run(workflow, tmp_path)
    assert result == FAILURE
    assert any("timed out" in line for line in sink.lines)


def test_cancellation_stops_the_running_step(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: echo started; sleep 30
      - if: always()
        run: echo after
"""
    sink = RecordingSink()
    timer = threading.Timer(0.5, sink.cancelled.set)
    timer.start()
    result, sink = run(workflow, tmp_path, sink)
    timer.join()
    assert result == CANCELLED
    assert sink.steps == {0: CANCELLED, 1: CANCELLED}
    assert "after" not in sink.lines


def test_job_if_false_skips_the_job(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    if: github.event_name == 'schedule'
    steps:
      - run: echo no
"""
    result, sink = run(workflow, tmp_path)
    assert result == SKIPPED
    assert sink.steps == {0: SKIPPED}


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("jobs: [", "not valid YAML"),
        ("jobs:\n  a: {runs-on: x, steps: [{run: a}]}\n  b: {runs-on: x, steps: [{run: b}]}\n", "exactly one job"),
        ("jobs:\n  a: {runs-on: x, steps: []}\n", "non-empty list"),
        ("jobs:\n  a: {runs-on: x, steps: [{name: nothing}]}\n", "exactly one of 'run' and 'uses'"),
        ("jobs:\n  a: {runs-on: x, steps: [{id: s, run: a}, {id: s, run: b}]}\n", "unique"),
    ],
)
def test_bad_payloads_fail_the_job_with_the_reason(tmp_path: Path, payload: str, message: str) -> None:
    result, sink = run(payload, tmp_path)
    assert result == FAILURE
    assert any(message in line for line in sink.lines), sink.lines


def test_command_files(tmp_path: Path) -> None:
    path = tmp_path / "out"
    path.write_text("a=1\nb=x=y\n\nc<<END\nline 1\nline 2\nEND\n")
    assert parse_command_file(path) == {"a": "1", "b": "x=y", "c": "line 1\nline 2"}
    path.write_text("c<<END\nnever closed\n")
    with pytest.raises(StepError, match="no closing"):
        parse_command_file(path)
    path.write_text("garbage\n")
    with pytest.raises(StepError, match="cannot read line"):
        parse_command_file(path)


def test_shell_commands(tmp_path: Path) -> None:
    script = tmp_path / "s"
    assert shell_command("bash", script)[:5] == ["bash", "--noprofile", "--norc", "-eo", "pipefail"]
    assert shell_command("sh", script) == ["sh", "-e", str(script)]
    assert shell_command("perl {0}", script) == ["perl", str(script)]
    with pytest.raises(StepError, match="not supported"):
        shell_command("pwsh", script)


@pytest.mark.parametrize(
    ("condition", "need_result", "expected"),
    [
        ("", SUCCESS, SUCCESS),
        ("", FAILURE, SKIPPED),
        ("if: failure()", FAILURE, SUCCESS),
        ("if: always()", FAILURE, SUCCESS),
        ("if: failure()", SUCCESS, SKIPPED),
    ],
)
def test_job_conditions_look_at_the_needed_jobs(
    tmp_path: Path, condition: str, need_result: int, expected: int
) -> None:
    workflow = f"""
jobs:
  report:
    runs-on: x
    {condition}
    steps:
      - run: echo ran
"""
    needs = {"build": runner_pb2.TaskNeed(result=need_result)}  # type: ignore[arg-type]
    result, sink = run(workflow, tmp_path, needs=needs)
    assert result == expected, sink.lines
    assert ("ran" in sink.lines) == (expected == SUCCESS)


def test_background_processes_are_stopped_when_the_job_ends(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: |
          sleep 300 > /dev/null 2>&1 &
          echo $! > "$RUNNER_TEMP/../bg.pid"
      - run: echo next
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS, sink.lines
    pid = int((tmp_path / "bg.pid").read_text())
    status = Path(f"/proc/{pid}/status")
    state = "?"
    for _ in range(100):  # SIGKILL is delivered asynchronously: give the process a moment to die
        state = status.read_text().split("State:", 1)[1].split("\n", 1)[0] if status.exists() else ""
        if state == "" or "zombie" in state:
            break
        time.sleep(0.05)
    assert state == "" or "zombie" in state, state


def test_containers_are_ignored_with_a_warning(tmp_path: Path) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    container: node:20
    services:
      db: {image: postgres}
    steps:
      - run: echo on the host
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS
    assert "Warning: the job's container: is ignored; mock-runner runs every step on the host" in sink.lines
    assert "Warning: the job's services: is ignored; mock-runner runs every step on the host" in sink.lines


@pytest.mark.parametrize("debug", [False, True])
def test_debug_lines_show_only_with_actions_step_debug(tmp_path: Path, debug: bool) -> None:
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - run: echo "::debug::details" && echo visible
"""
    variables = {"ACTIONS_STEP_DEBUG": "true"} if debug else {}
    result, sink = run(workflow, tmp_path, vars=variables)
    assert result == SUCCESS
    assert "visible" in sink.lines
    assert ("::debug::details" in sink.lines) is debug
