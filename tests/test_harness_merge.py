"""``--shard K/N`` for real and ``conformance merge``: three shards of the tiny suite merged give one run's verdicts.

The tiny suite of ``test_results_schema`` (one scenario per verdict, an expectations file) runs once whole
and once as three shards (the second under two xdist workers, when installed) against one reference
server; the merge of the shards' report directories must say what the whole run said.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_results_schema import TINY_ARGS, TINY_FEATURE, _run

from conformance.cli import main as cli_main
from conformance.merge import USAGE_EXIT, single_run_exit_status
from conformance.results import ScenarioResult
from conformance.schemas import validate
from conformance.target import EmbeddedServer

SEED = ("--seed", "4242")


@dataclass
class Runs:
    """The whole run's report directory and exit status, and the three shards' report directories."""

    whole: Path
    whole_status: int
    shards: list[Path]
    shard_statuses: list[int]
    root: Path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """The tiny suite whole and as three shards, from one directory (as CI jobs run one checkout), one server."""
    root = tmp_path_factory.mktemp("sharded")
    suite = root / "suite"
    server = EmbeddedServer(root / "server.log")
    base_url = server.start()
    target = ("--target", base_url, "--token", server.admin_token)
    try:
        status, whole, _ = _run(suite, "tiny.feature", TINY_FEATURE, *TINY_ARGS, *target, *SEED)
        shards, statuses = [], []
        for index in (1, 2, 3):
            workers: tuple[str, ...] = ("-n", "2") if index == 2 and _has_xdist() else ()
            shard_status, _, output = _run(
                suite, "tiny.feature", TINY_FEATURE, *TINY_ARGS, *target, *SEED,
                "--shard", f"{index}/3", "--report-dir", f"shard-{index}", *workers,
            )  # fmt: skip
            assert shard_status in (0, 1), output
            shards.append(suite / f"shard-{index}")
            statuses.append(shard_status)
        yield Runs(whole, status, shards, statuses, root)
    finally:
        server.stop()


def _has_xdist() -> bool:
    try:
        __import__("xdist")
    except ImportError:
        return False
    return True


def _load(directory: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((directory / "results.json").read_text(encoding="utf-8"))
    return loaded


def _merge(out: Path, *directories: Path, extra: tuple[str, ...] = ()) -> int:
    return cli_main(["merge", *map(str, directories), "--report-dir", str(out), *extra])


def _outcomes(results: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {scenario["id"]: (scenario["outcome"], scenario["expectation"]) for scenario in results["scenarios"]}


@pytest.fixture(scope="module")
def merged(runs: Runs) -> tuple[int, Path]:
    out = runs.root / "merged"
    return _merge(out, *runs.shards), out


def test_each_shard_runs_a_disjoint_part_and_says_which(runs: Runs) -> None:
    ran: dict[str, int] = {}
    plans = set()
    for index, directory in enumerate(runs.shards, start=1):
        results = _load(directory)
        validate(results, "results.schema")
        shard = results["shard"]
        assert (shard["index"], shard["count"], shard["balanced_by"]) == (index, 3, "count")
        assert shard["selection"] == {"markexpr": "not slow", "keyword": ""}
        assert shard["selected"] == 7, "the profile and -m select seven of the eight scenarios"
        plans.add(shard["plan"])
        own = [s for s in results["scenarios"] if not s["message"].startswith("disabled: runs in shard")]
        for scenario in own:
            if scenario["outcome"] != "disabled":
                assert scenario["id"] not in ran, f"{scenario['id']} ran in two shards"
                ran[scenario["id"]] = index
        assert shard["scenarios"] == sum(1 for s in own if s["outcome"] != "disabled")
    assert len(plans) == 1, "the shards of one run share their plan"
    assert sorted(sum(1 for k in ran.values() if k == index) for index in (1, 2, 3)) == [2, 2, 3]
    whole = {s["id"] for s in _load(runs.whole)["scenarios"] if s["outcome"] != "disabled"}
    assert set(ran) == whole, "together the shards ran what the whole run ran"


def test_the_merge_gives_the_verdicts_of_a_single_run(runs: Runs, merged: tuple[int, Path]) -> None:
    status, out = merged
    single, joined = _load(runs.whole), _load(out)
    validate(joined, "results.schema")
    assert status == runs.whole_status == joined["exit_status"] == 1
    assert _outcomes(joined) == _outcomes(single)
    for key in ("totals", "areas", "capabilities", "target", "profile", "seed"):
        assert joined[key] == single[key], key
    clause = {row["id"]: row["verdict"] for row in joined["clause_coverage"]}
    assert clause == {row["id"]: row["verdict"] for row in single["clause_coverage"]}
    assert clause["S9.1"] == "failed"
    for name in ("operation_coverage", "gitea_operation_coverage"):
        for key in ("total", "covered", "by_tag", "uncovered"):
            assert joined[name][key] == single[name][key], (name, key)
    for kind in ("expected_failures", "fixed", "expired", "not_run"):
        assert [e.get("scenario", e["id"]) for e in joined["expectations"][kind]] == [
            e.get("scenario", e["id"]) for e in single["expectations"][kind]
        ], kind
    failed = next(s for s in joined["scenarios"] if s["name"] == "A deliberately wrong expectation")
    assert failed["transcript"] and failed["steps"], "the failing shard's transcript and steps are kept"
    assert joined["contract"]["validated"] == single["contract"]["validated"]


def test_the_merge_keeps_every_shard_run_prefix_and_leaks(runs: Runs, merged: tuple[int, Path]) -> None:
    joined = _load(merged[1])
    shards = [_load(directory) for directory in runs.shards]
    assert joined["shard"] is None
    assert [entry["shard"] for entry in joined["merged_from"]] == ["1/3", "2/3", "3/3"]
    assert [entry["run_prefix"] for entry in joined["merged_from"]] == [s["run_prefix"] for s in shards]
    assert len({entry["run_prefix"] for entry in joined["merged_from"]}) == 3
    assert [entry["exit_status"] for entry in joined["merged_from"]] == runs.shard_statuses
    assert joined["leaks"] == [leak for s in shards for leak in s["leaks"]]


def _junit_cases(directory: Path) -> dict[tuple[str, str], str]:
    root = ET.parse(directory / "junit.xml").getroot()  # noqa: S314 - written by the run under test
    cases = {}
    for case in root.iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        cases[(case.get("classname", ""), case.get("name", ""))] = kinds[0] if kinds else "passed"
    return cases


def _junit_counts(directory: Path) -> dict[str, str]:
    root = ET.parse(directory / "junit.xml").getroot()  # noqa: S314 - written by the run under test
    suite = next(root.iter("testsuite"))
    return {name: suite.get(name, "") for name in ("tests", "errors", "failures", "skipped")}


def _cucumber(directory: Path) -> dict[str, list[tuple[str, list[str]]]]:
    document = json.loads((directory / "cucumber.json").read_text(encoding="utf-8"))
    return {
        feature["uri"]: [
            (element["name"], [step["result"]["status"] for step in element["steps"]])
            for element in feature["elements"]
        ]
        for feature in document
    }


def test_the_merged_junit_cucumber_and_html_are_the_single_run_s(runs: Runs, merged: tuple[int, Path]) -> None:
    out = merged[1]
    assert _junit_cases(out) == _junit_cases(runs.whole)
    assert _junit_counts(out) == _junit_counts(runs.whole)
    assert _cucumber(out) == _cucumber(runs.whole), "same scenarios, steps and statuses, in feature order"
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "A deliberately wrong expectation" in html
    for directory in runs.shards:
        assert f"run prefix {_load(directory)['run_prefix']}" in html, "the report names every shard's run prefix"
    assert (out / "reference-server.log").exists() or not (runs.shards[0] / "reference-server.log").exists()


def test_an_empty_shard_of_a_selection_is_not_an_empty_run(runs: Runs) -> None:
    suite = runs.whole.parent
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "empty", "--profile", "tiny-profile.yaml", "-q",
         *TINY_ARGS, "--shard", "8/8"],
        cwd=suite, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    results = _load(suite / "empty")
    assert results["exit_status"] == 0
    assert (results["shard"]["selected"], results["shard"]["scenarios"]) == (7, 0)


def _copy(source: Path, destination: Path, edit: dict[str, Any] | None = None) -> Path:
    shutil.copytree(source, destination)
    if edit is not None:
        results = _load(destination)
        for dotted, value in edit.items():
            node = results
            *path, last = dotted.split(".")
            for part in path:
                node = node[part]
            node[last] = value
        (destination / "results.json").write_text(json.dumps(results), encoding="utf-8")
    return destination


def test_a_shard_s_leaks_reach_the_merged_report(runs: Runs, tmp_path: Path) -> None:
    leak = {"kind": "user", "name": "ckabcdef-1-someone", "reason": "DELETE answered 500"}
    leaky = _copy(runs.shards[1], tmp_path / "leaky", {"leaks": [leak]})
    _merge(tmp_path / "out", runs.shards[0], leaky, runs.shards[2])
    joined = _load(tmp_path / "out")
    assert joined["leaks"] == [leak]
    assert [entry["leaks"] for entry in joined["merged_from"]] == [0, 1, 0]
    assert "ckabcdef-1-someone" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")


def test_the_merge_compares_with_a_baseline_as_a_run_does(
    runs: Runs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier = _load(runs.whole)
    for scenario in earlier["scenarios"]:
        if scenario["id"] == "tiny::The version answers":
            scenario["outcome"] = "failed"
    (tmp_path / "earlier.json").write_text(json.dumps(earlier), encoding="utf-8")
    _merge(tmp_path / "out", *runs.shards, extra=("--baseline", str(tmp_path / "earlier.json")))
    comparison = _load(tmp_path / "out")["comparison"]
    assert [change["id"] for change in comparison["newly_passing"]] == ["tiny::The version answers"]
    assert comparison["newly_failing"] == [] and comparison["added"] == [] and comparison["removed"] == []
    assert comparison["unchanged"] == len(earlier["scenarios"]) - 1
    capsys.readouterr()
    assert _merge(tmp_path / "bad", *runs.shards, extra=("--baseline", str(tmp_path / "none.json"))) == USAGE_EXIT
    assert "cannot read the baseline" in capsys.readouterr().err


def test_a_missing_shard_is_refused_unless_partial(
    runs: Runs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _merge(tmp_path / "out", runs.shards[0], runs.shards[2]) == USAGE_EXIT
    assert "missing shard(s) 2/3" in capsys.readouterr().err
    assert not (tmp_path / "out" / "results.json").exists(), "nothing is written when the merge is refused"
    status = _merge(tmp_path / "partial", runs.shards[0], runs.shards[2], extra=("--allow-partial",))
    joined = _load(tmp_path / "partial")
    validate(joined, "results.schema")
    left = [s for s in joined["scenarios"] if s["message"] == "disabled: its shard (2/3) was not merged"]
    second = [s for s in _load(runs.shards[1])["scenarios"] if not s["message"].startswith("disabled: runs in")]
    assert {s["id"] for s in left} == {s["id"] for s in second if s["outcome"] != "disabled"}
    assert status == single_run_exit_status([_scenario(s) for s in joined["scenarios"]], interrupted=False)


def _scenario(document: dict[str, Any]) -> ScenarioResult:
    record = ScenarioResult.from_info(document)
    record.outcome = document["outcome"]
    return record


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"profile.name": "spec"}, "different profile"),
        ({"kit_version": "0.0.1"}, "different kit version"),
        ({"target.version": "1.26.0"}, "different target"),
        ({"shard.plan": "0123456789abcdef"}, "different selection"),
        ({"expectations.file": "other.yaml"}, "different expectations file"),
    ],
)
def test_shards_of_different_runs_are_refused(
    runs: Runs, tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: dict[str, Any], message: str
) -> None:
    stranger = _copy(runs.shards[1], tmp_path / "stranger", edit)
    assert _merge(tmp_path / "out", runs.shards[0], stranger, runs.shards[2]) == USAGE_EXIT
    assert message in capsys.readouterr().err


def test_a_shard_given_twice_or_a_whole_run_is_refused(
    runs: Runs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    again = _copy(runs.shards[0], tmp_path / "again")
    assert _merge(tmp_path / "out", runs.shards[0], again, runs.shards[1], runs.shards[2]) == USAGE_EXIT
    assert "shard 1/3 is given twice" in capsys.readouterr().err
    assert _merge(tmp_path / "out", runs.whole) == USAGE_EXIT
    assert "not a shard's results" in capsys.readouterr().err
    assert _merge(tmp_path / "out", tmp_path / "nowhere") == USAGE_EXIT
    assert "no readable results.json" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("outcomes", "interrupted", "expected"),
    [
        (["passed", "unsupported", "expected-failure", "disabled"], False, 0),
        (["passed", "failed"], False, 1),
        (["passed", "error"], False, 1),
        (["disabled", "disabled"], False, 5),
        (["passed"], True, 2),
    ],
)
def test_the_merge_exits_as_a_single_run_would(outcomes: list[str], interrupted: bool, expected: int) -> None:
    records = []
    for number, outcome in enumerate(outcomes):
        record = ScenarioResult(f"a/b::s{number}", "F", "f.feature", f"s{number}", "a", [], [])
        record.outcome = outcome
        records.append(record)
    assert single_run_exit_status(records, interrupted) == expected


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--shard", "4/3"), "the shard number counts from 1 to 3"),
        (("--shard", "0/3"), "the shard number counts from 1 to 3"),
        (("--shard", "half"), "--shard takes K/N"),
        (("--durations-from", "x.json"), "give --shard too"),
        (("--shard", "1/2", "--durations-from", "missing.json"), "cannot read a results.json"),
    ],
)
def test_a_bad_shard_value_is_a_usage_error(runs: Runs, extra: tuple[str, ...], message: str) -> None:
    suite = runs.whole.parent  # the tiny suite's directory
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--report-dir", "refused", "-q", *extra],
        cwd=suite, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == USAGE_EXIT, completed.stdout + completed.stderr
    assert message in completed.stderr
    assert not (suite / "refused" / "results.json").exists()
