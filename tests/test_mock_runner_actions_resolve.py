"""Reading ``uses:``, choosing the actions instance, naming inputs, and the workflow-command lines."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from forge_proto import runner_pb2

from mock_runner.actions_resolve import ActionRef, actions_base_url, input_variable, parse_uses
from mock_runner.cli import build_parser
from mock_runner.jobenv import JobRuntime, StepError
from mock_runner.logs import Masker
from mock_runner.workflow_commands import LineCommands

FORGE = "http://forge.test:3000"


@pytest.mark.parametrize(
    ("uses", "expected"),
    [
        ("owner/repo@v1", ActionRef("remote", "owner/repo@v1", FORGE, "owner/repo", "", "v1")),
        ("o/r/sub/dir@main", ActionRef("remote", "o/r/sub/dir@main", FORGE, "o/r", "sub/dir", "main")),
        (
            "https://other.example/o/r/p@abc",
            ActionRef("remote", "https://other.example/o/r/p@abc", "https://other.example", "o/r", "p", "abc"),
        ),
        ("./local/act", ActionRef("local", "./local/act", path="local/act")),
        ("./", ActionRef("local", "./", path="")),
        ("docker://alpine:3", ActionRef("docker", "docker://alpine:3")),
    ],
)  # fmt: skip
def test_uses_is_parsed_like_the_runner(uses: str, expected: ActionRef) -> None:
    assert parse_uses(uses, FORGE + "/") == expected


def test_the_clone_url_and_the_native_name() -> None:
    action = parse_uses("Actions/Checkout@v4", FORGE)
    assert action.clone_url == f"{FORGE}/Actions/Checkout.git"
    assert action.action_name == "actions/checkout"


@pytest.mark.parametrize("uses", ["owner/repo", "owner@v1", "o/r@", "own er/repo@v1", "o/r/../x@v1", "./a/../.."])
def test_malformed_uses_fail_the_step(uses: str) -> None:
    with pytest.raises(StepError):
        parse_uses(uses, FORGE)


@pytest.mark.parametrize(
    ("option", "default", "expected"),
    [
        ("https://mirror.example/", "https://github.com", "https://mirror.example"),
        (None, "https://github.com", FORGE),
        (None, "", FORGE),
        (None, "https://actions.example/", "https://actions.example"),
    ],
)
def test_the_actions_instance(option: str | None, default: str, expected: str) -> None:
    assert actions_base_url(option, {"gitea_default_actions_url": default}, FORGE + "/") == expected


@pytest.mark.parametrize(
    ("name", "variable"),
    [("who", "INPUT_WHO"), ("my input", "INPUT_MY_INPUT"), ("dash-ed", "INPUT_DASH-ED"), ("a.b", "INPUT_A_B")],
)
def test_input_variables_are_named_as_act_names_them(name: str, variable: str) -> None:
    assert input_variable(name) == variable


def _runtime(tmp_path: Path, **secrets: str) -> JobRuntime:
    lines: list[str] = []
    return JobRuntime(
        task=runner_pb2.Task(id=1, secrets=secrets),
        context={},
        instance_url=FORGE,
        workspace=tmp_path,
        temp=tmp_path,
        write=lines.append,
        masker=Masker(),
        cancelled=threading.Event(),
    )


def test_line_commands(tmp_path: Path) -> None:
    runtime = _runtime(tmp_path)
    commands = LineCommands(runtime)
    handled: list[Any] = [
        commands.handle(line)
        for line in (
            "plain",
            "::debug::hidden",
            "::add-mask::s3cr3t",
            "::set-output name=a::1",
            "::save-state name=b::2",
            "::stop-commands::pause-token",
            "::set-output name=c::3",
            "::pause-token::",
            "::error file=a.js,line=2::broken",
        )
    ]
    assert handled == [
        "plain", None, "::add-mask::***", "::set-output name=a::1", "::save-state name=b::2", None,
        "::set-output name=c::3", "::pause-token::", "::error file=a.js,line=2::broken",
    ]  # fmt: skip
    assert commands.outputs == {"a": "1"}
    assert commands.state == {"b": "2"}
    assert runtime.masker("x s3cr3t y") == "x *** y"


def test_debug_lines_show_with_step_debug(tmp_path: Path) -> None:
    assert LineCommands(_runtime(tmp_path, ACTIONS_STEP_DEBUG="true")).handle("::debug::seen") == "::debug::seen"


@pytest.mark.parametrize("command", [["daemon"], ["exec", "--", "true"]])
def test_daemon_and_exec_take_an_actions_url(command: list[str]) -> None:
    options = build_parser().parse_args([command[0], "--actions-url", "https://actions.example/", *command[1:]])
    assert options.actions_url == "https://actions.example/"
    assert build_parser().parse_args(command).actions_url is None
