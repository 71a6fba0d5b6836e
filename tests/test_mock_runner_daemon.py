"""The daemon and the command end to end against a live reference server, plus polling rules on a fake."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest
import requests
from flask import Response, request
from forge_proto import runner_pb2
from test_mock_runner_support import ADMIN_TOKEN, FakeServer, LiveForge, fake_server, live_forge, serve_forge

from mock_runner.cli import NO_TASK_STATUS, main
from mock_runner.daemon import Daemon, TaskOutcome, exit_status
from mock_runner.runnerfile import RunnerFile

__all__ = ["fake_server", "live_forge"]

BUILD = """\
name: build
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      lines: ${{ steps.make.outputs.lines }}
    steps:
      - id: make
        run: |
          mkdir -p out/sub && printf 'alpha\\n' > out/a.txt && seq 1 20000 > out/sub/numbers.txt
          printf '\\000\\001\\377' > out/bytes.bin
          echo "lines=$(wc -l < out/sub/numbers.txt)" >> "$GITHUB_OUTPUT"
          echo "secret is ${{ secrets.GITEA_TOKEN }}"
      - uses: actions/upload-artifact@v4
        with:
          name: build-output
          path: out/
      - uses: actions/download-artifact@v4
        with:
          name: build-output
          path: back
      - run: diff -r out back && echo identical
"""

FLAKY = """\
name: flaky
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p out && seq 1 500 > out/partial.log
      - uses: actions/upload-artifact@v4
        with:
          name: partial-logs
          path: out/partial.log
      - run: echo "tests failed" && exit 3
      - uses: actions/upload-artifact@v4
        with:
          name: late-logs
          path: out/partial.log
"""


def zip_of(forge: LiveForge, artifact: dict[str, object]) -> zipfile.ZipFile:
    response = requests.get(
        str(artifact["archive_download_url"]), headers={"Authorization": f"token {ADMIN_TOKEN}"}, timeout=30
    )
    assert response.status_code == 200, response.text
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_a_pushed_workflow_runs_and_its_artifact_comes_back_byte_for_byte(
    live_forge: LiveForge, tmp_path: Path
) -> None:
    repo = live_forge.create_repo("ci-success")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/build.yml", BUILD)
    daemon = Daemon(runner_file, workdir=tmp_path / "work", fetch_interval=0.2)
    outcome = daemon.run_once(timeout=20)
    assert outcome is not None
    assert outcome.result == runner_pb2.RESULT_SUCCESS, outcome.log_lines
    assert "identical" in outcome.log_lines
    assert "secret is ***" in outcome.log_lines
    (run,) = live_forge.runs(repo)
    assert (run["status"], run["conclusion"]) == ("completed", "success")
    (artifact,) = live_forge.artifacts(repo)
    assert artifact["name"] == "build-output"
    archive = zip_of(live_forge, artifact)
    assert sorted(archive.namelist()) == ["a.txt", "bytes.bin", "sub/numbers.txt"]
    assert archive.read("bytes.bin") == b"\x00\x01\xff"
    assert archive.read("sub/numbers.txt") == "".join(f"{n}\n" for n in range(1, 20001)).encode()
    logs = live_forge.api("GET", f"/repos/{repo}/actions/jobs/{outcome.task_id}/logs")
    assert logs.status_code == 200
    assert "identical" in logs.text
    assert not list((tmp_path / "work").iterdir()), "the task's workspace is removed afterwards"


def test_a_failing_job_fails_the_run_and_keeps_earlier_artifacts(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("ci-failure")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/flaky.yml", FLAKY)
    outcome = Daemon(runner_file, fetch_interval=0.2, workdir=tmp_path / "w").run_once(timeout=20)
    assert outcome is not None and outcome.result == runner_pb2.RESULT_FAILURE
    assert exit_status(outcome.result) == 1
    (run,) = live_forge.runs(repo)
    assert run["conclusion"] == "failure"
    assert [a["name"] for a in live_forge.artifacts(repo)] == ["partial-logs"]
    assert zip_of(live_forge, live_forge.artifacts(repo)[0]).namelist() == ["partial.log"]


def test_run_once_without_a_job_returns_none(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("idle")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    assert Daemon(runner_file, fetch_interval=0.1).run_once(timeout=0.5) is None


def test_exec_runs_a_command_as_the_job_with_the_artifact_commands(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("exec")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/build.yml", BUILD)
    script = tmp_path / "job.sh"
    script.write_text(
        f"""set -e
