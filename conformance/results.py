"""The run's results: one record per scenario, verdicts per area and capability, ``results.json``, the terminal table.

Each scenario ends with one of the six verdicts of :mod:`conformance.verdicts`. An area or a
capability is ``full`` when everything of it that ran passed, ``failed`` when anything failed or
errored, ``unsupported`` when everything that ran was unsupported, ``disabled`` when nothing ran,
and ``partial`` otherwise (unsupported or expected failures next to passes).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.scenario import scenario_wrapper_template_registry
from pytest_bdd.utils import registry_get_safe

from .capabilities import required_capabilities
from .clauses import clause_by_tag
from .comparison import comparison_lines
from .coverage import Operation, OperationMap, clause_coverage, operation_coverage
from .expectations import Expectations
from .operations import GITEA_FILE, REFERENCE_FILE, load_operations
from .scenario_ids import scenario_id
from .tags import AREAS
from .verdicts import DISABLED, ERROR, VERDICTS, Counts, count_verdicts

__all__ = [
    "NO_AREA",
    "OUTCOMES",
    "RESULTS_SCHEMA_VERSION",
    "UNPARSABLE_FEATURE",
    "RunRecords",
    "RunResults",
    "ScenarioResult",
    "add_contract_totals",
    "area_of",
    "assemble",
    "clauses_of",
    "render_summary_table",
    "scenario_info",
    "summarise_areas",
    "summarise_capabilities",
    "summary_lines",
    "write_atomically",
]

OUTCOMES = VERDICTS
UNPARSABLE_FEATURE = "conformance_unparsable_feature"
EXAMPLE_PARAMETER = "_pytest_bdd_example"
RESULTS_SCHEMA_VERSION = 4
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
    """The outcome of one scenario (one pytest item); ``outcome`` stays empty until it is known."""

    id: str
    feature: str
    feature_file: str
    name: str
    area: str
    tags: list[str]
    clauses: list[str]
    nodeid: str = ""
    outcome: str = ""
    duration: float = 0.0
    message: str = ""
    expectation: str = ""
    steps: list[dict[str, str]] = field(default_factory=list)
    transcript: list[dict[str, Any]] = field(default_factory=list)
    operations: list[str] = field(default_factory=list)

    @property
    def capabilities(self) -> list[str]:
        """The optional capabilities the scenario needs."""
        return required_capabilities(self.tags)

    def info(self) -> dict[str, Any]:
        """What is known before the scenario runs (sent from the process that runs it)."""
        return {
            "id": self.id,
            "nodeid": self.nodeid,
            "feature": self.feature,
            "feature_file": self.feature_file,
            "name": self.name,
            "area": self.area,
            "tags": self.tags,
            "clauses": self.clauses,
        }

    @classmethod
    def from_info(cls, info: dict[str, Any]) -> ScenarioResult:
        """The record for a scenario from :meth:`info`."""
        return cls(
            id=str(info["id"]),
            nodeid=str(info.get("nodeid", "")),
            feature=str(info["feature"]),
            feature_file=str(info["feature_file"]),
            name=str(info["name"]),
            area=str(info["area"]),
            tags=list(info["tags"]),
            clauses=list(info["clauses"]),
        )

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of results.json."""
        return {
            **self.info(),
            "capabilities": self.capabilities,
            "outcome": self.outcome,
            "duration": round(self.duration, 4),
            "message": self.message,
            "expectation": self.expectation,
            "steps": self.steps,
            "transcript": self.transcript,
            "operations": self.operations,
        }


def summarise_areas(scenarios: Iterable[ScenarioResult]) -> dict[str, Counts]:
    """Per-area counts and verdicts, areas in alphabetical order."""
    return count_verdicts((scenario.area, scenario.outcome) for scenario in scenarios)


def summarise_capabilities(scenarios: Iterable[ScenarioResult]) -> dict[str, Counts]:
    """Per-capability counts and verdicts over the scenarios that need each capability."""
    return count_verdicts(
        (capability, scenario.outcome) for scenario in scenarios for capability in scenario.capabilities
    )


