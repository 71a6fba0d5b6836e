"""A tiny suite run for real (embedded reference server, real HTTP) writes reports that match their schema.

The tiny suite has one scenario per verdict, an expectations file with a fixed, an expected and an
expired entry, and is run serially, under pytest-xdist (when installed) and interrupted with Ctrl-C.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance.schemas import validate
from conformance.target import EmbeddedServer

TINY_FEATURE = """\
@api_description
Feature: A tiny suite
  @gitea
  Scenario: The version answers
    When an anonymous client fetches the server version
    Then the response status is 200

  @spec @clause_S9_1
  Scenario: A deliberately wrong expectation
    When the admin sends GET "version"
    Then the response status is 418

  @gitea
  Scenario: A known deviation
    When the admin sends GET "version"
    Then the response status is 418

  @gitea
  Scenario: A deviation whose entry expired
    When the admin sends GET "version"
    Then the response status is 418

  @reference @capability_absent_feature
  Scenario: A capability the target lacks
    When the admin sends GET "version"
    Then the response status is 200

  @reference @capability_present_feature
  Scenario: An endpoint of a capability answers 501
    When the admin sends GET "activitypub/actor"
    Then the response status is 200

  @reference
  Scenario: A step without a definition
    Given a step that nobody wrote
    Then the response status is 200

  @reference @slow
  Scenario: A scenario the user left out
    When an anonymous client fetches the server version
    Then the response status is 200
"""

EXPECTATIONS = """\
expectations:
  - id: "tiny::The version answers"
    reason: the version was once broken
  - id: "tiny::A known deviation"
    reason: the target answers 200 where the scenario wants 418
    link: https://example.invalid/issue/1
  - id: "tiny::A deviation whose entry expired"
    reason: was to be fixed by 2000
    expires: 2000-01-01
"""

CONFTEST = """\
import os
import signal

from pytest_bdd import when

from conformance.capabilities import register_probe

register_probe("absent_feature")(lambda admin: False)
register_probe("present_feature")(lambda admin: True)

pytest_plugins = ["conformance.plugin", "steps.common", "steps.api_description"]


@when("the person running the suite presses Ctrl-C")
def _interrupt() -> None:
    os.kill(os.getpid(), signal.SIGINT)
"""

INTERRUPTED_FEATURE = """\
@api_description
Feature: An interrupted suite
  @gitea
  Scenario: The first scenario runs
    When an anonymous client fetches the server version
    Then the response status is 200

  @gitea
  Scenario: The second scenario is interrupted
    When the person running the suite presses Ctrl-C
    Then the response status is 200

  @gitea
  Scenario: The third scenario never runs
    When an anonymous client fetches the server version
    Then the response status is 200
"""

BINDING = """\
from pathlib import Path
from pytest_bdd import scenarios

scenarios(str(Path(__file__).parent / "{feature}"))
"""

PROFILE = """\
name: tiny
sources: [spec, gitea, reference]
capabilities: [absent_feature, present_feature]
"""


def write_tiny_suite(root: Path, feature: str, text: str) -> None:
    """The tiny suite's files (feature, conftest, binding, expectations, profile, pytest.ini) in ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / feature).write_text(text, encoding="utf-8")
    (root / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (root / "test_tiny.py").write_text(BINDING.format(feature=feature), encoding="utf-8")
    (root / "expectations.yaml").write_text(EXPECTATIONS, encoding="utf-8")
    (root / "tiny-profile.yaml").write_text(PROFILE, encoding="utf-8")
    (root / "pytest.ini").write_text(
        "[pytest]\naddopts = --strict-markers -p no:cacheprovider\nmarkers =\n"
        "  capability_absent_feature: test\n  capability_present_feature: test\n",
        encoding="utf-8",
    )


def _run(root: Path, feature: str, text: str, *extra: str) -> tuple[int, Path, str]:
    """Run a tiny suite in a subprocess; the exit status, the report directory and the output."""
    write_tiny_suite(root, feature, text)
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "out", "--profile", "tiny-profile.yaml", "-q", *extra],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    output = completed.stdout + completed.stderr
    assert (root / "out" / "results.json").exists(), output
    return completed.returncode, root / "out", output


TINY_ARGS = ("--expectations", "expectations.yaml", "-m", "not slow")


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path, str]:
    """The tiny suite, serially."""
    return _run(tmp_path_factory.mktemp("tiny"), "tiny.feature", TINY_FEATURE, *TINY_ARGS)


