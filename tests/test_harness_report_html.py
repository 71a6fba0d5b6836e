"""report.html: one self-contained page, sections in reading order, everything escaped."""

from __future__ import annotations

from typing import Any

from conformance.report_html import render_report
from conformance.results import RunResults, ScenarioResult


def _results() -> dict[str, Any]:
    failed = ScenarioResult(
        id="users/x::A <b>bold</b> failure",
        feature="Users",
        feature_file="users/x.feature",
        name="A <b>bold</b> failure",
        area="users",
        tags=["users", "spec", "clause_S9_1"],
        clauses=["S9.1"],
        outcome="failed",
        message="expected status 201, got 500",
        steps=[
            {"keyword": "Given", "text": 'a user "alice"', "type": "given", "status": "passed"},
            {"keyword": "When", "text": "alice does <it>", "type": "when", "status": "passed"},
            {"keyword": "Then", "text": "the response status is 201", "type": "then", "status": "failed"},
        ],
        transcript=[
            {
                "method": "POST",
                "url": "http://forge.test/api/v1/users?token=***",
                "status": 500,
                "request_headers": {"Authorization": "token ***"},
                "request_body": '{"name": "<script>alert(1)</script>"}',
                "response_headers": {"Content-Type": "application/json"},
                "response_body": '{"message": "boom"}',
                "elapsed_ms": 3.5,
                "error": "",
            }
        ],
    )
    passed = ScenarioResult(
        id="users/x::Fine",
        feature="Users",
        feature_file="users/x.feature",
        name="Fine",
        area="users",
        tags=["users", "gitea"],
        clauses=[],
        outcome="passed",
        expectation="fixed",
    )
    disabled = ScenarioResult(
        id="pins/y::Off",
        feature="Pins",
        feature_file="pins/y.feature",
        name="Off",
        area="pins",
        tags=["pins", "gitea"],
        clauses=[],
        outcome="disabled",
        message="disabled: not selected (-m, -k or the scenarios named)",
    )
    results = RunResults(
        target_url="http://forge.test/",
        target_version="1.27.3",
        kit_version="0.1.0",
        run_prefix="ckabc123",
        started="2026-11-24T02:00:00+00:00",
        duration=2.0,
        exit_status=1,
        scenarios=[failed, passed, disabled],
    )
    results.profile = {"name": "gitea-1.27", "chosen_by": "--profile", "description": "", "file": None}
    results.expectations["file"] = "gitea.yaml"
    results.expectations["fixed"] = [
        {
            "id": "users/x::Fine",
            "reason": "was broken",
            "link": "https://x.invalid/1",
            "expires": None,
            "scenario": "users/x::Fine",
            "message": "",
        }
    ]
    return results.as_dict()


def test_the_page_is_self_contained_and_escaped() -> None:
    html = render_report(_results())
    assert html.startswith("<!DOCTYPE html>") and "<style>" in html
    assert html.count("<script") == 1 and "<script>" in html, "one inline script (the filters), nothing loaded"
    assert "<link" not in html and "src=" not in html and "http" not in html.split("<script>")[1]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "A &lt;b&gt;bold&lt;/b&gt; failure" in html


def test_sections_come_in_reading_order() -> None:
    html = render_report(_results())
    headings = [
        "<h2>Areas",
        "<h2>Charts",
        '<h2 id="scenarios">Scenarios (3)',
        "<h2>Failures and errors (1)",
        "<h2>Clause coverage",
        "<h2>Operations without",
        "<h2>Expectations",
        "<h2>Disabled scenarios (1)",
    ]
    positions = [html.index(heading) for heading in headings]
    assert positions == sorted(positions)


def test_a_failure_shows_its_steps_and_transcript() -> None:
    html = render_report(_results())
    failure = html[html.index("<h2>Failures") : html.index("<h2>Clause coverage")]
    assert '<li class="failed">Then the response status is 201' in failure
    assert '<li class="passed">When alice does &lt;it&gt;' in failure
    assert "&gt; POST http://forge.test/api/v1/users?token=***" in failure
    assert "&gt; Authorization: token ***" in failure and "&lt; 500" in failure


def test_areas_fixed_entries_and_disabled_reasons_are_shown() -> None:
    html = render_report(_results())
    areas = html[html.index("<h2>Areas") : html.index("<h2>Failures")]
    assert "<td>users</td>" in areas and "Not run in this run (disabled): pins" in areas
    assert html.count("fixed: remove this entry") == 2, "once at the top, once in the expectations"
    assert "1: disabled: not selected" in html


def test_every_scenario_row_carries_what_the_filters_read() -> None:
    html = render_report(_results())
    listing = html[html.index('<h2 id="scenarios">') : html.index("<h2>Failures")]
    assert listing.count("<tr data-sid=") == 3, "disabled scenarios are listed too"
    assert (
        '<tr data-sid="users/x::A &lt;b&gt;bold&lt;/b&gt; failure" data-outcome="failed" data-area="users"'
        ' data-tags="spec clause_S9_1" data-capabilities=""'
    ) in listing, "area tags are the area filter's, not the tag filter's"
    assert 'data-text="users/x::a &lt;b&gt;bold&lt;/b&gt; failure a &lt;b&gt;bold&lt;/b&gt; failure users' in listing
    assert (
        '<option value="failed">failed (1)</option>' in listing and '<option value="pins">pins (1)</option>' in listing
    )
    assert '<option value="spec">spec (1)</option>' in listing and '<option value="users">users (2)</option>' in listing
    failure = html[html.index("<h2>Failures") : html.index("<h2>Clause coverage")]
    assert '<div class="failure failed" data-sid="users/x::A &lt;b&gt;bold&lt;/b&gt; failure"' in failure


def test_the_charts_are_inline_svg_with_titles_and_links() -> None:
    html = render_report(_results())
    charts = html[html.index("<h2>Charts") : html.index('<h2 id="scenarios">')]
    assert charts.count('<svg role="img"') == 2 and '<title id="area-chart-title">' in charts
    assert '<a href="#area=users&amp;outcome=failed"><rect' in charts
    assert "<title>users: 1 failed</title>" in charts and "<title>users: 1 passed</title>" in charts
    assert "pins" not in charts, "an area where nothing ran has no bar"
    assert "<title>0.1\u20130.3s: 0 scenario(s)</title>" in charts
    assert "&lt;10ms: 2 scenario(s)" in charts, "the two that ran took 0 s; the disabled one is not counted"