def render_summary_table(groups: dict[str, Counts], title: str = "area") -> list[str]:
    """A short fixed-width table: group, counts per verdict, verdict."""
    header = f"{title:<20} {'passed':>6} {'failed':>6} {'error':>5} {'unsupp':>6} {'xfail':>5} {'disabled':>8}  verdict"
    lines = [header, "-" * len(header)]
    for name, counts in groups.items():
        lines.append(
            f"{name:<20} {counts.passed:>6} {counts.failed:>6} {counts.error:>5} {counts.unsupported:>6} "
            f"{counts.expected_failure:>5} {counts.disabled:>8}  {counts.verdict}"
        )
    return lines


def add_contract_totals(total: dict[str, Any] | None, more: dict[str, Any] | None) -> dict[str, Any] | None:
    """The contract check's counts of two processes (xdist workers) added up; ``None`` where none ran."""
    if not isinstance(more, dict):
        return total
    if total is None:
        return dict(more)
    return {key: round(total.get(key, 0) + value, 3) for key, value in more.items()}


def _no_coverage() -> dict[str, Any]:
    return {"source": "", "total": 0, "covered": 0, "by_tag": {}, "uncovered": [], "unmatched_requests": []}


@dataclass
class RunResults:
    """Everything results.json holds."""

    target_url: str = ""
    target_version: str = ""
    target_embedded: bool = True
    kit_version: str = ""
    run_prefix: str = ""
    seed: int = 0
    started: str = ""
    duration: float = 0.0
    exit_status: int = 0
    interrupted: bool = False
    profile: dict[str, Any] = field(default_factory=lambda: {"name": "", "chosen_by": "", "description": ""})
    scenarios: list[ScenarioResult] = field(default_factory=list)
    leaks: list[dict[str, str]] = field(default_factory=list)
    expectations: dict[str, Any] = field(
        default_factory=lambda: {"file": None, "expected_failures": [], "fixed": [], "expired": [], "not_run": []}
    )
    clause_coverage: list[dict[str, Any]] = field(default_factory=list)
    operation_coverage: dict[str, Any] = field(default_factory=_no_coverage)
    gitea_operation_coverage: dict[str, Any] = field(default_factory=_no_coverage)
    contract: dict[str, Any] | None = None
    """What the contract check did: answers validated, violations, seconds spent (``None``: no target reached)."""
    comparison: dict[str, Any] | None = None
    """The run compared with ``--baseline`` (:func:`conformance.comparison.compare`); ``None`` without one."""
    shard: dict[str, Any] | None = None
    """This run's shard (``--shard K/N``, ``conformance.sharding``); ``None`` for a whole run."""
    merged_from: list[dict[str, Any]] | None = None
    """The shards ``conformance merge`` joined (each one's run prefix, seed, exit status); ``None`` otherwise."""

    def totals(self) -> Counts:
        """Counts over every scenario."""
        totals = Counts()
        for counts in summarise_areas(self.scenarios).values():
            totals.merge(counts)
        return totals

    def as_dict(self) -> dict[str, Any]:
        """The JSON document, as ``schemas/results.schema.json`` describes it."""
        return {
            "schema_version": RESULTS_SCHEMA_VERSION,
            "target": {"url": self.target_url, "version": self.target_version, "embedded": self.target_embedded},
            "profile": self.profile,
            "kit_version": self.kit_version,
            "run_prefix": self.run_prefix,
            "seed": self.seed,
            "started": self.started,
            "duration": round(self.duration, 3),
            "exit_status": self.exit_status,
            "interrupted": self.interrupted,
            "totals": self.totals().as_dict(),
            "areas": {name: counts.as_dict() for name, counts in summarise_areas(self.scenarios).items()},
            "capabilities": {name: counts.as_dict() for name, counts in summarise_capabilities(self.scenarios).items()},
            "expectations": self.expectations,
            "clause_coverage": self.clause_coverage,
            "operation_coverage": self.operation_coverage,
            "gitea_operation_coverage": self.gitea_operation_coverage,
            "contract": self.contract,
            "comparison": self.comparison,
            "scenarios": [scenario.as_dict() for scenario in self.scenarios],
            "leaks": self.leaks,
            "shard": self.shard,
            "merged_from": self.merged_from,
        }

    def write(self, path: Path) -> None:
        """Write results.json atomically (temporary file, then rename)."""
        write_atomically(path, json.dumps(self.as_dict(), indent=2, ensure_ascii=False) + "\n")