[ -z "${{GITHUB_SERVER_URL:-}}" ] && [ "$GITEA_SERVER_URL" = "{live_forge.url}" ]
[ "$GITHUB_WORKSPACE" = "$PWD" ]
printf 'payload' > file.txt
{sys.executable} -m mock_runner.cli artifact upload raw-file file.txt --no-archive
{sys.executable} -m mock_runner.cli artifact upload zipped file.txt
{sys.executable} -m mock_runner.cli artifact list --json > list.json
{sys.executable} -m mock_runner.cli artifact download zipped --path back
cmp file.txt back/file.txt
{sys.executable} -m mock_runner.cli artifact delete zipped
python3 -c 'import json; print(sorted(a["name"] for a in json.load(open("list.json"))))'
exit 7
"""
    )
    completed = subprocess.run(
        [sys.executable, "-m", "mock_runner.cli", "exec", "--runner-file", str(runner_file), "--timeout", "20",
         "--", "bash", str(script)],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert completed.returncode == 7, completed.stdout + completed.stderr
    assert "['raw-file', 'zipped']" in completed.stdout
    (run,) = live_forge.runs(repo)
    assert run["conclusion"] == "failure"
    assert [a["name"] for a in live_forge.artifacts(repo)] == ["raw-file"]


def test_exec_without_a_job_gives_up_after_the_timeout(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("exec-idle")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    status = main(["exec", "--runner-file", str(runner_file), "--timeout", "0.5", "--", "true"])
    assert status == NO_TASK_STATUS


def test_daemon_once_exits_with_the_job_status(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("daemon-once")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/flaky.yml", FLAKY)
    status = main(["daemon", "--once", "--quiet", "--runner-file", str(runner_file), "--fetch-interval", "0.2"])
    assert status == 1


def test_register_refuses_a_bad_token(live_forge: LiveForge, tmp_path: Path) -> None:
    status = main(
        ["register", "--instance", live_forge.url, "--token", "0" * 40, "--name", "x", "--labels", "a",
         "--no-interactive", "--runner-file", str(tmp_path / ".runner")]
    )  # fmt: skip
    assert status == 1
    assert not (tmp_path / ".runner").exists()


def test_register_off_a_terminal_without_flags_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["register", "--instance", "http://127.0.0.1:9", "--runner-file", str(tmp_path / ".runner")])
    assert status == 2
    error = capsys.readouterr().err
    assert "--token" in error and "not a terminal" in error


def write_runner(path: Path, address: str) -> Path:
    RunnerFile(id=1, uuid="u-1", name="fake", token="t-1", address=address, labels=["ubuntu-latest"]).save(path)
    return path


def test_polling_keeps_the_largest_version_and_resets_after_a_task(fake_server: FakeServer, tmp_path: Path) -> None:
    sent: list[int] = []
    replies = iter([(None, 3), (None, 2), (41, 3), (None, 5)])

    def fetch() -> Response:
        sent.append(runner_pb2.FetchTaskRequest.FromString(request.get_data()).tasks_version)
        task_id, version = next(replies)
        reply = runner_pb2.FetchTaskResponse(tasks_version=version)
        if task_id:
            reply.task.id = task_id
        return Response(reply.SerializeToString(), content_type="application/proto")

    fake_server.handlers["/api/actions/runner.v1.RunnerService/FetchTask"] = fetch
    daemon = Daemon(write_runner(tmp_path / ".runner", fake_server.url), fetch_interval=0.01)
    assert daemon.fetch() is None
    assert daemon.fetch() is None
    task = daemon.fetch()
    assert task is not None and task.id == 41
    assert daemon.fetch() is None
    assert sent == [0, 3, 3, 0]
    assert daemon.tasks_version == 5


def test_declare_tolerates_servers_without_it(fake_server: FakeServer, tmp_path: Path) -> None:
    fake_server.handlers["/api/actions/runner.v1.RunnerService/Declare"] = lambda: Response(
        json.dumps({"code": "unimplemented", "message": "no"}), 501, content_type="application/json"
    )
    daemon = Daemon(write_runner(tmp_path / ".runner", fake_server.url))
    daemon.declare()
    _, headers, body = fake_server.requests[0]
    assert headers["X-Runner-Uuid"] == "u-1"
    assert list(runner_pb2.DeclareRequest.FromString(body).labels) == ["ubuntu-latest"]


def test_declare_tolerates_the_plain_404_of_a_connect_go_server_without_it(
    fake_server: FakeServer, tmp_path: Path
) -> None:
    """A Gitea before 1.21 has no Declare: connect-go answers the unknown procedure with a bare 404."""
    fake_server.handlers["/api/actions/runner.v1.RunnerService/Declare"] = lambda: Response(
        "404 page not found\n", 404, content_type="text/plain; charset=utf-8"
    )
    daemon = Daemon(write_runner(tmp_path / ".runner", fake_server.url))
    daemon.declare()
    assert len(fake_server.requests) == 1


def start_daemon(runner_file: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "mock_runner.cli", "daemon", "--runner-file", str(runner_file),
         "--fetch-interval", "0.2", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip


def test_sigterm_stops_an_idle_daemon_cleanly(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("sigterm-idle")
    daemon = start_daemon(live_forge.register_runner(repo, tmp_path / ".runner"))
    try:
        assert daemon.stdout is not None
        for line in daemon.stdout:  # the signal handler is in place once the runner has declared itself
            if "declared; waiting for jobs" in line:
                break
        time.sleep(0.5)  # idle: polling
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=15) == 0
    finally:
        daemon.kill()


def test_sigterm_during_a_job_cancels_it_and_reports_it(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("sigterm-busy")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/slow.yml", SLOW)
    daemon = start_daemon(runner_file, "--once")
    try:
        assert daemon.stdout is not None
        for line in daemon.stdout:
            if line.strip() == "started":
                break
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=30) == 3
    finally:
        daemon.kill()
    (run,) = live_forge.runs(repo)
    assert (run["status"], run["conclusion"]) == ("completed", "cancelled")


SLOW = """\
name: slow
on: [push]
jobs:
  wait:
    runs-on: ubuntu-latest
    steps:
      - run: echo started && sleep 60
