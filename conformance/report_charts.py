"""The charts of ``report.html``, drawn here as inline SVG (no script, no external asset, readable printed).

Two charts: the outcomes of each area as stacked bars (each segment a link to the scenario list
filtered on that area and outcome), and a histogram of scenario durations in logarithmic buckets
(a suite's durations span milliseconds to minutes). Each chart has a ``<title>`` and a ``<desc>``
for screen readers, and each bar a ``<title>`` that a pointer shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from .report_assets import OUTCOME_COLOURS
from .report_assets import esc as _e

__all__ = ["DURATION_BUCKETS", "area_chart", "duration_buckets", "duration_chart"]

DURATION_BUCKETS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
"""Upper bounds (seconds, exclusive) of the duration buckets; a last bucket takes the rest."""

EN_DASH = "\u2013"
COUNT_KEYS = {
    "passed": "passed",
    "failed": "failed",
    "error": "error",
    "expected-failure": "expected_failure",
    "unsupported": "unsupported",
    "disabled": "disabled",
}
"""Outcome (as a scenario carries it) → key of the counts objects of results.json."""


def _legend(outcomes: Sequence[str]) -> str:
    items = "".join(f'<span><i style="background:{OUTCOME_COLOURS[o]}"></i>{_e(o)}</span>' for o in outcomes)
    return f'<div class="legend" aria-hidden="true">{items}</div>'


def area_chart(areas: Mapping[str, Mapping[str, Any]]) -> str:
    """Stacked horizontal bars: per area that ran, its scenarios by outcome (disabled ones left out)."""
    shown = [o for o in OUTCOME_COLOURS if o != "disabled"]
    rows = {
        name: [(o, int(counts[COUNT_KEYS[o]])) for o in shown]
        for name, counts in areas.items()
        if counts["verdict"] != "disabled"
    }
    if not rows:
        return ""
    widest = max(sum(n for _, n in row) for row in rows.values()) or 1
    label, bar, height, gap = 140, 360, 18, 6
    parts = []
    for index, (name, row) in enumerate(rows.items()):
        y = index * (height + gap)
        ran = sum(n for _, n in row)
        parts.append(f'<text x="{label - 6}" y="{y + 13}" text-anchor="end">{_e(name)}</text>')
        x = float(label)
        for outcome, count in row:
            if not count:
                continue
            width = bar * count / widest
            link = f"#area={quote(name)}&amp;outcome={quote(outcome)}"
            parts.append(
                f'<a href="{link}"><rect x="{x:.1f}" y="{y}" width="{max(width, 1):.1f}" height="{height}" '
                f'fill="{OUTCOME_COLOURS[outcome]}"><title>{_e(name)}: {count} {_e(outcome)}</title></rect></a>'
            )
            x += width
        parts.append(f'<text x="{x + 5:.1f}" y="{y + 13}">{ran}</text>')
    total_height = len(rows) * (height + gap)
    summary = "; ".join(f"{name}: " + ", ".join(f"{n} {o}" for o, n in row if n) for name, row in rows.items())
    return (
        "<figure><figcaption>Outcomes per area</figcaption>"
        f'<svg role="img" aria-labelledby="area-chart-title area-chart-desc" width="{label + bar + 50}" '
        f'height="{total_height}" viewBox="0 0 {label + bar + 50} {total_height}">'
        '<title id="area-chart-title">Scenario outcomes per area</title>'
        f'<desc id="area-chart-desc">{_e(summary)}</desc>{"".join(parts)}</svg>'
        f"{_legend(shown)}<p><small>A bar segment lists its scenarios below.</small></p></figure>"
    )


def _bucket_label(index: int) -> str:
    """A short label: ``<10ms``, ``10-30ms`` (an en dash), ``0.1-0.3s``, ``≥100s``."""

    def unit(value: float) -> str:
        return "ms" if value <= 0.1 else "s"

    def number(value: float, in_unit: str) -> str:
        return f"{value * 1000:g}" if in_unit == "ms" else f"{value:g}"

    if index == 0:
        bound = DURATION_BUCKETS[0]
        return f"<{number(bound, unit(bound))}{unit(bound)}"
    if index == len(DURATION_BUCKETS):
        bound = DURATION_BUCKETS[-1]
        return f"≥{number(bound, unit(bound))}{unit(bound)}"
    low, high = DURATION_BUCKETS[index - 1], DURATION_BUCKETS[index]
    return f"{number(low, unit(high))}{EN_DASH}{number(high, unit(high))}{unit(high)}"


def _tick(bound: float) -> str:
    """A bucket boundary on the axis: ``10ms``, ``0.3s``, ``100s``."""
    return f"{bound * 1000:g}ms" if bound <= 0.1 else f"{bound:g}s"


def duration_buckets(durations: Sequence[float]) -> list[int]:
    """How many durations fall in each logarithmic bucket (``len(DURATION_BUCKETS) + 1`` counts)."""
    counts = [0] * (len(DURATION_BUCKETS) + 1)
    for duration in durations:
        index = next((i for i, bound in enumerate(DURATION_BUCKETS) if duration < bound), len(DURATION_BUCKETS))
        counts[index] += 1
    return counts


def duration_chart(scenarios: Sequence[Mapping[str, Any]]) -> str:
    """A histogram of the durations of the scenarios that ran, and the slowest of them."""
    ran = [s for s in scenarios if s["outcome"] != "disabled"]
    if not ran:
        return ""
    counts = duration_buckets([float(s["duration"]) for s in ran])
    tallest = max(counts) or 1
    column, plot, base = 60, 160, 200
    parts = []
    for index, count in enumerate(counts):
        x = index * column + 4
        height = plot * math.sqrt(count / tallest) if count else 0
        label = _bucket_label(index)
        parts.append(
            f'<rect x="{x}" y="{base - height - 20:.1f}" width="{column - 8}" height="{height:.1f}" fill="#0969da">'
            f"<title>{_e(label)}: {count} scenario(s)</title></rect>"
            f'<text x="{x + (column - 8) / 2}" y="{base - height - 24:.1f}" text-anchor="middle">{count}</text>'
        )
        if index < len(DURATION_BUCKETS):
            parts.append(
                f'<text x="{x + column - 4}" y="{base - 4}" text-anchor="middle" font-size="11">'
                f"{_e(_tick(DURATION_BUCKETS[index]))}</text>"
            )
    width = column * len(counts) + 8
    parts.append(f'<line x1="0" y1="{base - 20}" x2="{width}" y2="{base - 20}" stroke="#8c959f"/>')
    summary = "; ".join(f"{_bucket_label(i)}: {n}" for i, n in enumerate(counts))
    slowest = sorted(ran, key=lambda s: -float(s["duration"]))[:5]
    items = "".join(f"<li>{float(s['duration']):.2f} s — {_e(s['id'])}</li>" for s in slowest)
    total = sum(float(s["duration"]) for s in ran)
    return (
        "<figure><figcaption>Scenario durations</figcaption>"
        f'<svg role="img" aria-labelledby="duration-chart-title duration-chart-desc" width="{width}" '
        f'height="{base}" viewBox="0 0 {width} {base}">'
        '<title id="duration-chart-title">Scenarios per duration (logarithmic buckets, square-root heights)</title>'
        f'<desc id="duration-chart-desc">{_e(summary)}</desc>{"".join(parts)}</svg>'
        f"<p><small>{len(ran)} scenarios ran for {total:.1f} s in all (summed over workers). Slowest:</small></p>"
        f"<ol>{items}</ol></figure>"
    )
