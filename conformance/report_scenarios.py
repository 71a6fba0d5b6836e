"""The parts of ``report.html`` a gate reads first or searches: the baseline comparison, the charts, and the
filterable list of every scenario.

Each scenario row (and each failure block, through :func:`scenario_attributes`) carries its outcome,
area, tags, capabilities and a lower-cased search text as ``data-*`` attributes, which the page's
script (``report_assets.SCRIPT``) filters on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .report_assets import badge, esc
from .report_charts import area_chart, duration_chart
from .tags import AREAS

__all__ = ["charts_section", "comparison_section", "scenario_attributes", "scenarios_section"]

CAPABILITY_PREFIX = "capability_"
FOLDED_AFTER = 25
"""A longer list of the comparison is folded (a baseline from an older suite can add hundreds)."""


def scenario_attributes(scenario: Mapping[str, Any]) -> str:
    """The ``data-*`` attributes the filters read (tags without their area and capability tags)."""
    tags = " ".join(tag for tag in scenario["tags"] if tag not in AREAS and not tag.startswith(CAPABILITY_PREFIX))
    text = " ".join((scenario["id"], scenario["name"], scenario["feature"], scenario["message"])).lower()
    return (
        f' data-sid="{esc(scenario["id"])}" data-outcome="{esc(scenario["outcome"])}"'
        f' data-area="{esc(scenario["area"])}"'
        f' data-tags="{esc(tags)}" data-capabilities="{esc(" ".join(scenario["capabilities"]))}"'
        f' data-text="{esc(text)}"'
    )


def _options(name: str, label: str, counts: Counter[str], first: str = '<option value="">any</option>') -> str:
    options = "".join(
        f'<option value="{esc(value)}">{esc(value)} ({count})</option>' for value, count in sorted(counts.items())
    )
    return f'<label>{esc(label)}<select name="{name}">{first}{options}</select></label>'


def _filters(scenarios: list[dict[str, Any]]) -> str:
    outcomes = Counter(s["outcome"] for s in scenarios)
    areas = Counter(s["area"] for s in scenarios)
    tags: Counter[str] = Counter()
    capabilities: Counter[str] = Counter()
    for scenario in scenarios:
        tags.update(t for t in scenario["tags"] if t not in AREAS and not t.startswith(CAPABILITY_PREFIX))
        capabilities.update(scenario["capabilities"])
    return (
        '<form id="filters" role="search" aria-label="Filter the scenarios" hidden>'
        + _options(
            "outcome",
            "outcome",
            outcomes,
            f'<option value="">any that ran ({len(scenarios) - outcomes["disabled"]})</option>'
            f'<option value="all">any, disabled too ({len(scenarios)})</option>',
        )
        + _options("area", "area", areas)
        + _options("tag", "tag", tags)
        + _options("capability", "capability", capabilities)
        + '<label>text<input type="search" name="q" placeholder="name, id, message…"></label>'
        + '<button type="reset">clear</button><output id="filter-status" aria-live="polite"></output></form>'
        "<noscript><p><small>The filters need JavaScript; every scenario is listed.</small></p></noscript>"
    )


def _row(scenario: dict[str, Any]) -> str:
    tags = " ".join("@" + tag for tag in scenario["tags"])
    message = f"<small>{esc(scenario['message'][:300])}</small>" if scenario["message"] else ""
    duration = f"{float(scenario['duration']):.2f}" if scenario["outcome"] != "disabled" else ""
    return (
        f"<tr{scenario_attributes(scenario)}><td>{badge(scenario['outcome'])}</td>"
        f"<td>{esc(scenario['name'])}<small>{esc(scenario['id'])}</small>{message}</td>"
        f"<td>{esc(scenario['area'])}</td><td><small>{esc(tags)}</small></td>"
        f'<td class="n">{duration}</td></tr>'
    )


def scenarios_section(results: Mapping[str, Any]) -> str:
    """Every scenario of the run, disabled ones too, under the filter form."""
    scenarios = results["scenarios"]
    rows = "".join(_row(scenario) for scenario in scenarios)
    return (
        f'<h2 id="scenarios">Scenarios ({len(scenarios)})</h2>'
        "<p><small>Filter by outcome, area, tag, capability or text (disabled scenarios are shown when asked "
        "for); the filters also apply to the failures below, and the address keeps them, so a filtered view "
        "can be linked.</small></p>"
        + _filters(scenarios)
        + '<div class="scroll"><table class="scenarios"><thead><tr><th>outcome</th><th>scenario</th><th>area</th>'
        f"<th>tags</th><th>seconds</th></tr></thead><tbody>{rows}</tbody></table></div>"
    )


def charts_section(results: Mapping[str, Any]) -> str:
    """The outcome and duration charts (nothing when no scenario ran)."""
    charts = area_chart(results["areas"]) + duration_chart(results["scenarios"])
    return f'<h2>Charts</h2><div class="charts">{charts}</div>' if charts else ""


def _change_list(title: str, rows: list[dict[str, str]], css: str) -> str:
    if not rows:
        return ""
    items = "".join(
        f"<li>{badge(row['before'])} → {badge(row['now'])} <code>{esc(row['id'])}</code></li>"
        if "before" in row
        else f"<li>{badge(row['outcome'])} <code>{esc(row['id'])}</code></li>"
        for row in rows
    )
    heading = f'<h3 class="{css}">{esc(title)} ({len(rows)})</h3>'
    if len(rows) > FOLDED_AFTER:
        return f"<details><summary>{heading}</summary><ul>{items}</ul></details>"
    return f"{heading}<ul>{items}</ul>"


def _coverage_rows(coverage: Mapping[str, Any]) -> str:
    rows = []
    for key, title in (
        ("operations", "operations reached (the target's description)"),
        ("gitea_operations", "operations reached (Gitea's list)"),
        ("clauses", "clauses covered"),
    ):
        delta = coverage[key]
        moved = delta["now"] - delta["before"]
        css = "up" if moved > 0 else "down" if moved < 0 else ""
        groups = ", ".join(
            f"{esc(row['group'])} {row['before']}→{row['now']}/{row['total']}" for row in delta["changes"]
        )
        rows.append(
            f"<tr><td>{esc(title)}</td><td class='n'>{delta['before']}</td><td class='n'>{delta['now']}</td>"
            f"<td class='n {css}'>{moved:+d}</td><td class='n'>{delta['total']}</td>"
            f"<td><small>{groups or 'no change'}</small></td></tr>"
        )
    return (
        "<table><tr><th>coverage</th><th>baseline</th><th>now</th><th>change</th><th>of</th>"
        f"<th>per tag or section</th></tr>{''.join(rows)}</table>"
    )


def comparison_section(results: Mapping[str, Any]) -> str:
    """The comparison with ``--baseline``, first on the page (nothing without a baseline)."""
    comparison = results.get("comparison")
    if not comparison:
        return ""
    base = comparison["baseline"]
    failing, passing = comparison["newly_failing"], comparison["newly_passing"]
    css = "worse" if failing else "better" if passing else ""
    notes = "".join(f'<p class="note">Note: {esc(note)}.</p>' for note in comparison["notes"])
    summary = (
        f"{len(failing)} newly failing, {len(passing)} newly passing, {len(comparison['changed'])} other change(s), "
        f"{len(comparison['added'])} added, {len(comparison['removed'])} removed, {comparison['unchanged']} unchanged."
    )
    return (
        f'<section class="comparison {css}" id="comparison"><h2>Compared with the baseline</h2>'
        f"<p><small>{esc(base['file'])} — {esc(base['target'])} {esc(base['version'])}, profile "
        f"{esc(base['profile'])}, started {esc(base['started'])}</small></p>{notes}<p><b>{esc(summary)}</b></p>"
        + _change_list("Newly failing", failing, "down")
        + _change_list("Newly passing", passing, "up")
        + _change_list("Other changes of outcome", comparison["changed"], "")
        + _change_list("Added scenarios", comparison["added"], "")
        + _change_list("Removed scenarios", comparison["removed"], "")
        + _coverage_rows(comparison["coverage"])
        + "</section>"
    )
