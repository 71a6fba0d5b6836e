"""``conformance merge DIR... --report-dir OUT``: the shards of one run (``--shard K/N``) joined into one report.

Each DIR is a shard's report directory. The merge refuses shards of different runs (another target,
profile, expectations file, kit version, shard count or selection: their shard plans differ), a shard
given twice, and a missing shard unless ``--allow-partial``. It writes the four files a single run
writes (``results.json``, ``report.html``, ``junit.xml``, ``cucumber.json``) with the verdicts a single
run would give; coverage (clauses and operations) is recomputed over the union, every shard's run prefix
and leaks are kept (``merged_from``, ``leaks``), and the exit status is the one a single run would have had.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .comparison import BaselineError, compare, load_baseline
from .coverage import clause_coverage
from .merge_files import merge_cucumber, merge_junit
from .report_html import render_report
from .results import RunResults, ScenarioResult, add_contract_totals, summary_lines, write_atomically
from .schemas import SchemaMismatchError, validate
from .sharding import shard_of_reason
from .verdicts import DISABLED, ERROR, FAILED

__all__ = ["MergeError", "ShardReport", "main", "merge_operation_coverage", "merge_reports", "merge_results"]

USAGE_EXIT = 4
SERVER_LOG = "reference-server.log"


class MergeError(Exception):
    """The report directories cannot be merged (the message says why)."""


@dataclass
class ShardReport:
    """One shard's report directory and its results.json."""

    directory: Path
    results: dict[str, Any]

    @property
    def shard(self) -> dict[str, Any]:
        """The ``shard`` section (``--shard K/N`` facts)."""
        shard: dict[str, Any] = self.results["shard"]
        return shard

    @property
    def label(self) -> str:
        """``2/3``."""
        return f"{self.shard['index']}/{self.shard['count']}"


def load_shard(directory: Path) -> ShardReport:
    """A shard's report directory, its results.json read and checked against its schema."""
    path = directory / "results.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        validate(document, "results.schema")
    except OSError as error:
        raise MergeError(f"{directory}: no readable results.json ({error.strerror})") from None
    except ValueError as error:
        raise MergeError(f"{path}: not JSON ({error})") from None
    except SchemaMismatchError as error:
        raise MergeError(f"{path}: not a results.json of this kit ({error})") from None
    if not document.get("shard"):
        raise MergeError(f"{path}: not a shard's results (the run had no --shard K/N)")
    return ShardReport(directory, document)


def _reached_target(results: dict[str, Any]) -> bool:
    """The shard reached its target (an empty shard started none: it has no version)."""
    return bool(results["target"]["version"])


def _target_key(results: dict[str, Any]) -> tuple[Any, ...] | None:
    """What makes two runs' targets the same: each embedded server has its own port, so not its URL."""
    target = results["target"]
    if not _reached_target(results):
        return None
    return (target["embedded"], target["version"], None if target["embedded"] else target["url"])


SAME = (
    ("kit version", lambda r: r["kit_version"]),
    ("target", _target_key),
    ("profile", lambda r: r["profile"]["name"]),
    ("expectations file", lambda r: r["expectations"]["file"]),
    ("shard count", lambda r: r["shard"]["count"]),
    ("selection (-m, -k, --durations-from or the features differ: the shard plans do)", lambda r: r["shard"]["plan"]),
)


def check_shards(shards: Sequence[ShardReport], *, allow_partial: bool) -> list[int]:
    """Refuse shards of different runs and a shard given twice; the missing shards' numbers."""
    first = shards[0]
    for what, key in SAME:
        known = [shard for shard in shards if key(shard.results) is not None]
        for other in known[1:]:
            if key(other.results) != key(known[0].results):
                raise MergeError(
                    f"{known[0].directory} and {other.directory} are not shards of one run: different {what} "
                    f"({key(known[0].results)!r} and {key(other.results)!r})"
                )
    seen: dict[int, Path] = {}
    for shard in shards:
        index = int(shard.shard["index"])
        if index in seen:
            raise MergeError(f"shard {shard.label} is given twice: {seen[index]} and {shard.directory}")
        seen[index] = shard.directory
    missing = [index for index in range(1, int(first.shard["count"]) + 1) if index not in seen]
    if missing and not allow_partial:
        count = first.shard["count"]
        raise MergeError(
            f"missing shard(s) {', '.join(f'{index}/{count}' for index in missing)} "
            "(--allow-partial merges what is there; those scenarios are reported as disabled)"
        )
    return missing


