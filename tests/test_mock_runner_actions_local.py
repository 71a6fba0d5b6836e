"""JavaScript and composite actions run by the executor, from ``./path`` in the workspace (no forge needed).

Each test writes an action into the workspace and runs a job using it; values are checked in the log,
the step outputs and the job outputs the runner reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from node_clients import needs_node
from test_mock_runner_executor import FAILURE, SUCCESS, run

from mock_runner.hostexec import REFUSAL

pytestmark = needs_node()

JS_ACTION = """\
name: greeter
inputs:
  who:
    description: whom to greet
    required: true
  greeting:
    default: Hello
  Extra Option:
    default: ${{ github.repository }}
outputs:
  message:
    description: the greeting
runs:
  using: node20
  pre: pre.js
  pre-if: always()
  main: main.js
  post: post.js
"""
PRE = """\
const fs = require("fs");
fs.appendFileSync(process.env.GITHUB_STATE, "from_pre=pre-was-here\\n");
console.log("pre ran");
"""
MAIN = """\
const fs = require("fs");
const e = process.env;
const message = e.INPUT_GREETING + ", " + e.INPUT_WHO + "!";
fs.appendFileSync(e.GITHUB_OUTPUT, "message=" + message + "\\n");
fs.appendFileSync(e.GITHUB_OUTPUT, "multi<<EOF\\nline one\\nline two\\nEOF\\n");
fs.appendFileSync(e.GITHUB_ENV, "FROM_JS=env-from-js\\n");
fs.appendFileSync(e.GITHUB_STATE, "cleanup=main-state\\n");
console.log("main saw state " + e.STATE_from_pre + " and extra " + e["INPUT_EXTRA_OPTION"]);
const here = fs.existsSync(e.GITHUB_ACTION_PATH + "/main.js");
console.log("action path holds main.js " + here + ", repository " + e.GITHUB_ACTION_REPOSITORY);
console.log("::add-mask::generated-secret-42");
console.log("the secret is generated-secret-42");
console.log("::save-state name=legacy::from-command");
"""
POST = """\
const e = process.env;
console.log("post saw " + e.STATE_cleanup + " " + e.STATE_from_pre + " " + e.STATE_legacy);
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def greeter(tmp_path: Path) -> None:
    write(
        tmp_path / "workspace" / "greeter",
        {"action.yml": JS_ACTION, "pre.js": PRE, "main.js": MAIN, "post.js": POST},
    )


def test_a_javascript_action_runs_pre_main_and_post_with_inputs_state_outputs_and_env(tmp_path: Path) -> None:
    greeter(tmp_path)
    workflow = """
jobs:
  a:
    runs-on: x
    outputs:
      message: ${{ steps.greet.outputs.message }}
      multi: ${{ steps.greet.outputs.multi }}
    steps:
      - id: greet
        uses: ./greeter
        with:
          who: tester
      - run: echo "next step sees $FROM_JS"
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS, sink.lines
    assert sink.outputs == {"message": "Hello, tester!", "multi": "line one\nline two"}
    assert "pre ran" in sink.lines
    assert "main saw state pre-was-here and extra alice/demo" in sink.lines
    assert "action path holds main.js true, repository alice/demo" in sink.lines
    assert "the secret is ***" in sink.lines
    assert "next step sees env-from-js" in sink.lines
    post = sink.lines.index("post saw main-state pre-was-here from-command")
    assert post > sink.lines.index("next step sees env-from-js"), "post must run after the job's steps"


def test_post_if_and_pre_if_follow_the_job_status(tmp_path: Path) -> None:
    write(
        tmp_path / "workspace" / "act",
        {
            "action.yml": "runs:\n  using: node16\n  pre: p.js\n  pre-if: failure()\n  main: m.js\n"
            "  post: q.js\n  post-if: success()\n",
            "p.js": "console.log('pre should not run')",
            "m.js": "console.log('main ran')",
            "q.js": "console.log('post should not run')",
        },
    )
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - uses: ./act
      - run: exit 4
"""
    result, sink = run(workflow, tmp_path)
    assert result == FAILURE
    assert "main ran" in sink.lines
    assert "pre should not run" not in sink.lines
    assert "post should not run" not in sink.lines
    assert any(line.startswith("Post ./act skipped") for line in sink.lines)


def test_a_failing_javascript_action_fails_its_step_and_its_post_still_runs(tmp_path: Path) -> None:
    write(
        tmp_path / "workspace" / "bad",
        {
            "action.yml": "runs:\n  using: node20\n  main: m.js\n  post: q.js\n",
            "m.js": "console.log('::error::it broke'); process.exit(3)",
            "q.js": "console.log('cleaning up')",
        },
    )
    workflow = "jobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: ./bad\n      - run: echo skipped\n"
    result, sink = run(workflow, tmp_path)
    assert result == FAILURE
    assert "::error::it broke" in sink.lines
    assert "Error: Process completed with exit code 3." in sink.lines
    assert "skipped" not in sink.lines
    assert "cleaning up" in sink.lines


