"""Actions kept on the forge, run by ``mock-runner daemon`` as act_runner runs them against Gitea.

The actions are pushed over Git to repositories of a live reference server; the workflow names them as
``owner/repo@ref`` and ``owner/repo/path@ref``, so the runner resolves them against the forge it is
registered with and fetches them over Git smart HTTP with the job's token. One test runs an action built
on the real ``@actions/core`` from npm (tests/node), its ``node_modules`` next to it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from node_clients import NODE_DIR, missing_node_client, needs_node
from test_mock_runner_actions_local import COMPOSITE, INNER, JS_ACTION, MAIN, POST, PRE
from test_mock_runner_support import ADMIN, ADMIN_TOKEN, LiveForge, live_forge

__all__ = ["live_forge"]

NODE_MODULES = NODE_DIR / "node_modules"
pytestmark = [pytest.mark.slow, needs_node()]


def push_tree(forge: LiveForge, name: str, files: dict[str, str], work: Path, *, tag: str = "") -> str:
    """Create ``name`` empty and push ``files`` (plus ``tag`` when given) over Git smart HTTP."""
    response = forge.api("POST", "/user/repos", json={"name": name, "auto_init": False, "default_branch": "main"})
    assert response.status_code == 201, response.text
    tree = work / name
    for relative, text in files.items():
        path = tree / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return push_directory(forge, name, tree, tag=tag)


def push_directory(forge: LiveForge, name: str, tree: Path, *, tag: str = "") -> str:
    remote = forge.url.replace("://", f"://{ADMIN}:{ADMIN_TOKEN}@") + f"/{ADMIN}/{name}.git"
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com"}
    env.update({"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})
    commands = [["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "action"]]
    commands += [["tag", tag]] if tag else []
    commands += [["push", "-q", remote, "main", *([tag] if tag else [])]]
    for args in commands:
        done = subprocess.run(["git", *args], cwd=tree, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, f"git {args[0]}: {done.stderr}"
    return f"{ADMIN}/{name}"


def run_daemon(
    forge: LiveForge, repo: str, workflow: str, tmp_path: Path, name: str = "ci"
) -> subprocess.CompletedProcess[str]:
    """Register a runner, push the workflow and let ``mock-runner daemon --once`` run its job."""
    runner_file = forge.register_runner(repo, tmp_path / f"{name}.runner", name=name)
    forge.push_file(repo, f".gitea/workflows/{name}.yml", workflow)
    return subprocess.run(
        [sys.executable, "-m", "mock_runner.cli", "daemon", "--once", "--runner-file", str(runner_file),
         "--workdir", str(tmp_path / "work"), "--fetch-interval", "0.5"],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip


WORKFLOW = """\
name: actions-from-the-forge
on: [push]
jobs:
  use:
    runs-on: ubuntu-latest
    steps:
      - id: greet
        uses: {owner}/greeter@v1
        with:
          who: forge
      - run: echo "greeting=${{{{ steps.greet.outputs.message }}}} env=$FROM_JS"
      - id: shout
        uses: {owner}/composite@main
        with:
          name: Ada
      - run: echo "shout=${{{{ steps.shout.outputs.shout }}}} said=${{{{ steps.shout.outputs.said }}}}"
      - id: inner
        uses: {owner}/composite/inner@main
        with:
          word: direct
      - run: echo "inner=${{{{ steps.inner.outputs.upper }}}}"
      - uses: actions/checkout@v4
      - id: local
        uses: ./local-action
      - run: echo "local=${{{{ steps.local.outputs.said }}}}"
      - uses: docker://alpine:3
        continue-on-error: true
