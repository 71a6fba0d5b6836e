"""Parallel runs (pytest-xdist) and live-target safety: one set of reports, per-scenario cleanup, @destructive."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import requests

from conformance import parallel
from conformance.parallel import BDD_PROPERTY, SERVER_LOG, ControllerPlugin, scenario_numbers, server_log_path
from conformance.paths import KIT_ROOT
from conformance.schemas import validate
from conformance.target import LISTENING

FEATURE = """\
@users
Feature: Parallel check
{scenarios}
"""
SCENARIO = """
  @gitea
  Scenario: Check {number}
    Given a user "alice"
    When "alice" sends GET "/user"
    Then the response status is 200
    And the response field "login" is the name of "alice"
"""
DESTRUCTIVE = """
  @gitea @destructive
  Scenario: Something instance-wide
    When an anonymous client fetches the server version
    Then the response status is 200
"""
CONFTEST = 'pytest_plugins = ["conformance.plugin", "steps.common", "steps.api_description"]\n'
BINDING = (
    "from pathlib import Path\nfrom pytest_bdd import scenarios\n\n"
    'scenarios(str(Path(__file__).parent / "check.feature"))\n'
)


COUNTER = """
import json
import os
from pathlib import Path

import pytest
import requests

from conformance.plugin import STATE_KEY


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    state = item.config.stash[STATE_KEY]
    target = state.target
    answer = requests.get(
        target.api_url + "admin/users",
        params={"q": state.run_prefix + "-", "limit": 50},
        headers={"Authorization": "token " + target.admin_token},
        timeout=30,
    )
    logins = [user["login"] for user in answer.json()]
    line = json.dumps({"prefix": state.run_prefix, "worker": os.environ["PYTEST_XDIST_WORKER"], "left": logins})
    with (Path(__file__).parent / "counts.jsonl").open("a", encoding="utf-8") as sink:
        sink.write(line + "\\n")
"""


@dataclass
class LiveServer:
    """A reference server started apart from the runs, as a live target would be."""

    url: str
    token: str

    def users_named(self, prefix: str) -> list[str]:
        """Logins of the users whose name carries ``prefix``."""
        answer = requests.get(
            self.url + "api/v1/admin/users",
            params={"q": prefix, "limit": "50"},
            headers={"Authorization": f"token {self.token}"},
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
        return [str(user["login"]) for user in answer.json()]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``reference-server`` on a free port with its own data directory and admin token."""
    data = tmp_path_factory.mktemp("live")
    token = secrets.token_hex(20)
    log = (data / "server.log").open("wb")
    command = [sys.executable, "-m", "reference_server.cli", "--port", "0", "--data-dir", str(data / "d")]
    command += ["--admin-token", token, "--password-cost", "fast"]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=KIT_ROOT)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = LISTENING.search((data / "server.log").read_text(encoding="utf-8"))
            if found:
                break
            assert process.poll() is None, (data / "server.log").read_text(encoding="utf-8")
            time.sleep(0.05)
        else:
            pytest.fail("the reference server did not start")
        yield LiveServer(found.group(1), token)
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


def _config(workerid: str | None, count: int = 1) -> Any:
    if workerid is None:
        return SimpleNamespace()
    return SimpleNamespace(workerinput={"workerid": workerid, "workercount": count})


def test_workers_number_their_scenarios_without_ever_colliding() -> None:
    seen: list[int] = []
    for worker in ("gw0", "gw1", "gw2"):
        numbers = scenario_numbers(_config(worker, 3))
        seen += [next(numbers) for _ in range(50)]
    assert len(set(seen)) == len(seen) == 150
    assert min(seen) == 1
    alone = scenario_numbers(_config(None))
    assert [next(alone) for _ in range(3)] == [1, 2, 3]


def test_each_worker_logs_to_its_own_file(tmp_path: Path) -> None:
    assert server_log_path(_config(None), tmp_path) == tmp_path / SERVER_LOG
    assert server_log_path(_config("gw3", 4), tmp_path) == tmp_path / "reference-server-gw3.log"


def test_the_controller_restores_bdd_step_reports_and_merges_the_workers_logs(tmp_path: Path) -> None:
    """Scenario records travel through conformance.reporting; this plugin adds Cucumber's context and one log."""
    from pytest_bdd.reporting import test_report_context_registry

    state: Any = SimpleNamespace(run_prefix="ckabcdef", writes_reports=True, report_dir=tmp_path)
    controller = ControllerPlugin(state)
    report = pytest.TestReport(
        "a", ("f", 0, "a"), {}, "passed", None, "call", user_properties=[(BDD_PROPERTY, {"scenario": {}, "name": "A"})]
    )
    controller.pytest_runtest_logreport(report)
    assert test_report_context_registry[report].name == "A"
    logs = []
    for worker in ("gw1", "gw0"):
        log = tmp_path / f"reference-server-{worker}.log"
        log.write_text(f"started {worker}\nlistening\n", encoding="utf-8")
        logs.append(log)
        node = SimpleNamespace(gateway=SimpleNamespace(id=worker), workeroutput={"conformance_server_log": str(log)})
        controller.pytest_testnodedown(node, None)
    controller.pytest_testnodedown(SimpleNamespace(gateway=SimpleNamespace(id="gw2"), workeroutput={}), "crashed")
    controller.pytest_sessionfinish(SimpleNamespace())  # type: ignore[arg-type]
    merged = (tmp_path / SERVER_LOG).read_text(encoding="utf-8").splitlines()
    assert merged == ["[gw0] started gw0", "[gw0] listening", "[gw1] started gw1", "[gw1] listening"]
    assert not any(log.exists() for log in logs)


