"""The mock runner runs a server's ``run:`` steps on this host only for a loopback server, unless opted in."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_mock_runner_executor import FAILURE, SUCCESS, RecordingSink, make_task, run

from mock_runner.cli import build_parser
from mock_runner.daemon import Daemon
from mock_runner.executor import execute_job
from mock_runner.hostexec import ENV_VAR, REFUSAL, env_allows, host_execution_allowed, is_loopback_url
from mock_runner.jobenv import JobRuntime, masker_for, task_context
from mock_runner.runnerfile import RunnerFile

WORKFLOW = """
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: touch "$GITHUB_WORKSPACE/ran"
"""


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:3000/", "http://127.8.9.10/", "http://[::1]:3000/", "http://localhost/", "http://ci.localhost/"],
)
def test_loopback_servers(url: str) -> None:
    assert is_loopback_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://gitea.example/",
        "http://10.0.0.1:3000/",
        "http://0.0.0.0:3000/",
        "http://127.0.0.1.nip.io/",
        "http://localhost.example/",
        "http://[::ffff:7f00:1]/",
        "not a url",
    ],
)
def test_other_servers_are_not_loopback(url: str) -> None:
    assert not is_loopback_url(url), "names are never resolved; only literal loopback hosts count"


def test_the_rule_explicit_then_environment_then_loopback() -> None:
    remote, local = "https://gitea.example/", "http://127.0.0.1:3000/"
    assert not host_execution_allowed(remote, environ={})
    assert host_execution_allowed(local, environ={})
    assert host_execution_allowed(remote, environ={ENV_VAR: "1"})
    assert host_execution_allowed(remote, environ={ENV_VAR: "true"})
    assert not host_execution_allowed(remote, environ={ENV_VAR: "0"})
    assert host_execution_allowed(remote, True, environ={})
    assert not host_execution_allowed(local, False, environ={ENV_VAR: "1"}), "an explicit choice wins"
    assert not env_allows({})


def test_a_refused_run_step_fails_with_the_reason_and_runs_nothing(tmp_path: Path) -> None:
    task = make_task(WORKFLOW)
    sink = RecordingSink()
    (tmp_path / "workspace").mkdir()
    (tmp_path / "temp").mkdir()
    context = task_context(task)
    runtime = JobRuntime(
        task=task,
        context=context,
        instance_url="https://gitea.example/",
        workspace=tmp_path / "workspace",
        temp=tmp_path / "temp",
        write=sink.write,
        masker=masker_for(task, context),
        allow_host_execution=False,
    )
    result = execute_job(task, runtime, sink)
    assert result == FAILURE
    assert any(REFUSAL in line for line in sink.lines), sink.lines
    assert not (tmp_path / "workspace" / "ran").exists(), "the script must not have run"


def test_an_allowed_run_step_runs(tmp_path: Path) -> None:
    result, sink = run(WORKFLOW, tmp_path)
    assert result == SUCCESS, sink.lines
    assert (tmp_path / "workspace" / "ran").exists()


def _runner_file(tmp_path: Path, address: str) -> Path:
    path = tmp_path / ".runner"
    RunnerFile(id=1, uuid="u-1", name="r", token="t", address=address, labels=["ubuntu-latest"]).save(path)
    return path


def test_the_daemon_applies_the_rule_to_its_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert Daemon(_runner_file(tmp_path, "http://127.0.0.1:3000/")).allow_host_execution
    remote = _runner_file(tmp_path, "https://gitea.example/")
    assert not Daemon(remote).allow_host_execution
    assert Daemon(remote, allow_host_execution=True).allow_host_execution
    monkeypatch.setenv(ENV_VAR, "1")
    assert Daemon(remote).allow_host_execution


def test_the_command_line_opt_in() -> None:
    assert build_parser().parse_args(["daemon"]).allow_host_execution is None
    assert build_parser().parse_args(["daemon", "--allow-host-execution"]).allow_host_execution is True