COMPOSITE = """\
name: outer
inputs:
  name:
    default: world
outputs:
  shout:
    value: ${{ steps.inner.outputs.upper }}
  said:
    value: ${{ steps.say.outputs.said }}
runs:
  using: composite
  steps:
    - id: say
      shell: bash
      run: |
        echo "said=hi ${{ inputs.name }}" >> "$GITHUB_OUTPUT"
        echo "COMPOSITE_ENV=from-composite" >> "$GITHUB_ENV"
        echo "action path $(basename ${{ github.action_path }})"
    - id: inner
      uses: ./inner
      with:
        word: ${{ steps.say.outputs.said }}
    - if: failure()
      shell: bash
      run: echo never
"""
INNER = """\
inputs:
  word:
    default: unused
  suffix:
    default: "!"
outputs:
  upper:
    value: ${{ steps.up.outputs.value }}
runs:
  using: composite
  steps:
    - id: up
      shell: sh
      env:
        WORD: ${{ inputs.word }}${{ inputs.suffix }}
      run: echo "value=$(echo "$WORD" | tr a-z A-Z) $COMPOSITE_ENV" >> "$GITHUB_OUTPUT"
"""


def test_a_nested_composite_action_passes_inputs_outputs_and_env(tmp_path: Path) -> None:
    write(tmp_path / "workspace", {"outer/action.yml": COMPOSITE, "inner/action.yml": INNER})
    workflow = """
jobs:
  a:
    runs-on: x
    outputs:
      shout: ${{ steps.c.outputs.shout }}
      said: ${{ steps.c.outputs.said }}
      defaulted: ${{ steps.d.outputs.said }}
    steps:
      - id: c
        uses: ./outer
        with:
          name: Ada
      - id: d
        uses: ./outer
      - run: echo "job sees $COMPOSITE_ENV"
"""
    result, sink = run(workflow, tmp_path)
    assert result == SUCCESS, sink.lines
    assert sink.outputs == {"shout": "HI ADA! from-composite", "said": "hi Ada", "defaulted": "hi world"}
    assert "action path outer" in sink.lines
    assert "job sees from-composite" in sink.lines
    assert "never" not in sink.lines


def test_a_composite_run_step_without_shell_fails_the_step(tmp_path: Path) -> None:
    write(tmp_path / "workspace", {"c/action.yml": "runs:\n  using: composite\n  steps:\n    - run: echo hi\n"})
    result, sink = run("jobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: ./c\n", tmp_path)
    assert result == FAILURE
    assert any("needs shell:" in line for line in sink.lines)
    assert "hi" not in sink.lines


def test_a_composite_action_using_itself_stops_at_the_nesting_limit(tmp_path: Path) -> None:
    write(tmp_path / "workspace", {"loop/action.yml": "runs:\n  using: composite\n  steps:\n    - uses: ./loop\n"})
    result, sink = run("jobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: ./loop\n", tmp_path)
    assert result == FAILURE
    assert any("nested more than 10 deep" in line for line in sink.lines)


@pytest.mark.parametrize(
    ("files", "uses", "message"),
    [
        ({}, "docker://alpine:3", "docker actions are not supported in host mode"),
        ({"d/action.yml": "runs:\n  using: docker\n  image: Dockerfile\n"}, "./d", "not supported in host mode"),
        ({"d/Dockerfile": "FROM alpine\n"}, "./d", "not supported in host mode"),
        ({"d/action.yml": "runs:\n  using: node20\n  main: gone.js\n"}, "./d", "does not contain"),
        ({"d/action.yml": "runs:\n  using: node20\n  main: ../../x.js\n"}, "./d", "is not a file of the action"),
        ({"d/action.yml": "runs:\n  using: python\n"}, "./d", "runs.using 'python' is not one of"),
        ({"d/action.yml": "runs: [\n"}, "./d", "not valid YAML"),
        ({}, "./missing", "no directory missing in the workspace"),
        ({}, "./../outside", "unsafe path"),
    ],
)
def test_actions_that_cannot_run_fail_the_step_saying_why(
    tmp_path: Path, files: dict[str, str], uses: str, message: str
) -> None:
    write(tmp_path / "workspace", files)
    result, sink = run(f"jobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: {uses}\n", tmp_path)
    assert result == FAILURE
    assert any(message in line for line in sink.lines), sink.lines


def test_actions_obey_the_host_execution_rule_like_run_steps(tmp_path: Path) -> None:
    """A runner refusing host execution runs neither a JavaScript action nor a composite action's scripts."""
    greeter(tmp_path)
    write(
        tmp_path / "workspace",
        {"c/action.yml": "runs:\n  using: composite\n  steps:\n    - run: echo hi\n      shell: sh\n"},
    )
    workflow = """
jobs:
  a:
    runs-on: x
    steps:
      - uses: ./greeter
        with:
          who: nobody
      - uses: ./c
        if: always()
"""
    result, sink = run(workflow, tmp_path, allow_host_execution=False)
    assert result == FAILURE
    assert sum(REFUSAL in line for line in sink.lines) == 2, sink.lines
    assert "pre ran" not in sink.lines and "hi" not in sink.lines


def test_a_failing_post_step_fails_the_job(tmp_path: Path) -> None:
    write(
        tmp_path / "workspace" / "p",
        {"action.yml": "runs:\n  using: node20\n  main: m.js\n  post: q.js\n", "m.js": "", "q.js": "process.exit(2)"},
    )
    result, sink = run("jobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: ./p\n", tmp_path)
    assert result == FAILURE
    assert sink.steps[0] == SUCCESS
    assert "::group::Post ./p" in sink.lines and "Error: Process completed with exit code 2." in sink.lines