def _record(scenario: dict[str, Any]) -> ScenarioResult:
    """A results.json scenario back into its record."""
    record = ScenarioResult.from_info(scenario)
    record.outcome = str(scenario["outcome"])
    record.duration = float(scenario["duration"])
    record.message = str(scenario["message"])
    record.expectation = str(scenario["expectation"])
    record.steps = list(scenario["steps"])
    record.transcript = list(scenario["transcript"])
    record.operations = list(scenario["operations"])
    return record


def _scenarios(shards: Sequence[ShardReport], missing: list[int]) -> list[ScenarioResult]:
    """Each scenario from the shard that ran it; one left to a missing shard is disabled."""
    ran: dict[str, tuple[ScenarioResult, str]] = {}
    disabled: dict[str, ScenarioResult] = {}
    for shard in shards:
        for scenario in shard.results["scenarios"]:
            record = _record(scenario)
            owner = shard_of_reason(record.message) if record.outcome == DISABLED else None
            if owner is not None:
                if owner in missing and record.id not in disabled:
                    record.message = f"disabled: its shard ({owner}/{shard.shard['count']}) was not merged"
                    disabled[record.id] = record
                continue
            if record.outcome == DISABLED:
                disabled.setdefault(record.id, record)
            elif record.id in ran:
                raise MergeError(f"{record.id} ran in shard {ran[record.id][1]} and in shard {shard.label}")
            else:
                ran[record.id] = (record, shard.label)
    ordered = [ran[scenario_id][0] for scenario_id in sorted(ran)]
    return ordered + [disabled[scenario_id] for scenario_id in sorted(disabled) if scenario_id not in ran]


def merge_operation_coverage(coverages: list[dict[str, Any]]) -> dict[str, Any]:
    """Covered anywhere is covered: the operations no shard reached, counted again per tag."""
    first = coverages[0]

    def key(operation: dict[str, Any]) -> tuple[str, str]:
        return (str(operation["method"]), str(operation["path"]))

    uncovered_everywhere = set.intersection(*({key(op) for op in coverage["uncovered"]} for coverage in coverages))
    uncovered = [operation for operation in first["uncovered"] if key(operation) in uncovered_everywhere]
    by_tag = {tag: {"total": counts["total"], "covered": counts["total"]} for tag, counts in first["by_tag"].items()}
    for operation in uncovered:
        by_tag[operation["tag"] or "untagged"]["covered"] -= 1
    unmatched = sorted({request for coverage in coverages for request in coverage["unmatched_requests"]})
    return {
        **first,
        "covered": first["total"] - len(uncovered),
        "by_tag": by_tag,
        "uncovered": uncovered,
        "unmatched_requests": unmatched[:200],
    }


def _expectations(shards: Sequence[ShardReport]) -> dict[str, Any]:
    """Each shard lists the entries of the scenarios it ran; an entry is not run when no shard ran it."""
    sections = [shard.results["expectations"] for shard in shards]
    merged: dict[str, Any] = {"file": sections[0]["file"]}
    for kind in ("expected_failures", "fixed", "expired"):
        merged[kind] = sorted((entry for section in sections for entry in section[kind]), key=lambda e: e["scenario"])
    not_run = set.intersection(*({entry["id"] for entry in section["not_run"]} for section in sections))
    merged["not_run"] = [entry for entry in sections[0]["not_run"] if entry["id"] in not_run]
    return merged


def single_run_exit_status(scenarios: Sequence[ScenarioResult], interrupted: bool) -> int:
    """What a single run of the same scenarios would have exited with (see ``conformance.cli.EXIT_CODES``)."""
    if interrupted:
        return 2
    if any(scenario.outcome in (FAILED, ERROR) for scenario in scenarios):
        return 1
    if all(scenario.outcome == DISABLED for scenario in scenarios):
        return 5
    return 0


