"""A tiny suite run for real (embedded reference server, real HTTP) writes reports that match their schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance.schemas import validate

pytest_plugins = ["pytester"]

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

  @reference @capability_absent_feature
  Scenario: A capability the target lacks
    When the admin sends GET "version"
    Then the response status is 200
"""

CONFTEST = """\
from conformance.capabilities import register_probe

register_probe("absent_feature")(lambda admin: False)

pytest_plugins = ["conformance.plugin", "steps.common", "steps.api_description"]
"""

BINDING = """\
from pathlib import Path
from pytest_bdd import scenarios

scenarios(str(Path(__file__).parent / "tiny.feature"))
"""


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    """Run the tiny suite once in a subprocess; the exit status and the report directory."""
    import subprocess
    import sys

    root = tmp_path_factory.mktemp("tiny")
    (root / "tiny.feature").write_text(TINY_FEATURE, encoding="utf-8")
    (root / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (root / "test_tiny.py").write_text(BINDING, encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers -p no:cacheprovider\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "out", "-q"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert (root / "out" / "results.json").exists(), completed.stdout + completed.stderr
    return completed.returncode, root / "out"


def _results(report_dir: Path) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((report_dir / "results.json").read_text(encoding="utf-8"))
    return loaded


def test_results_json_matches_its_schema(tiny_run: tuple[int, Path]) -> None:
    _, report_dir = tiny_run
    validate(_results(report_dir), "results.schema")


def test_outcomes_counts_and_verdict(tiny_run: tuple[int, Path]) -> None:
    status, report_dir = tiny_run
    results = _results(report_dir)
    assert status == 1, "a failed scenario must make the exit status non-zero"
    assert results["exit_status"] == 1
    assert results["totals"] == {"passed": 1, "failed": 1, "error": 0, "skipped": 1, "total": 3, "verdict": "failed"}
    assert results["areas"] == {"api_description": results["totals"]}
    by_name = {scenario["name"]: scenario for scenario in results["scenarios"]}  # type: ignore[attr-defined]
    assert by_name["The version answers"]["outcome"] == "passed"
    assert by_name["A capability the target lacks"]["outcome"] == "skipped"
    assert by_name["A capability the target lacks"]["message"] == "unsupported: absent_feature"
    failed = by_name["A deliberately wrong expectation"]
    assert failed["outcome"] == "failed"
    assert failed["clauses"] == ["S9.1"]
    assert "expected status 418" in failed["message"]
    target = results["target"]
    assert isinstance(target, dict) and target["embedded"] is True and target["version"]


def test_failure_transcript_is_kept_with_credentials_masked(tiny_run: tuple[int, Path]) -> None:
    _, report_dir = tiny_run
    results = _results(report_dir)
    failed = next(s for s in results["scenarios"] if s["outcome"] == "failed")  # type: ignore[attr-defined]
    exchanges = failed["transcript"]
    assert [exchange["url"].rsplit("/", 1)[-1] for exchange in exchanges] == ["version"]
    assert exchanges[0]["status"] == 200
    assert exchanges[0]["request_headers"]["Authorization"] == "token ***"
    passed = next(s for s in results["scenarios"] if s["outcome"] == "passed")  # type: ignore[attr-defined]
    assert passed["transcript"] == [], "only failures carry a transcript"
    for name in ("results.json", "junit.xml", "cucumber.json"):
        text = (report_dir / name).read_text(encoding="utf-8")
        assert not re.search(r"[0-9a-f]{40}", text), f"{name} holds something that looks like the admin token"


def test_junit_and_cucumber_reports_are_written(tiny_run: tuple[int, Path]) -> None:
    _, report_dir = tiny_run
    cucumber = json.loads((report_dir / "cucumber.json").read_text(encoding="utf-8"))
    assert [feature["name"] for feature in cucumber] == ["A tiny suite"]
    junit = (report_dir / "junit.xml").read_text(encoding="utf-8")
    assert 'tests="3"' in junit and 'failures="1"' in junit
    assert "HTTP transcript" in junit, "the failure's transcript is attached to the JUnit report"
    assert (report_dir / "reference-server.log").read_text(encoding="utf-8").startswith("reference-server")