"""


def test_javascript_and_composite_actions_kept_on_the_forge_run_green_under_the_daemon(
    live_forge: LiveForge, tmp_path: Path
) -> None:
    actions = tmp_path / "actions"
    push_tree(
        live_forge, "greeter", {"action.yml": JS_ACTION, "pre.js": PRE, "main.js": MAIN, "post.js": POST}, actions,
        tag="v1",
    )  # fmt: skip
    # the nested composite names its inner action by the path inside the same repository on the forge
    outer = COMPOSITE.replace("uses: ./inner", f"uses: {ADMIN}/composite/inner@main")
    push_tree(live_forge, "composite", {"action.yml": outer, "inner/action.yml": INNER}, actions)
    repo = live_forge.create_repo("app")
    live_forge.push_file(repo, "local-action/action.yml", COMPOSITE.replace("uses: ./inner", "uses: ./local-inner"))
    live_forge.push_file(repo, "local-inner/action.yml", INNER)
    completed = run_daemon(live_forge, repo, WORKFLOW.format(owner=ADMIN), tmp_path)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    lines = completed.stdout.splitlines()
    assert "greeting=Hello, forge! env=env-from-js" in lines, output
    assert "shout=HI ADA! from-composite said=hi Ada" in lines, output
    assert "inner=DIRECT! from-composite" in lines, output
    assert "local=hi world" in lines, output
    assert f"main saw state pre-was-here and extra {repo}" in lines
    assert f"action path holds main.js true, repository {ADMIN}/greeter" in lines
    assert "the secret is ***" in lines and "generated-secret-42" not in output
    assert "post saw main-state pre-was-here from-command" in lines
    assert any("docker actions are not supported in host mode" in line for line in lines), output
    assert any("actions/checkout is not on" in line for line in lines), "checkout falls back to the native one"
    assert sum(line.startswith(f"Fetched {ADMIN}/composite@main") for line in lines) == 1, (
        "composite@main is fetched once and then taken from the cache"
    )
    (run,) = live_forge.runs(repo)
    assert run["conclusion"] == "success"


def test_a_missing_action_fails_the_job_saying_where_it_was_looked_for(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("app")
    workflow = "on: [push]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: nobody/nothing@v1\n"
    completed = run_daemon(live_forge, repo, workflow, tmp_path)
    assert completed.returncode == 1
    assert f"no repository nobody/nothing on {live_forge.url}" in completed.stdout, completed.stdout


READER = """\
runs:
  using: composite
  steps:
    - shell: bash
      run: echo "texts:" $(cat "${{ github.action_path }}"/*.txt)
"""


def test_a_moved_branch_is_fetched_again_and_an_unknown_ref_fails(live_forge: LiveForge, tmp_path: Path) -> None:
    action = push_tree(live_forge, "reader", {"action.yml": READER, "one.txt": "one\n"}, tmp_path / "actions")
    workflow = f"on: [push]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: {action}@main\n"
    # one repository per run: a push starts every push workflow of its repository
    first = run_daemon(live_forge, live_forge.create_repo("app1"), workflow, tmp_path, "first")
    assert "texts: one" in first.stdout.splitlines(), first.stdout
    live_forge.push_file(action, "two.txt", "two\n")
    second = run_daemon(live_forge, live_forge.create_repo("app2"), workflow, tmp_path, "second")
    assert "texts: one two" in second.stdout.splitlines(), second.stdout
    assert sum(line.startswith(f"Fetched {action}@main") for line in second.stdout.splitlines()) == 1
    on_v9 = workflow.replace("@main", "@v9")
    unknown = run_daemon(live_forge, live_forge.create_repo("app3"), on_v9, tmp_path, "third")
    assert unknown.returncode == 1
    assert f"{action} on {live_forge.url} has no branch or tag 'v9'" in unknown.stdout, unknown.stdout


def _closure(names: list[str]) -> set[str]:
    """The npm packages ``names`` need, read from the installed (hoisted) tests/node/node_modules."""
    seen: set[str] = set()
    while names:
        name = names.pop()
        if name in seen:
            continue
        seen.add(name)
        manifest = json.loads((NODE_MODULES / name / "package.json").read_text(encoding="utf-8"))
        names.extend(manifest.get("dependencies") or {})
    return seen


CORE_ACTION = """\
name: core-user
inputs:
  who:
    required: true
  mode:
    default: polite
outputs:
  greeting:
    description: made with @actions/core
runs:
  using: node24
  main: main.mjs
  post: post.mjs
"""
CORE_MAIN = """\
import * as core from "@actions/core";
const who = core.getInput("who", { required: true });
core.setSecret("core-secret-99");
console.log("masked: core-secret-99");
core.saveState("seen", who);
core.exportVariable("FROM_CORE", "exported-by-core");
core.setOutput("greeting", `${core.getInput("mode")} hello to ${who}`);
core.info("core main done");
"""
CORE_POST = """\
import * as core from "@actions/core";
core.info(`core post saw ${core.getState("seen")}`);
"""
CORE_WORKFLOW = """\
on: [push]
jobs:
  use:
    runs-on: ubuntu-latest
    steps:
      - id: core
        uses: {owner}/core-user@main
        with:
          who: npm
      - run: echo "core says ${{{{ steps.core.outputs.greeting }}}} and $FROM_CORE"
"""


@needs_node("@actions/core")
def test_an_action_built_on_the_real_actions_core_runs_from_the_forge(live_forge: LiveForge, tmp_path: Path) -> None:
    """Skipped on a developer machine without the npm modules, never under CI (``CI`` set), where it fails."""
    missing = missing_node_client("@actions/core")
    assert missing is None, f"the npm package cannot run under CI: {missing}"
    tree = tmp_path / "core-user"
    tree.mkdir()
    for name, text in {"action.yml": CORE_ACTION, "main.mjs": CORE_MAIN, "post.mjs": CORE_POST}.items():
        (tree / name).write_text(text, encoding="utf-8")
    for package in _closure(["@actions/core"]):
        shutil.copytree(NODE_MODULES / package, tree / "node_modules" / package)
    response = live_forge.api("POST", "/user/repos", json={"name": "core-user", "auto_init": False})
    assert response.status_code == 201, response.text
    push_directory(live_forge, "core-user", tree)
    repo = live_forge.create_repo("app")
    completed = run_daemon(live_forge, repo, CORE_WORKFLOW.format(owner=ADMIN), tmp_path)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    lines = completed.stdout.splitlines()
    assert "core says polite hello to npm and exported-by-core" in lines, output
    assert "masked: ***" in lines and "core-secret-99" not in output
    assert "core main done" in lines
    assert "core post saw npm" in lines, output