def _results(report_dir: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((report_dir / "results.json").read_text(encoding="utf-8"))
    return loaded


def _by_name(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {scenario["name"]: scenario for scenario in results["scenarios"]}


def test_results_json_matches_its_schema(tiny_run: tuple[int, Path, str]) -> None:
    _, report_dir, output = tiny_run
    results = _results(report_dir)
    validate(results, "results.schema")
    seed = results["seed"]
    assert f"seed: {seed} (--seed {seed} replays" in output, "a run without --seed prints the seed it drew"


def test_every_verdict_and_the_exit_status(tiny_run: tuple[int, Path, str]) -> None:
    status, report_dir, output = tiny_run
    results = _results(report_dir)
    assert status == 1, "a failed scenario must make the exit status non-zero"
    assert results["exit_status"] == 1 and results["interrupted"] is False
    outcomes = {name: scenario["outcome"] for name, scenario in _by_name(results).items()}
    assert outcomes == {
        "The version answers": "passed",
        "A deliberately wrong expectation": "failed",
        "A known deviation": "expected-failure",
        "A deviation whose entry expired": "failed",
        "A capability the target lacks": "unsupported",
        "An endpoint of a capability answers 501": "unsupported",
        "A step without a definition": "error",
        "A scenario the user left out": "disabled",
    }, output
    assert results["totals"] == {
        "passed": 1,
        "failed": 2,
        "error": 1,
        "unsupported": 2,
        "disabled": 1,
        "expected_failure": 1,
        "total": 8,
        "verdict": "failed",
    }
    assert results["areas"] == {"api_description": results["totals"]}
    assert results["capabilities"]["absent_feature"]["verdict"] == "unsupported"
    assert results["capabilities"]["present_feature"]["verdict"] == "unsupported"
    assert results["profile"]["name"] == "tiny" and results["profile"]["chosen_by"] == "--profile"


def test_messages_say_why(tiny_run: tuple[int, Path, str]) -> None:
    _, report_dir, _ = tiny_run
    by_name = _by_name(_results(report_dir))
    assert by_name["A capability the target lacks"]["message"] == "unsupported: absent_feature"
    assert "answered 501" in by_name["An endpoint of a capability answers 501"]["message"]
    assert "expected status 418" in by_name["A deliberately wrong expectation"]["message"]
    assert by_name["A deliberately wrong expectation"]["clauses"] == ["S9.1"]
    expired = by_name["A deviation whose entry expired"]
    assert expired["expectation"] == "expired" and "expired on 2000-01-01" in expired["message"]
    assert by_name["A known deviation"]["expectation"] == "expected-failure"
    assert by_name["The version answers"]["expectation"] == "fixed"
    assert by_name["A scenario the user left out"]["message"].startswith("disabled: not selected")
    undefined = by_name["A step without a definition"]
    assert [step["status"] for step in undefined["steps"]] == ["undefined", "not run"]


def test_expectations_are_summarised(tiny_run: tuple[int, Path, str]) -> None:
    _, report_dir, output = tiny_run
    summary = _results(report_dir)["expectations"]
    assert summary["file"] == "expectations.yaml"
    assert [entry["scenario"] for entry in summary["fixed"]] == ["tiny::The version answers"]
    assert [entry["scenario"] for entry in summary["expected_failures"]] == ["tiny::A known deviation"]
    assert summary["expected_failures"][0]["link"] == "https://example.invalid/issue/1"
    assert [entry["expires"] for entry in summary["expired"]] == ["2000-01-01"]
    assert "fixed: remove this entry: tiny::The version answers" in output


def test_failure_transcript_and_steps_are_kept_with_credentials_masked(tiny_run: tuple[int, Path, str]) -> None:
    _, report_dir, _ = tiny_run
    failed = _by_name(_results(report_dir))["A deliberately wrong expectation"]
    exchanges = failed["transcript"]
    assert [exchange["url"].rsplit("/", 1)[-1] for exchange in exchanges] == ["version"]
    assert exchanges[0]["status"] == 200
    assert exchanges[0]["request_headers"]["Authorization"] == "token ***"
    assert [(step["keyword"], step["status"]) for step in failed["steps"]] == [("When", "passed"), ("Then", "failed")]
    assert failed["operations"] == ["GET /version"]
    passed = _by_name(_results(report_dir))["The version answers"]
    assert passed["transcript"] == [] and passed["operations"] == ["GET /version"]
    for name in ("results.json", "junit.xml", "cucumber.json", "report.html"):
        text = (report_dir / name).read_text(encoding="utf-8")
        assert not re.search(r"[0-9a-f]{40}", text), f"{name} holds something that looks like the admin token"


def test_operation_and_clause_coverage(tiny_run: tuple[int, Path, str]) -> None:
    _, report_dir, _ = tiny_run
    results = _results(report_dir)
    operations = results["operation_coverage"]
    assert "/swagger.v1.json" in operations["source"]
    assert operations["covered"] == 1 and operations["total"] > 100
    assert all(op["path"] != "/version" for op in operations["uncovered"])
    gitea = results["gitea_operation_coverage"]
    assert gitea["source"] == "Gitea 1.27.3" and gitea["total"] == 482 and gitea["covered"] == 1
    assert gitea["by_tag"]["miscellaneous"]["covered"] == 1 and sum(t["total"] for t in gitea["by_tag"].values()) == 482
    assert "GET /activitypub/actor" in operations["unmatched_requests"]
    clause = next(row for row in results["clause_coverage"] if row["id"] == "S9.1")
    assert clause["verdict"] == "failed"
    assert clause["scenarios"] == [{"id": "tiny::A deliberately wrong expectation", "outcome": "failed"}]


def test_html_report_is_one_readable_file(tiny_run: tuple[int, Path, str]) -> None:
    _, report_dir, _ = tiny_run
    html = (report_dir / "report.html").read_text(encoding="utf-8")
    assert html.count("<script") == 1 and "<script>" in html, "one inline script (the filters), nothing loaded"
    assert "<link" not in html and 'src="' not in html
    order = [
        "<h2>Areas",
        "<h2>Charts",
        '<h2 id="scenarios">Scenarios (8)',
        "<h2>Failures and errors (3)",
        "<h2>Clause coverage",
        "<h2>Operations without",
        "<h2>Expectations",
    ]
    positions = [html.index(heading) for heading in order]
    assert positions == sorted(positions)
    assert "tiny::A deliberately wrong expectation" in html and "Authorization: token ***" in html
    assert "fixed: remove this entry" in html


def test_junit_and_cucumber_reports_are_written(tiny_run: tuple[int, Path, str]) -> None:
    _, report_dir, _ = tiny_run
    cucumber = json.loads((report_dir / "cucumber.json").read_text(encoding="utf-8"))
    assert [feature["name"] for feature in cucumber] == ["A tiny suite"]
    junit = (report_dir / "junit.xml").read_text(encoding="utf-8")
    assert 'tests="7"' in junit and 'failures="3"' in junit
    assert "HTTP transcript" in junit, "the failure's transcript is attached to the JUnit report"
    assert (report_dir / "reference-server.log").read_text(encoding="utf-8").startswith("reference-server")


def test_xdist_workers_give_the_same_results(tiny_run: tuple[int, Path, str], tmp_path: Path) -> None:
    """Two workers share one reference server (each worker's own embedded server is the parallel runner's
    business); the controller's reports must equal the serial run's."""
    pytest.importorskip("xdist")
    server = EmbeddedServer(tmp_path / "server.log")
    base_url = server.start()
    try:
        target = ("--target", base_url, "--token", server.admin_token)
        status, report_dir, output = _run(
            tmp_path / "run", "tiny.feature", TINY_FEATURE, *TINY_ARGS, *target, "-n", "2", "--seed", "31337"
        )
    finally:
        server.stop()
    serial, parallel = _results(tiny_run[1]), _results(report_dir)
    validate(parallel, "results.schema")
    assert status == tiny_run[0], output
    assert parallel["totals"] == serial["totals"]
    outcomes = {(s["id"], s["outcome"], s["expectation"]) for s in parallel["scenarios"]}
    assert outcomes == {(s["id"], s["outcome"], s["expectation"]) for s in serial["scenarios"]}
    assert parallel["target"] == {"url": base_url, "version": serial["target"]["version"], "embedded": False}
    assert parallel["operation_coverage"]["covered"] == serial["operation_coverage"]["covered"]
    failed = _by_name(parallel)["A deliberately wrong expectation"]
    assert failed["transcript"] and failed["steps"], "a worker's transcript and steps reach the controller"
    assert parallel["seed"] == 31337 and "seed: 31337 (--seed 31337 replays" in output, "--seed is the run's seed"


def test_an_interrupted_run_still_reports_what_ran(tmp_path: Path) -> None:
    status, report_dir, output = _run(tmp_path, "interrupted.feature", INTERRUPTED_FEATURE)
    results = _results(report_dir)
    validate(results, "results.schema")
    assert status == 2 and results["interrupted"] is True, output
    outcomes = {scenario["name"]: scenario["outcome"] for scenario in results["scenarios"]}
    assert outcomes == {"The first scenario runs": "passed", "The second scenario is interrupted": "error"}
    assert (report_dir / "report.html").exists()


def test_under_xdist_an_unknown_expectation_id_stops_the_run_before_any_worker_runs(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    (tmp_path / "tiny.feature").write_text(TINY_FEATURE, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_tiny.py").write_text(BINDING.format(feature="tiny.feature"), encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers -p no:cacheprovider\n", encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(
        "expectations:\n  - id: 'tiny::No such scenario'\n    reason: r\n", encoding="utf-8"
    )
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "out", "--expectations", "bad.yaml", "-n", "2", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 6, completed.stdout + completed.stderr
    assert "bad.yaml names unknown scenarios: tiny::No such scenario" in completed.stderr
    assert not (tmp_path / "out" / "results.json").exists()


def test_a_run_with_a_baseline_says_first_what_changed(tiny_run: tuple[int, Path, str], tmp_path: Path) -> None:
    """The tiny suite compared with its own results, edited: two regressions, a fix, an added and a removed id."""
    baseline = _results(tiny_run[1])
    was = {"A deliberately wrong expectation": "passed", "A step without a definition": "passed"}
    was |= {"A known deviation": "failed"}
    for scenario in baseline["scenarios"]:
        scenario["outcome"] = was.get(scenario["name"], scenario["outcome"])
    baseline["scenarios"] = [s for s in baseline["scenarios"] if s["name"] != "The version answers"]
    baseline["scenarios"].append({"id": "tiny::A scenario since deleted", "outcome": "passed"})
    baseline["gitea_operation_coverage"]["covered"] = 0
    baseline["gitea_operation_coverage"]["by_tag"]["miscellaneous"]["covered"] = 0
    root = tmp_path / "run"
    root.mkdir()
    (root / "base.json").write_text(json.dumps(baseline), encoding="utf-8")
    status, report_dir, output = _run(root, "tiny.feature", TINY_FEATURE, *TINY_ARGS, "--baseline", "base.json")
    results = _results(report_dir)
    validate(results, "results.schema")
    comparison = results["comparison"]
    assert comparison["newly_failing"] == [
        {"id": "tiny::A deliberately wrong expectation", "before": "passed", "now": "failed"},
        {"id": "tiny::A step without a definition", "before": "passed", "now": "error"},
    ], output
    assert comparison["newly_passing"] == []
    assert comparison["changed"] == [{"id": "tiny::A known deviation", "before": "failed", "now": "expected-failure"}]
    assert comparison["added"] == [{"id": "tiny::The version answers", "outcome": "passed"}]
    assert comparison["removed"] == [{"id": "tiny::A scenario since deleted", "outcome": "passed"}]
    gitea = comparison["coverage"]["gitea_operations"]
    assert (gitea["before"], gitea["now"]) == (0, 1)
    assert gitea["changes"] == [
        {"group": "miscellaneous", "before": 0, "now": 1, "total": gitea["changes"][0]["total"]}
    ]
    assert comparison["baseline"]["file"].endswith("base.json") and comparison["notes"] == []
    section = output[output.index("= conformance =") :].splitlines()
    assert section[1].startswith("compared with the baseline ") and "base.json" in section[1], output
    assert section[2] == "  2 newly failing, 0 newly passing, 1 other change(s), 1 added, 1 removed, 4 unchanged"
    html = (report_dir / "report.html").read_text(encoding="utf-8")
    assert html.index("Compared with the baseline") < html.index("<h2>Areas")
    assert status == 1


def test_an_unusable_baseline_stops_the_run_before_anything_runs(tmp_path: Path) -> None:
    (tmp_path / "tiny.feature").write_text(TINY_FEATURE, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_tiny.py").write_text(BINDING.format(feature="tiny.feature"), encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers -p no:cacheprovider\n", encoding="utf-8")
    (tmp_path / "junk.json").write_text('{"totals": {}}', encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "out", "--baseline", "junk.json", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 6, completed.stdout + completed.stderr
    assert "junk.json is not a conformance results.json" in completed.stdout + completed.stderr
    assert not (tmp_path / "out" / "results.json").exists()
