"""The ``conformance`` command: its options become a pytest command line over the kit's suite."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conformance import cli
from conformance.cli import build_parser, pytest_arguments, scratch_folder
from conformance.paths import KIT_ROOT, SUITE_DIR


def test_defaults_run_the_suite_with_strict_markers_and_reports() -> None:
    arguments = pytest_arguments([])
    assert arguments[0] == str(SUITE_DIR)
    assert arguments[arguments.index("--rootdir") + 1] == str(KIT_ROOT)
    assert "--strict-markers" in arguments
    assert arguments[arguments.index("--report-dir") + 1] == "reports"
    assert "--target" not in arguments and "--token" not in arguments


def test_target_selection_and_output_options_pass_through() -> None:
    target = ["--target", "http://f.test/", "--token", "T", "--target-config", "t.yaml"]
    selection = ["-m", "artifacts and spec", "-k", "zip", "-x"]
    arguments = pytest_arguments([*target, *selection, "--report-dir", "out", "--keep-data"])
    pairs = {arguments[i]: arguments[i + 1] for i in range(len(arguments) - 1)}
    assert pairs["--target"] == "http://f.test/" and pairs["--token"] == "T"
    assert pairs["-m"] == "artifacts and spec" and pairs["-k"] == "zip"
    assert pairs["--report-dir"] == "out" and pairs["--target-config"] == "t.yaml"
    assert "-x" in arguments and "--keep-data" in arguments


def test_unknown_options_and_everything_after_a_double_dash_go_to_pytest() -> None:
    arguments = pytest_arguments(["-vv", "--lf", "--", "-k", "raw", "--durations=5"])
    assert arguments[-3:] == ["-k", "raw", "--durations=5"]
    assert "-vv" in arguments and "--lf" in arguments
    assert arguments.index("--lf") < arguments.index("--durations=5")


def test_help_names_the_options_and_the_exit_statuses() -> None:
    text = build_parser().format_help()
    for option in ("--target", "--token", "--target-config", "--report-dir", "--keep-data", "-m", "-k", "-x"):
        assert option in text
    assert "exit status" in text


@pytest.mark.parametrize("argument", ["--help"])
def test_the_console_command_answers_help(argument: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "conformance.cli", argument], capture_output=True, text=True, timeout=60, check=False
    )
    assert completed.returncode == 0 and "usage: conformance" in completed.stdout


def test_an_unusable_target_stops_the_run_with_one_clear_line(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--target", "http://127.0.0.1:9/", "--token", "x", "-m", "auth"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=str(tmp_path),
    )
    assert completed.returncode == 4, completed.stdout + completed.stderr
    assert "does not answer" in completed.stdout + completed.stderr


def test_a_broken_target_config_is_refused_before_any_scenario_runs(tmp_path: Path) -> None:
    config = tmp_path / "target.yaml"
    config.write_text("target: http://forge.test/\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "--target-config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=str(tmp_path),
    )
    assert completed.returncode == 4, completed.stdout + completed.stderr
    assert "needs an admin token" in completed.stderr
    assert "passed" not in completed.stdout and "failed" not in completed.stdout


def _run_against(url: str, token: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "conformance.cli", "--target", url, "--token", token, "-m", "auth"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=str(cwd))


def test_a_target_that_rejects_the_token_stops_the_run(tmp_path: Path) -> None:
    from conformance.target import EmbeddedServer

    server = EmbeddedServer(tmp_path / "server.log")
    server.start()
    try:
        completed = _run_against(server.base_url, "not-the-admin-token", tmp_path)
    finally:
        server.stop()
    assert completed.returncode == 4, completed.stdout + completed.stderr
    assert "refuses the admin token" in completed.stdout + completed.stderr


def test_a_target_that_answers_html_stops_the_run(tmp_path: Path) -> None:
    import http.server
    import threading

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        completed = _run_against(f"http://127.0.0.1:{site.server_port}/", "t", tmp_path)
    finally:
        site.shutdown()
    assert completed.returncode == 4, completed.stdout + completed.stderr
    assert "did not answer JSON" in completed.stdout + completed.stderr


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (["-n", "auto"], ["-n", "auto", "--dist", "worksteal"]),
        (["--numprocesses", "3"], ["-n", "3", "--dist", "worksteal"]),
        (["-n", "0"], ["-n", "0"]),
        ([], []),
    ],
)
def test_workers_become_xdist_options(given: list[str], expected: list[str]) -> None:
    arguments = pytest_arguments(given)
    if expected:
        start = arguments.index("-n")
        assert arguments[start : start + len(expected)] == expected
    else:
        assert "-n" not in arguments


def test_a_bad_worker_count_is_refused() -> None:
    with pytest.raises(SystemExit, match="-n takes a number or auto"):
        pytest_arguments(["-n", "many"])


def test_allow_destructive_passes_through() -> None:
    assert "--allow-destructive" in pytest_arguments(["--allow-destructive"])
    assert "--allow-destructive" not in pytest_arguments([])


def test_a_run_keeps_its_scratch_files_in_memory_unless_the_caller_chose_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert scratch_folder({}, tmp_path) == str(tmp_path)
    assert scratch_folder({"TMPDIR": "/elsewhere"}, tmp_path) is None, "the caller's choice stands"
    assert scratch_folder({"TMP": "/elsewhere"}, tmp_path) is None
    assert scratch_folder({}, tmp_path / "missing") is None
    monkeypatch.setattr(cli, "MEMORY_SCRATCH_MIN_FREE", 1 << 62)
    assert scratch_folder({}, tmp_path) is None, "a nearly full memory folder is not used"


def test_the_chosen_scratch_folder_is_what_the_run_and_its_children_get(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str | None, str]] = []

    def run_pytest(arguments: list[str]) -> int:
        seen.append((os.environ.get("TMPDIR"), tempfile.gettempdir()))
        return 0

    monkeypatch.setattr(cli, "MEMORY_SCRATCH", tmp_path)
    for name in ("TMPDIR", "TEMP", "TMP"):  # unset as far as the run can tell, and restored afterwards
        monkeypatch.setenv(name, "")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "cached-before"))  # as if asked before the run
    monkeypatch.setattr(pytest, "main", run_pytest)
    assert cli.main(["--collect-only"]) == 0
    assert seen == [(str(tmp_path), str(tmp_path))]