def merge_results(shards: Sequence[ShardReport], missing: list[int]) -> RunResults:
    """The results.json a single run of the shards' selection would have written."""
    ordered = sorted(shards, key=lambda shard: int(shard.shard["index"]))
    reached = [shard for shard in ordered if _reached_target(shard.results)] or ordered
    first = reached[0].results
    scenarios = _scenarios(ordered, missing)
    interrupted = any(shard.results["interrupted"] for shard in ordered)
    results = RunResults(
        target_url=first["target"]["url"],
        target_version=first["target"]["version"],
        target_embedded=first["target"]["embedded"],
        kit_version=first["kit_version"],
        run_prefix=first["run_prefix"],
        seed=first["seed"],
        started=min(shard.results["started"] for shard in ordered),
        duration=max(shard.results["duration"] for shard in ordered),
        exit_status=single_run_exit_status(scenarios, interrupted),
        interrupted=interrupted,
        profile=first["profile"],
        scenarios=scenarios,
        leaks=[leak for shard in ordered for leak in shard.results["leaks"]],
    )
    for shard in ordered:
        results.contract = add_contract_totals(results.contract, shard.results.get("contract"))
    results.clause_coverage = clause_coverage((s.id, s.clauses, s.outcome) for s in scenarios)
    for name in ("operation_coverage", "gitea_operation_coverage"):
        setattr(results, name, merge_operation_coverage([shard.results[name] for shard in reached]))
    results.expectations = _expectations(ordered)
    results.merged_from = [
        {
            "shard": shard.label,
            "report_dir": str(shard.directory),
            "run_prefix": shard.results["run_prefix"],
            "seed": shard.results["seed"],
            "started": shard.results["started"],
            "duration": shard.results["duration"],
            "exit_status": shard.results["exit_status"],
            "interrupted": shard.results["interrupted"],
            "target_url": shard.results["target"]["url"],
            "leaks": len(shard.results["leaks"]),
        }
        for shard in ordered
    ]
    return results


def _merge_logs(shards: Sequence[ShardReport], out: Path) -> None:
    """The embedded servers' logs in one file, each line prefixed with its shard."""
    logs = [(shard.label, shard.directory / SERVER_LOG) for shard in shards if (shard.directory / SERVER_LOG).is_file()]
    if not logs:
        return
    lines = [
        f"[shard {label}] {line}\n"
        for label, path in logs
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
    ]
    write_atomically(out / SERVER_LOG, "".join(lines))


def merge_reports(
    directories: Sequence[Path], out: Path, *, allow_partial: bool = False, baseline: Path | None = None
) -> RunResults:
    """Read the shards' report directories and write the merged reports into ``out`` (compared with ``baseline``)."""
    if not directories:
        raise MergeError("no report directory to merge")
    try:
        earlier = None if baseline is None else load_baseline(baseline)
    except BaselineError as error:
        raise MergeError(str(error)) from None
    shards = sorted((load_shard(directory) for directory in directories), key=lambda shard: shard.shard["index"])
    missing = check_shards(shards, allow_partial=allow_partial)
    results = merge_results(shards, missing)
    if earlier is not None:
        results.comparison = compare(results.as_dict(), earlier)
    out.mkdir(parents=True, exist_ok=True)
    results.write(out / "results.json")
    write_atomically(out / "report.html", render_report(results.as_dict()))
    for name, merge in (("junit.xml", merge_junit), ("cucumber.json", merge_cucumber)):
        files = [shard.directory / name for shard in shards if (shard.directory / name).is_file()]
        if files:
            merge(files, out / name)
    _merge_logs(shards, out)
    return results


def build_parser() -> argparse.ArgumentParser:
    """``conformance merge`` options."""
    parser = argparse.ArgumentParser(
        prog="conformance merge",
        description="Join the report directories of the shards of one run (conformance --shard K/N) into one report.",
        epilog="exit status: as a single run of the same scenarios (0 nothing failed, 1 failed, 2 interrupted, "
        "5 nothing ran); 4 when the directories cannot be merged.",
    )
    parser.add_argument("directories", nargs="+", type=Path, metavar="DIR", help="a shard's report directory")
    parser.add_argument("--report-dir", type=Path, default=Path("reports"), metavar="OUT", help="default reports/")
    parser.add_argument(
        "--allow-partial",
        action="store_true",
        help="merge even when shards are missing (their scenarios are reported as disabled)",
    )
    parser.add_argument(
        "--baseline", type=Path, metavar="FILE", help="results.json of an earlier run to compare the merged run with"
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Merge, print the summary a single run prints, and exit as a single run would."""
    options = build_parser().parse_args(list(argv))
    try:
        results = merge_reports(
            options.directories, options.report_dir, allow_partial=options.allow_partial, baseline=options.baseline
        )
    except MergeError as error:
        print(f"conformance merge: {error}", file=sys.stderr)
        return USAGE_EXIT
    for text, _ in summary_lines(results, options.report_dir):
        print(text)
    merged = results.merged_from or []
    print(f"merged {len(merged)} shard(s); run prefixes: {', '.join(entry['run_prefix'] for entry in merged)}")
    missing = sum(1 for scenario in results.scenarios if scenario.message.startswith("disabled: its shard"))
    if missing:
        print(f"partial: {missing} scenario(s) of missing shards were not run", file=sys.stderr)
    return results.exit_status
