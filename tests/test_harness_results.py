"""The results writer: per-area and per-capability verdicts, clause ids from tags, an atomic results.json."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conformance.results import (
    RunResults,
    ScenarioResult,
    area_of,
    clauses_of,
    render_summary_table,
    summarise_areas,
    summarise_capabilities,
)
from conformance.schemas import validate


def _scenario(area: str, outcome: str, tags: list[str] | None = None) -> ScenarioResult:
    return ScenarioResult(
        id=f"{area}/x::{area} {outcome}",
        nodeid=f"suite/test_features.py::test_{area}_{outcome}",
        feature=f"{area} feature",
        feature_file=f"{area}/x.feature",
        name=f"{area} {outcome}",
        area=area,
        tags=tags or [area, "gitea"],
        clauses=[],
        outcome=outcome,
        duration=0.25,
    )


def test_area_and_clauses_come_from_tags() -> None:
    assert area_of({"spec", "artifacts", "clause_S5_2"}) == "artifacts"
    assert area_of({"spec"}) == "(none)"
    assert clauses_of({"spec", "clause_S5_2", "clause_S4_3_artifact_zip", "clause_unknown"}) == [
        "S4.3-artifact-zip",
        "S5.2",
    ]


def test_area_verdicts_full_partial_failed_unsupported_disabled() -> None:
    areas = summarise_areas(
        [
            _scenario("users", "passed"),
            _scenario("users", "passed"),
            _scenario("users", "disabled"),
            _scenario("orgs", "passed"),
            _scenario("orgs", "unsupported"),
            _scenario("contents", "passed"),
            _scenario("contents", "error"),
            _scenario("auth", "failed"),
            _scenario("auth", "expected-failure"),
            _scenario("lfs", "unsupported"),
            _scenario("lfs", "disabled"),
            _scenario("pins", "disabled"),
            _scenario("forks", "passed"),
            _scenario("forks", "expected-failure"),
        ]
    )
    assert {name: counts.verdict for name, counts in areas.items()} == {
        "auth": "failed",
        "contents": "failed",
        "forks": "partial",
        "lfs": "unsupported",
        "orgs": "partial",
        "pins": "disabled",
        "users": "full",
    }
    assert list(areas) == sorted(areas)
    assert areas["users"].as_dict() == {
        "passed": 2,
        "failed": 0,
        "error": 0,
        "unsupported": 0,
        "disabled": 1,
        "expected_failure": 0,
        "total": 3,
        "verdict": "full",
    }
    table = render_summary_table(areas)
    assert table[0].split() == ["area", "passed", "failed", "error", "unsupp", "xfail", "disabled", "verdict"]
    assert table[2].split() == ["auth", "0", "1", "0", "0", "1", "0", "failed"]


def test_capability_verdicts_come_from_the_scenarios_that_need_them() -> None:
    capabilities = summarise_capabilities(
        [
            _scenario("forks", "unsupported", ["forks", "spec", "capability_sync_fork"]),
            _scenario("forks", "passed", ["forks", "spec"]),
            _scenario("runs", "passed", ["runs", "reference", "reference_only"]),
        ]
    )
    assert {name: counts.verdict for name, counts in capabilities.items()} == {
        "reference_clock": "full",
        "sync_fork": "unsupported",
    }


def test_results_file_is_written_whole_and_valid(tmp_path: Path) -> None:
    results = RunResults(
        target_url="http://127.0.0.1:3000/",
        target_version="1.27.3",
        kit_version="0.1.0",
        run_prefix="ckabc123",
        started="2026-11-22T02:00:00+00:00",
        duration=1.5,
        profile={"name": "spec", "chosen_by": "--profile", "description": "", "file": None},
        scenarios=[_scenario("users", "passed"), _scenario("users", "unsupported")],
        leaks=[{"kind": "user", "name": "ckabc123-1-alice", "reason": "delete answered 500: boom"}],
    )
    path = tmp_path / "deep" / "results.json"
    results.write(path)
    written = json.loads(path.read_text(encoding="utf-8"))
    validate(written, "results.schema")
    assert written["totals"]["verdict"] == "partial"
    assert written["leaks"][0]["name"] == "ckabc123-1-alice"
    assert [p.name for p in path.parent.iterdir()] == ["results.json"], "no temporary file is left behind"


BROKEN_BINDING = """\
from pytest_bdd.exceptions import GherkinParseError

from suite.test_features import _broken_feature

test_unparsable_users_broken = _broken_feature(
    "users/broken.feature", GherkinParseError("A tag may not contain whitespace", 3, "  @a b", "broken.feature")
)
"""


def test_an_unparsable_feature_is_one_failed_record_of_its_area(tmp_path: Path) -> None:
    import subprocess
    import sys

    from conformance.paths import KIT_ROOT

    (tmp_path / "conftest.py").write_text('pytest_plugins = ["conformance.plugin"]\n', encoding="utf-8")
    (tmp_path / "test_broken.py").write_text(BROKEN_BINDING, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "out", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(KIT_ROOT)},
    )
    assert completed.returncode == 1, completed.stdout + completed.stderr
    written = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    validate(written, "results.schema")
    [record] = written["scenarios"]
    assert record["area"] == "users" and record["outcome"] == "failed"
    assert record["id"] == "users/broken::the feature file parses"
    assert "users/broken.feature does not parse" in record["message"]
