"""A run compared with a baseline run (``--baseline results.json``): what a conformance gate acts on.

Scenarios are matched by id. **Newly failing**: failed or errored now, and not in the baseline (any
other outcome there, disabled included: a failure the baseline did not show). **Newly passing**:
passed now, and not passed in the baseline. Other changes of outcome (passed → unsupported, failed →
expected-failure, ...) are listed apart. **Added** and **removed** scenarios are ids present on one
side only (results.json lists disabled scenarios too, so these follow the suite, not the selection).
Coverage deltas compare operations reached (the target's description and Gitea's list, per tag) and
clauses covered (per section of the specification). The comparison works on results.json documents
alone, so a merged run (``conformance merge``) can be compared the same way. A baseline of another
target or profile is compared all the same, with a note saying so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .verdicts import ERROR, FAILED, PASSED, VERDICTS

__all__ = ["BaselineError", "compare", "comparison_lines", "load_baseline"]

FAILING = frozenset({FAILED, ERROR})
LISTED_IN_TERMINAL = 15
"""Scenarios listed per kind in the terminal summary; results.json and report.html list them all."""


class BaselineError(Exception):
    """The baseline file cannot be used (missing, not JSON, not a results.json document)."""


def load_baseline(path: Path) -> dict[str, Any]:
    """The baseline document, checked for what the comparison reads (scenario ids and outcomes)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read the baseline {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BaselineError(f"the baseline {path} is not JSON: {error}") from None
    scenarios = document.get("scenarios") if isinstance(document, dict) else None
    if not isinstance(scenarios, list) or not all(
        isinstance(s, dict) and isinstance(s.get("id"), str) and s.get("outcome") in VERDICTS for s in scenarios
    ):
        raise BaselineError(
            f"the baseline {path} is not a conformance results.json (no list of scenarios with an id and an outcome)"
        )
    baseline: dict[str, Any] = document
    baseline["_file"] = str(path)
    return baseline


def _outcomes(document: Mapping[str, Any]) -> dict[str, str]:
    return {str(s["id"]): str(s["outcome"]) for s in document.get("scenarios", [])}


def _change(scenario_id: str, before: str, now: str) -> dict[str, str]:
    return {"id": scenario_id, "before": before, "now": now}


def _delta(before: Mapping[str, Any], now: Mapping[str, Any], key: str) -> dict[str, Any]:
    """Covered counts of one coverage object in both runs, and the per-tag counts that moved."""
    old, new = before.get(key) or {}, now.get(key) or {}
    old_tags, new_tags = old.get("by_tag", {}), new.get("by_tag", {})
    changes = [
        {
            "group": tag,
            "before": int(old_tags.get(tag, {}).get("covered", 0)),
            "now": int(new_tags.get(tag, {}).get("covered", 0)),
            "total": int(new_tags.get(tag, old_tags.get(tag, {})).get("total", 0)),
        }
        for tag in sorted(set(old_tags) | set(new_tags))
    ]
    return {
        "source": str(new.get("source", "")),
        "before": int(old.get("covered", 0)),
        "now": int(new.get("covered", 0)),
        "total": int(new.get("total", 0)),
        "changes": [row for row in changes if row["before"] != row["now"]],
    }


def _clauses_covered(document: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Per section: clauses covered (a passing scenario and none failing) and clauses catalogued."""
    sections: dict[str, dict[str, int]] = {}
    for clause in document.get("clause_coverage", []):
        counts = sections.setdefault(str(clause.get("section", "")), {"covered": 0, "total": 0})
        counts["total"] += 1
        counts["covered"] += clause.get("verdict") == "covered"
    return sections


def _clause_delta(before: Mapping[str, Any], now: Mapping[str, Any]) -> dict[str, Any]:
    old, new = _clauses_covered(before), _clauses_covered(now)
    changes = [
        {
            "group": section,
            "before": old.get(section, {}).get("covered", 0),
            "now": new.get(section, {}).get("covered", 0),
            "total": new.get(section, old.get(section, {})).get("total", 0),
        }
        for section in sorted(set(old) | set(new))
    ]
    return {
        "source": "the specification's clause catalogue (per section)",
        "before": sum(counts["covered"] for counts in old.values()),
        "now": sum(counts["covered"] for counts in new.values()),
        "total": sum(counts["total"] for counts in new.values()),
        "changes": [row for row in changes if row["before"] != row["now"]],
    }


def _notes(baseline: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """What makes the two runs less comparable: another target, version or profile."""
    notes = []
    old_target, new_target = baseline.get("target") or {}, current.get("target") or {}
    if old_target.get("url") != new_target.get("url") and not (
        old_target.get("embedded") and new_target.get("embedded")
    ):
        notes.append(f"the baseline ran against another target ({old_target.get('url', 'unknown')})")
    if old_target.get("version") != new_target.get("version"):
        notes.append(f"the baseline's target had another version ({old_target.get('version', 'unknown')})")
    old_profile, new_profile = (baseline.get("profile") or {}).get("name"), (current.get("profile") or {}).get("name")
    if old_profile != new_profile:
        notes.append(f"the baseline used another profile ({old_profile or 'unknown'})")
    return notes


def compare(current: Mapping[str, Any], baseline: Mapping[str, Any]) -> dict[str, Any]:
    """The ``comparison`` object of results.json: ``current`` and ``baseline`` are results.json documents."""
    now, before = _outcomes(current), _outcomes(baseline)
    newly_failing, newly_passing, changed = [], [], []
    for scenario_id, outcome in now.items():
        old = before.get(scenario_id)
        if old is None or old == outcome:
            continue
        if outcome in FAILING and old not in FAILING:
            newly_failing.append(_change(scenario_id, old, outcome))
        elif outcome == PASSED:
            newly_passing.append(_change(scenario_id, old, outcome))
        else:
            changed.append(_change(scenario_id, old, outcome))
    old_target = baseline.get("target") or {}
    return {
        "baseline": {
            "file": str(baseline.get("_file", "")),
            "target": str(old_target.get("url", "")),
            "version": str(old_target.get("version", "")),
            "profile": str((baseline.get("profile") or {}).get("name", "")),
            "started": str(baseline.get("started", "")),
        },
        "notes": _notes(baseline, current),
        "newly_failing": newly_failing,
        "newly_passing": newly_passing,
        "changed": changed,
        "added": [{"id": i, "outcome": o} for i, o in now.items() if i not in before],
        "removed": [{"id": i, "outcome": o} for i, o in before.items() if i not in now],
        "unchanged": sum(1 for i, o in now.items() if before.get(i) == o),
        "coverage": {
            "operations": _delta(baseline, current, "operation_coverage"),
            "gitea_operations": _delta(baseline, current, "gitea_operation_coverage"),
            "clauses": _clause_delta(baseline, current),
        },
    }


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "±0"


def _listed(title: str, rows: Iterable[dict[str, str]], markup: dict[str, bool]) -> list[tuple[str, dict[str, bool]]]:
    rows = list(rows)
    if not rows:
        return []
    lines = [(f"{title} ({len(rows)}):", markup)]
    for row in rows[:LISTED_IN_TERMINAL]:
        was = f" (was {row['before']})" if "before" in row else f" ({row['outcome']})"
        lines.append((f"  {row['id']}{was}", {}))
    if len(rows) > LISTED_IN_TERMINAL:
        lines.append((f"  ... and {len(rows) - LISTED_IN_TERMINAL} more (results.json, report.html)", {}))
    return lines


def comparison_lines(comparison: Mapping[str, Any] | None) -> list[tuple[str, dict[str, bool]]]:
    """The comparison as the first lines of the terminal summary, with their markup."""
    if not comparison:
        return []
    base = comparison["baseline"]
    lines: list[tuple[str, dict[str, bool]]] = [
        (f"compared with the baseline {base['file']} ({base['target']}, {base['profile']}, {base['started']}):", {})
    ]
    lines += [(f"  note: {note}", {"yellow": True}) for note in comparison["notes"]]
    failing, passing = comparison["newly_failing"], comparison["newly_passing"]
    lines.append(
        (
            f"  {len(failing)} newly failing, {len(passing)} newly passing, {len(comparison['changed'])} other "
            f"change(s), {len(comparison['added'])} added, {len(comparison['removed'])} removed, "
            f"{comparison['unchanged']} unchanged",
            {"red": bool(failing), "bold": bool(failing), "green": not failing},
        )
    )
    lines += _listed("newly failing", failing, {"red": True, "bold": True})
    lines += _listed("newly passing", passing, {"green": True})
    lines += _listed("other changes", comparison["changed"], {})
    lines += _listed("added", comparison["added"], {})
    lines += _listed("removed", comparison["removed"], {"yellow": True})
    coverage = comparison["coverage"]
    parts = [
        f"{title} {coverage[key]['before']} → {coverage[key]['now']} "
        f"({_signed(coverage[key]['now'] - coverage[key]['before'])})"
        for key, title in (
            ("operations", "operations reached"),
            ("gitea_operations", "Gitea operations reached"),
            ("clauses", "clauses covered"),
        )
    ]
    lines.append(("  coverage: " + "; ".join(parts), {}))
    return lines