"""


def test_register_prompts_for_missing_flags_on_a_terminal(
    live_forge: LiveForge, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = live_forge.create_repo("interactive")
    answers = iter([live_forge.url, live_forge.registration_token(repo), "", "gpu,linux:host"])
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", answer)
    assert main(["register", "--runner-file", str(tmp_path / ".runner")]) == 0
    assert len(prompts) == 4 and "[" in prompts[2]  # the name prompt offers the host name as default
    saved = RunnerFile.load(tmp_path / ".runner")
    assert saved.labels == ["gpu", "linux:host"]
    assert saved.address == live_forge.url


def test_checkout_in_a_job_uses_the_job_token(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("checkout-job")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, "data/payload.txt", "checked out\n")
    live_forge.push_file(repo, ".gitea/workflows/co.yml", CHECKOUT)
    outcome = Daemon(runner_file, fetch_interval=0.2).run_once(timeout=20)
    assert outcome is not None
    assert outcome.result == runner_pb2.RESULT_SUCCESS, outcome.log_lines
    assert "checked out" in outcome.log_lines
    assert "head matches" in outcome.log_lines


CHECKOUT = """\
name: checkout
on: [push]
jobs:
  c:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          path: src
      - run: cat src/data/payload.txt
      - run: |
          if [ -d src/.git ]; then [ "$(git -C src rev-parse HEAD)" = "$GITHUB_SHA" ]; fi
          echo "head matches"
"""


def test_job_outputs_reach_the_dependent_job_through_needs(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("needs")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/chain.yml", CHAIN)
    daemon = Daemon(runner_file, fetch_interval=0.2)
    first = daemon.run_once(timeout=20)
    assert first is not None and first.result == runner_pb2.RESULT_SUCCESS
    second = daemon.run_once(timeout=20)
    assert second is not None
    assert second.result == runner_pb2.RESULT_SUCCESS, second.log_lines
    assert "got 1.2.3 from a success job" in second.log_lines
    (run,) = live_forge.runs(repo)
    assert run["conclusion"] == "success"


def test_exec_of_a_missing_command_fails_the_job(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("exec-missing")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/build.yml", BUILD)
    status = main(["exec", "--runner-file", str(runner_file), "--timeout", "20", "--", "no-such-command-xyz"])
    assert status == 127
    (run,) = live_forge.runs(repo)
    assert run["conclusion"] == "failure"


CHAIN = """\
name: chain
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      version: ${{ steps.v.outputs.version }}
    steps:
      - id: v
        run: echo "version=1.2.3" >> "$GITHUB_OUTPUT"
  deploy:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo "got ${{ needs.build.outputs.version }} from a ${{ needs.build.result }} job"