def test_the_controller_hands_its_run_prefix_and_seed_to_every_worker() -> None:
    state: Any = SimpleNamespace(run_prefix="ck123456", seed=4242)
    node = SimpleNamespace(workerinput={"workerid": "gw0"})
    ControllerPlugin(state).pytest_configure_node(node)
    assert node.workerinput["conformance_run_prefix"] == "ck123456"
    assert node.workerinput["conformance_seed"] == 4242


def _suite(tmp_path: Path, scenarios: str, *arguments: str, conftest: bool = True) -> subprocess.CompletedProcess[str]:
    (tmp_path / "check.feature").write_text(FEATURE.format(scenarios=scenarios), encoding="utf-8")
    if conftest:
        (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_check.py").write_text(BINDING, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers -p no:cacheprovider\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "out", "-q", *arguments],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(KIT_ROOT)},
    )


def test_a_parallel_run_writes_one_set_of_reports_and_cleans_up_each_scenario(tmp_path: Path) -> None:
    scenarios = "".join(SCENARIO.format(number=number) for number in range(1, 7))
    completed = _suite(tmp_path, scenarios, "-n", "2", "--dist", "worksteal")
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    out = tmp_path / "out"
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    validate(results, "results.schema")
    assert [scenario["name"] for scenario in results["scenarios"]] == [f"Check {n}" for n in range(1, 7)]
    assert {scenario["outcome"] for scenario in results["scenarios"]} == {"passed"}
    assert results["leaks"] == [] and results["target"]["embedded"] is True
    cucumber = json.loads((out / "cucumber.json").read_text(encoding="utf-8"))
    elements = [element for feature in cucumber for element in feature["elements"]]
    assert sorted(element["name"] for element in elements) == [f"Check {n}" for n in range(1, 7)]
    assert all(step["result"]["status"] == "passed" for element in elements for step in element["steps"])
    assert (out / "junit.xml").read_text(encoding="utf-8").count("<testcase ") == 6
    log = (out / SERVER_LOG).read_text(encoding="utf-8")
    assert "[gw0] reference-server listening" in log and "[gw1] reference-server listening" in log
    assert sorted(path.name for path in out.iterdir()) == [
        "cucumber.json",
        "junit.xml",
        SERVER_LOG,
        "report.html",
        "results.json",
    ]


def test_on_a_shared_live_target_each_scenario_cleans_up_as_it_ends(tmp_path: Path, live_server: LiveServer) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST + COUNTER, encoding="utf-8")
    scenarios = "".join(SCENARIO.format(number=number) for number in range(1, 5))
    completed = _suite(
        tmp_path, scenarios, "-n", "2", "--target", live_server.url, "--token", live_server.token, conftest=False
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert results["leaks"] == [] and results["target"]["embedded"] is False
    counts = [json.loads(line) for line in (tmp_path / "counts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(counts) == 4
    assert all(count["prefix"] == results["run_prefix"] for count in counts), "workers share the run prefix"
    for count in counts:
        # gw0 numbers its scenarios 1, 3, 5...; gw1 2, 4, 6...: what is left belongs to the other worker's scenario
        own_parity = int(count["worker"].removeprefix("gw")) + 1
        left = [int(login.split("-")[1]) for login in count["left"]]
        assert all(number % 2 != own_parity % 2 for number in left), f"a scenario outlived its end: {count}"
    assert live_server.users_named(results["run_prefix"]) == []


def test_a_destructive_scenario_is_disabled_against_a_live_target(tmp_path: Path, live_server: LiveServer) -> None:
    live = ("--target", live_server.url, "--token", live_server.token)
    completed = _suite(tmp_path, DESTRUCTIVE, *live)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    [record] = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["scenarios"]
    assert record["outcome"] == "disabled"
    assert record["message"].startswith("disabled: destructive")
    allowed = _suite(tmp_path, DESTRUCTIVE, *live, "--allow-destructive")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    [record] = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["scenarios"]
    assert record["outcome"] == "passed"


@pytest.mark.parametrize("extra", [(), ("-n", "1")])
def test_a_destructive_scenario_runs_against_the_embedded_server(tmp_path: Path, extra: tuple[str, ...]) -> None:
    completed = _suite(tmp_path, DESTRUCTIVE, *extra)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    [record] = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["scenarios"]
    assert record["outcome"] == "passed"


def _run_config(*args: str, report_dir: str | None = None) -> Any:
    option = SimpleNamespace(conformance_report_dir=report_dir, numprocesses="auto")
    return SimpleNamespace(option=option, args=list(args), invocation_params=SimpleNamespace(dir=KIT_ROOT))


@pytest.mark.parametrize(("cores", "workers"), [(1, 1), (2, 3), (4, 6), (8, 12)])
def test_auto_means_one_and_a_half_workers_per_core_for_the_suite(
    monkeypatch: pytest.MonkeyPatch, cores: int, workers: int
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr("xdist.plugin.pytest_xdist_auto_num_workers", lambda config: cores)
    assert parallel.auto_workers(_run_config("suite")) == workers
    assert parallel.auto_workers(_run_config("features/users/users.feature")) == workers
    assert parallel.auto_workers(_run_config("tests", report_dir="out")) == workers, "reports asked for"


def test_auto_is_left_to_xdist_outside_the_suite_or_when_the_environment_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("xdist.plugin.pytest_xdist_auto_num_workers", lambda config: 2)
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    assert parallel.auto_workers(_run_config("tests")) is None, "the kit's own tests: one worker per core"
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "5")
    assert parallel.auto_workers(_run_config("suite")) is None
