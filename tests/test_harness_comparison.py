"""``--baseline``: a run compared with an earlier one by scenario id, with coverage deltas, first in the summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conformance.comparison import BaselineError, compare, comparison_lines, load_baseline
from conformance.report_html import render_report
from conformance.results import RunResults, ScenarioResult, summary_lines
from conformance.schemas import validate


def _scenario(scenario_id: str, outcome: str, area: str = "users") -> ScenarioResult:
    return ScenarioResult(
        id=scenario_id,
        feature="F",
        feature_file=f"{area}/f.feature",
        name=scenario_id.rsplit("::", 1)[-1],
        area=area,
        tags=[area, "gitea"],
        clauses=[],
        outcome=outcome,
        message="",
    )


def _coverage(covered: dict[str, int], source: str = "Gitea 1.27.3") -> dict[str, Any]:
    by_tag = {tag: {"covered": count, "total": 10} for tag, count in covered.items()}
    return {
        "source": source,
        "total": 10 * len(covered),
        "covered": sum(covered.values()),
        "by_tag": by_tag,
        "uncovered": [],
        "unmatched_requests": [],
    }


def _clauses(verdicts: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {"id": cid, "section": cid.split(".")[0], "text": "t", "verdict": verdict, "scenarios": []}
        for cid, verdict in verdicts.items()
    ]


def _run(outcomes: dict[str, str], *, url: str = "http://forge.test/", profile: str = "gitea-1.27") -> RunResults:
    results = RunResults(
        target_url=url,
        target_version="1.27.3",
        target_embedded=False,
        kit_version="0.1.0",
        run_prefix="ckabc123",
        started="2026-11-28T09:00:00+00:00",
    )
    results.profile = {"name": profile, "chosen_by": "--profile", "description": "", "file": None}
    results.scenarios = [_scenario(sid, outcome) for sid, outcome in outcomes.items()]
    return results


BEFORE = {
    "users/a::Regresses": "passed",
    "users/a::Errors now": "expected-failure",
    "users/a::Still failing": "failed",
    "users/a::Fixed": "failed",
    "users/a::Was off": "disabled",
    "users/a::Lost a capability": "passed",
    "users/a::Steady": "passed",
    "users/a::Deleted": "passed",
}
NOW = {
    "users/a::Regresses": "failed",
    "users/a::Errors now": "error",
    "users/a::Still failing": "failed",
    "users/a::Fixed": "passed",
    "users/a::Was off": "passed",
    "users/a::Lost a capability": "unsupported",
    "users/a::Steady": "passed",
    "users/a::Brand new": "failed",
}


@pytest.fixture
def documents() -> tuple[dict[str, Any], dict[str, Any]]:
    """The current run and its baseline as results.json documents, coverage moved both ways."""
    before, now = _run(BEFORE), _run(NOW)
    before.gitea_operation_coverage = _coverage({"issue": 4, "repository": 7})
    now.gitea_operation_coverage = _coverage({"issue": 6, "repository": 5})
    before.operation_coverage = _coverage({"issue": 4, "repository": 7}, "own")
    now.operation_coverage = _coverage({"issue": 4, "repository": 7}, "own")
    before.clause_coverage = _clauses({"S1.1": "covered", "S1.2": "failed", "S2.1": "covered"})
    now.clause_coverage = _clauses({"S1.1": "covered", "S1.2": "covered", "S2.1": "failed"})
    return now.as_dict(), before.as_dict()


def test_scenarios_are_sorted_into_newly_failing_newly_passing_changed_added_removed(
    documents: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    comparison = compare(*documents)
    assert comparison["newly_failing"] == [
        {"id": "users/a::Regresses", "before": "passed", "now": "failed"},
        {"id": "users/a::Errors now", "before": "expected-failure", "now": "error"},
    ]
    assert comparison["newly_passing"] == [
        {"id": "users/a::Fixed", "before": "failed", "now": "passed"},
        {"id": "users/a::Was off", "before": "disabled", "now": "passed"},
    ]
    assert comparison["changed"] == [{"id": "users/a::Lost a capability", "before": "passed", "now": "unsupported"}]
    assert comparison["added"] == [{"id": "users/a::Brand new", "outcome": "failed"}]
    assert comparison["removed"] == [{"id": "users/a::Deleted", "outcome": "passed"}]
    assert comparison["unchanged"] == 2, "Still failing and Steady"
    assert comparison["notes"] == []


def test_coverage_deltas_per_tag_and_per_section(documents: tuple[dict[str, Any], dict[str, Any]]) -> None:
    coverage = compare(*documents)["coverage"]
    gitea = coverage["gitea_operations"]
    assert (gitea["before"], gitea["now"], gitea["total"]) == (11, 11, 20)
    assert gitea["changes"] == [
        {"group": "issue", "before": 4, "now": 6, "total": 10},
        {"group": "repository", "before": 7, "now": 5, "total": 10},
    ], "equal totals can hide moves between tags"
    assert coverage["operations"]["changes"] == [] and coverage["operations"]["now"] == 11
    clauses = coverage["clauses"]
    assert (clauses["before"], clauses["now"], clauses["total"]) == (2, 2, 3)
    assert clauses["changes"] == [
        {"group": "S1", "before": 1, "now": 2, "total": 2},
        {"group": "S2", "before": 1, "now": 0, "total": 1},
    ]


def test_the_comparison_is_valid_results_json(documents: tuple[dict[str, Any], dict[str, Any]]) -> None:
    now, before = documents
    now["comparison"] = compare(now, before)
    validate(now, "results.schema")
    validate(before, "results.schema")  # no comparison at all: null


def test_another_target_or_profile_is_compared_but_noted() -> None:
    before = _run({"users/a::X": "passed"}, url="http://other.test/", profile="spec").as_dict()
    now = _run({"users/a::X": "failed"}).as_dict()
    comparison = compare(now, before)
    assert comparison["notes"] == [
        "the baseline ran against another target (http://other.test/)",
        "the baseline used another profile (spec)",
    ]
    assert [row["id"] for row in comparison["newly_failing"]] == ["users/a::X"]


def test_embedded_servers_on_different_ports_are_the_same_target() -> None:
    before, now = _run({"a::X": "passed"}), _run({"a::X": "passed"})
    before.target_embedded = now.target_embedded = True
    before.target_url, now.target_url = "http://127.0.0.1:4001/", "http://127.0.0.1:4002/"
    assert compare(now.as_dict(), before.as_dict())["notes"] == []


def test_the_comparison_comes_first_in_the_terminal_summary(documents: tuple[dict[str, Any], dict[str, Any]]) -> None:
    now_doc, before_doc = documents
    results = _run(NOW)
    results.comparison = compare(now_doc, before_doc | {"_file": "base/results.json"})
    lines = [text for text, _ in summary_lines(results, None)]
    assert lines[0].startswith("compared with the baseline base/results.json (http://forge.test/, gitea-1.27,")
    assert lines[1] == "  2 newly failing, 2 newly passing, 1 other change(s), 1 added, 1 removed, 2 unchanged"
    assert lines[2:5] == [
        "newly failing (2):",
        "  users/a::Regresses (was passed)",
        "  users/a::Errors now (was expected-failure)",
    ]
    assert (
        "  coverage: operations reached 11 → 11 (±0); Gitea operations reached 11 → 11 (±0); clauses covered 2 → 2 (±0)"
        in lines
    )
    coverage_line = next(index for index, line in enumerate(lines) if line.startswith("  coverage: "))
    target_line = next(index for index, line in enumerate(lines) if line.startswith("target: "))
    assert coverage_line < target_line, "the whole comparison comes before the run's own summary"
    markup = dict(summary_lines(results, None))
    assert markup["newly failing (2):"] == {"red": True, "bold": True}


def test_long_lists_are_cut_in_the_terminal_only() -> None:
    before = _run({f"a::S{i}": "passed" for i in range(40)}).as_dict()
    now = _run({f"a::S{i}": "failed" for i in range(40)}).as_dict()
    comparison = compare(now, before)
    lines = [text for text, _ in comparison_lines(comparison)]
    assert "  ... and 25 more (results.json, report.html)" in lines
    assert len(comparison["newly_failing"]) == 40
    assert render_report({**now, "comparison": comparison}).count("<code>a::S") == 40


def test_the_report_opens_with_the_comparison(documents: tuple[dict[str, Any], dict[str, Any]]) -> None:
    now, before = documents
    html = render_report({**now, "comparison": compare(now, before | {"_file": "base.json"})})
    section = html[html.index('<section class="comparison worse"') : html.index("</section>")]
    assert html.index("Compared with the baseline") < html.index("<h2>Areas")
    assert "Newly failing (2)" in section and "Newly passing (2)" in section and "Removed scenarios (1)" in section
    assert "<code>users/a::Regresses</code>" in section and "base.json" in section
    assert "issue 4→6/10, repository 7→5/10" in section
    assert "Compared with the baseline" not in render_report(now), "no baseline, no section"


def test_a_baseline_file_is_checked_when_read(tmp_path: Path, documents: tuple[dict[str, Any], dict[str, Any]]) -> None:
    good = tmp_path / "results.json"
    good.write_text(json.dumps(documents[1]), encoding="utf-8")
    assert load_baseline(good)["_file"] == str(good)
    with pytest.raises(BaselineError, match="cannot read the baseline"):
        load_baseline(tmp_path / "missing.json")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(BaselineError, match="is not JSON"):
        load_baseline(tmp_path / "broken.json")
    (tmp_path / "other.json").write_text('{"scenarios": [{"id": "x", "outcome": "green"}]}', encoding="utf-8")
    with pytest.raises(BaselineError, match=r"is not a conformance results\.json"):
        load_baseline(tmp_path / "other.json")
    (tmp_path / "list.json").write_text("[]", encoding="utf-8")
    with pytest.raises(BaselineError, match=r"is not a conformance results\.json"):
        load_baseline(tmp_path / "list.json")