"""


def test_a_workspace_that_cannot_be_made_fails_the_task_instead_of_losing_it(
    live_forge: LiveForge, tmp_path: Path
) -> None:
    repo = live_forge.create_repo("no-workspace")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/build.yml", BUILD)
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("x")
    outcome = Daemon(runner_file, workdir=blocker / "work", fetch_interval=0.2).run_once(timeout=20)
    assert outcome is not None and outcome.result == runner_pb2.RESULT_FAILURE
    assert any("cannot make the task's workspace" in line for line in outcome.log_lines)
    (run,) = live_forge.runs(repo)
    assert (run["status"], run["conclusion"]) == ("completed", "failure")


def test_a_forge_under_a_sub_path_and_the_json_codec(tmp_path: Path) -> None:
    with serve_forge(tmp_path / "forge", sub_path="forge") as forge:
        assert forge.url.endswith("/forge")
        repo = forge.create_repo("sub-path")
        runner_file = forge.register_runner(repo, tmp_path / ".runner")
        forge.push_file(repo, ".gitea/workflows/flaky.yml", FLAKY)
        outcome = Daemon(runner_file, fetch_interval=0.2, codec="json").run_once(timeout=20)
        assert outcome is not None and outcome.result == runner_pb2.RESULT_FAILURE
        assert [artifact["name"] for artifact in forge.artifacts(repo)] == ["partial-logs"]
        assert zip_of(forge, forge.artifacts(repo)[0]).namelist() == ["partial.log"]


def test_capacity_two_runs_independent_jobs_until_stopped(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("capacity")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/pair.yml", PAIR)
    daemon = Daemon(runner_file, capacity=2, fetch_interval=0.1)
    statuses: list[int] = []
    worker = threading.Thread(target=lambda: statuses.append(daemon.run()))
    worker.start()
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and live_forge.runs(repo)[0]["status"] != "completed":
            time.sleep(0.2)
    finally:
        daemon.stop()
        worker.join(30)
    assert statuses == [0]
    assert live_forge.runs(repo)[0]["conclusion"] == "success"


PAIR = """\
name: pair
on: [push]
jobs:
  left:
    runs-on: ubuntu-latest
    steps:
      - run: sleep 1
  right:
    runs-on: ubuntu-latest
    steps:
      - run: sleep 1
"""


def test_a_run_cancelled_on_the_server_stops_the_job(live_forge: LiveForge, tmp_path: Path) -> None:
    repo = live_forge.create_repo("server-cancel")
    runner_file = live_forge.register_runner(repo, tmp_path / ".runner")
    live_forge.push_file(repo, ".gitea/workflows/slow.yml", SLOW)
    started = threading.Event()

    def watch(line: str) -> None:
        if line == "started":
            started.set()

    daemon = Daemon(runner_file, fetch_interval=0.2, report_interval=0.2, echo=watch)
    outcomes: list[object] = []
    worker = threading.Thread(target=lambda: outcomes.append(daemon.run_once(timeout=20)))
    worker.start()
    try:
        assert started.wait(20)
        (run,) = live_forge.runs(repo)
        response = live_forge.api("POST", f"/repos/{repo}/actions/runs/{run['id']}/cancel")
        assert response.status_code in (200, 202, 204), response.text
    finally:
        worker.join(30)
    (outcome,) = outcomes
    assert isinstance(outcome, TaskOutcome)
    assert outcome.result == runner_pb2.RESULT_CANCELLED
    assert "The job was cancelled: stopping the step." in outcome.log_lines
    (run,) = live_forge.runs(repo)
    assert (run["status"], run["conclusion"]) == ("completed", "cancelled")