def write_atomically(path: Path, text: str) -> None:
    """Write a report file whole: a temporary file, then a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


@dataclass
class RunRecords:
    """What the writer gathered: scenario records in report order, each scenario's requests, the runners' part."""

    records: list[ScenarioResult]
    traffic: dict[str, list[tuple[str, str]]]
    runner: dict[str, Any]
    from_workers: bool


def assemble(
    results: RunResults,
    gathered: RunRecords,
    profile: dict[str, Any],
    expectations: Expectations | None,
    *,
    exit_status: int,
    stopped: bool,
) -> None:
    """Fill ``results`` at the end of the run: scenarios (disabled ones too), coverage, expectations."""
    runner = gathered.runner
    target = runner.get("target")
    if gathered.from_workers:
        if isinstance(target, dict):
            results.target_url, results.target_version = str(target["url"]), str(target["version"])
            results.target_embedded = bool(target["embedded"])
        results.leaks = list(runner.get("leaks", []))
    results.profile = profile
    results.exit_status = exit_status
    results.interrupted = stopped
    scenarios = []
    for record in gathered.records:
        if record.outcome == "":
            record.outcome, record.message = ERROR, "the run was stopped during this scenario"
        scenarios.append(record)
    ran = {record.id for record in scenarios}
    disabled: dict[str, str] = runner.get("disabled", {})
    for info in runner.get("inventory", []):
        reason = disabled.get(info["id"], "disabled: not run")
        if info["id"] in ran or (stopped and not reason.startswith("disabled: profile")):
            continue
        record = ScenarioResult.from_info(info)
        record.outcome, record.message = DISABLED, reason
        scenarios.append(record)
    results.scenarios = scenarios
    results.contract = runner.get("contract")
    results.operation_coverage = _operations(scenarios, gathered.traffic, runner.get("description"))
    gitea = load_operations(GITEA_FILE)
    results.gitea_operation_coverage = operation_coverage(OperationMap.from_list(gitea), gathered.traffic, gitea.source)
    results.clause_coverage = clause_coverage((s.id, s.clauses, s.outcome) for s in scenarios)
    results.expectations = _expectations(scenarios, expectations)


def _operations(
    scenarios: list[ScenarioResult], traffic: dict[str, list[tuple[str, str]]], served: list[list[str]] | None
) -> dict[str, Any]:
    """Operation coverage, and each scenario's operations."""
    if served:
        operation_map = OperationMap(Operation(*row[:4]) for row in served)
        source = "the target's /swagger.v1.json (the reference server's API description)"
    else:
        operation_map = OperationMap.from_list(load_operations(REFERENCE_FILE))
        source = "the kit's copy of the reference server's API description"
    for scenario in scenarios:
        matched = {operation_map.match(method, path) for method, path in traffic.get(scenario.id, [])}
        scenario.operations = sorted(operation.key for operation in matched if operation is not None)
    return operation_coverage(operation_map, traffic, source)


def _expectations(scenarios: list[ScenarioResult], expectations: Expectations | None) -> dict[str, Any]:
    """Expected failures, fixed entries (remove them), expired entries, and entries whose scenario did not run."""
    summary: dict[str, Any] = {
        "file": str(expectations.path) if expectations and expectations.path else None,
        "expected_failures": [],
        "fixed": [],
        "expired": [],
        "not_run": [],
    }
    if expectations is None:
        return summary
    used: set[str] = set()
    for scenario in scenarios:
        entry = expectations.for_scenario(scenario.id)
        if entry is None:
            continue
        kind = {"expected-failure": "expected_failures", "fixed": "fixed", "expired": "expired"}.get(
            scenario.expectation
        )
        if kind is None:
            continue
        used.add(entry.id)
        summary[kind].append({**entry.as_dict(), "scenario": scenario.id, "message": scenario.message})
    for entry_id, entry in expectations.entries.items():
        if entry_id not in used:
            summary["not_run"].append(entry.as_dict())
    return summary


