"""The run's results: one record per scenario, verdicts per area, ``results.json`` and the terminal table.

Outcomes are ``passed``, ``failed`` (a Then or When found the target wrong), ``error`` (set-up or
tear-down broke) and ``skipped`` (the reason says why; ``unsupported: <capability>`` when the target
lacks an optional capability). An area is ``full`` when every scenario passed, ``failed`` when any
failed or errored, and ``partial`` otherwise (some skipped).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .clauses import clause_by_tag
from .tags import AREAS

__all__ = [
    "NO_AREA",
    "OUTCOMES",
    "RESULTS_SCHEMA_VERSION",
    "UNPARSABLE_FEATURE",
    "AreaSummary",
    "RunResults",
    "ScenarioResult",
    "area_of",
    "clauses_of",
    "render_summary_table",
    "summarise_areas",
]

OUTCOMES = ("passed", "failed", "error", "skipped")
UNPARSABLE_FEATURE = "conformance_unparsable_feature"
RESULTS_SCHEMA_VERSION = 1
NO_AREA = "(none)"


def area_of(tags: Iterable[str]) -> str:
    """The scenario's area: its one area tag (features carry exactly one)."""
    areas = sorted(tag for tag in tags if tag in AREAS)
    return areas[0] if areas else NO_AREA


def clauses_of(tags: Iterable[str]) -> list[str]:
    """The clause ids a scenario claims through its ``@clause_*`` tags."""
    by_tag = clause_by_tag()
    return sorted(by_tag[tag].id for tag in tags if tag in by_tag)


@dataclass
class ScenarioResult:
    """The outcome of one scenario (one pytest item); ``outcome`` stays empty until it ran."""

    id: str
    feature: str
    feature_file: str
    name: str
    area: str
    tags: list[str]
    clauses: list[str]
    outcome: str = ""
    duration: float = 0.0
    message: str = ""
    transcript: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of results.json."""
        return {
            "id": self.id,
            "feature": self.feature,
            "feature_file": self.feature_file,
            "name": self.name,
            "area": self.area,
            "tags": self.tags,
            "clauses": self.clauses,
            "outcome": self.outcome,
            "duration": round(self.duration, 4),
            "message": self.message,
            "transcript": self.transcript,
        }


@dataclass
class AreaSummary:
    """Counts and verdict of one area."""

    area: str
    passed: int = 0
    failed: int = 0
    error: int = 0
    skipped: int = 0

    @property
    def total(self) -> int:
        """Scenarios of the area."""
        return self.passed + self.failed + self.error + self.skipped

    @property
    def verdict(self) -> str:
        """``full``, ``partial`` or ``failed``."""
        if self.failed or self.error:
            return "failed"
        if self.skipped:
            return "partial"
        return "full"

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of results.json."""
        return {
            "passed": self.passed,
            "failed": self.failed,
            "error": self.error,
            "skipped": self.skipped,
            "total": self.total,
            "verdict": self.verdict,
        }


def summarise_areas(scenarios: Iterable[ScenarioResult]) -> dict[str, AreaSummary]:
    """Per-area counts, areas in alphabetical order."""
    areas: dict[str, AreaSummary] = {}
    for scenario in scenarios:
        summary = areas.setdefault(scenario.area, AreaSummary(scenario.area))
        setattr(summary, scenario.outcome, getattr(summary, scenario.outcome) + 1)
    return dict(sorted(areas.items()))


def render_summary_table(areas: dict[str, AreaSummary]) -> list[str]:
    """A short fixed-width table: area, counts, verdict."""
    header = f"{'area':<18} {'passed':>6} {'failed':>6} {'error':>6} {'skipped':>7}  verdict"
    lines = [header, "-" * len(header)]
    for summary in areas.values():
        lines.append(
            f"{summary.area:<18} {summary.passed:>6} {summary.failed:>6} {summary.error:>6} {summary.skipped:>7}  "
            f"{summary.verdict}"
        )
    return lines


@dataclass
class RunResults:
    """Everything results.json holds."""

    target_url: str = ""
    target_version: str = ""
    target_embedded: bool = True
    kit_version: str = ""
    run_prefix: str = ""
    started: str = ""
    duration: float = 0.0
    exit_status: int = 0
    scenarios: list[ScenarioResult] = field(default_factory=list)
    leaks: list[dict[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The JSON document, as ``schemas/results.schema.json`` describes it."""
        areas = summarise_areas(self.scenarios)
        totals = AreaSummary("all")
        for summary in areas.values():
            totals.passed += summary.passed
            totals.failed += summary.failed
            totals.error += summary.error
            totals.skipped += summary.skipped
        return {
            "schema_version": RESULTS_SCHEMA_VERSION,
            "target": {"url": self.target_url, "version": self.target_version, "embedded": self.target_embedded},
            "kit_version": self.kit_version,
            "run_prefix": self.run_prefix,
            "started": self.started,
            "duration": round(self.duration, 3),
            "exit_status": self.exit_status,
            "totals": totals.as_dict(),
            "areas": {name: summary.as_dict() for name, summary in areas.items()},
            "scenarios": [scenario.as_dict() for scenario in self.scenarios],
            "leaks": self.leaks,
        }

    def write(self, path: Path) -> None:
        """Write results.json atomically (temporary file, then rename)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(self.as_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        temporary.replace(path)