def scenario_info(item: pytest.Item) -> ScenarioResult | None:
    """The scenario behind a collected item, or None for an item that is not a scenario."""
    function = getattr(item, "function", None)
    broken = getattr(function, UNPARSABLE_FEATURE, None)
    if isinstance(broken, str):
        area = broken.split("/", 1)[0] if "/" in broken else NO_AREA
        name = "the feature file parses"
        return ScenarioResult(
            id=f"{broken.removesuffix('.feature')}::{name}",
            nodeid=item.nodeid,
            feature=broken,
            feature_file=broken,
            name=name,
            area=area,
            tags=[],
            clauses=[],
        )
    template = registry_get_safe(scenario_wrapper_template_registry, function)
    if template is None:
        return None
    tags = set(template.tags) | set(template.feature.tags)
    if template.rule is not None:
        tags |= set(template.rule.tags)
    row: str | None = None
    callspec = getattr(item, "callspec", None)
    if callspec is not None and EXAMPLE_PARAMETER in callspec.params:
        row = "-".join(str(value) for value in callspec.params[EXAMPLE_PARAMETER].values())
        tags |= {mark.name for mark in callspec.marks}
    feature = template.feature
    return ScenarioResult(
        id=scenario_id(feature.filename, item.config.rootpath, template.name, row),
        nodeid=item.nodeid,
        feature=feature.name,
        feature_file=feature.rel_filename,
        name=template.name,
        area=area_of(tags),
        tags=sorted(tags),
        clauses=clauses_of(tags),
    )


def summary_lines(results: RunResults, report_dir: Path | None) -> list[tuple[str, dict[str, bool]]]:
    """The terminal summary: target, profile, tables, expectations to act on, leaks, where the reports are."""
    ran = [scenario for scenario in results.scenarios if scenario.outcome != DISABLED]
    if not ran:
        return []
    lines: list[tuple[str, dict[str, bool]]] = []

    def write(text: str, **markup: bool) -> None:
        lines.append((text, markup))

    lines += comparison_lines(results.comparison)
    kind = "embedded reference server" if results.target_embedded else "live target"
    write(f"target: {results.target_url} ({kind}, version {results.target_version})")
    write(f"profile: {results.profile['name']} ({results.profile['chosen_by']})")
    write(f"seed: {results.seed} (--seed {results.seed} replays the data the scenarios drew)")
    areas = {name: counts for name, counts in summarise_areas(results.scenarios).items() if counts.verdict != DISABLED}
    for line in render_summary_table(areas):
        write(line)
    capabilities = {
        name: counts for name, counts in summarise_capabilities(results.scenarios).items() if counts.verdict != DISABLED
    }
    if capabilities:
        write("")
        for line in render_summary_table(capabilities, title="capability"):
            write(line)
    own, gitea = results.operation_coverage, results.gitea_operation_coverage
    if own["total"] or gitea["total"]:
        write(
            f"operations reached: {own['covered']} of the {own['total']} the target describes; "
            f"{gitea['covered']} of {gitea['source']}'s {gitea['total']} (per tag in report.html)"
        )
    if results.contract:
        contract = results.contract
        write(
            f"API contract: {contract['validated']} JSON answers validated against their operation's schema "
            f"({contract['seconds']:.1f} s), {contract['violations']} violation(s)"
        )
    left_out = len(results.scenarios) - len(ran)
    if left_out:
        write(f"{left_out} scenario(s) disabled (not in the profile or not selected); listed in results.json")
    expectations = results.expectations
    for entry in expectations["fixed"]:
        write(f"fixed: remove this entry: {entry['scenario']} ({expectations['file']})", yellow=True, bold=True)
    for entry in expectations["expired"]:
        write(f"expired expectation (counted as failed): {entry['scenario']}, expired {entry['expires']}", red=True)
    if results.leaks:
        write(f"cleanup left {len(results.leaks)} thing(s) behind:", red=True)
        for leak in results.leaks:
            write(f"  {leak['kind']} {leak['name']}: {leak['reason']}")
    if report_dir is not None:
        write(f"reports: {report_dir} (report.html, results.json, junit.xml, cucumber.json)")
    return lines
