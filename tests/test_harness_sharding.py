"""``--shard K/N`` plans: parsing, disjoint and covering parts, determinism, balance by count and by durations."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import pytest_arguments
from conformance.merge import merge_operation_coverage
from conformance.sharding import (
    ShardError,
    ShardSpec,
    load_durations,
    other_shard_reason,
    parse_shard,
    plan_digest,
    plan_shards,
    shard_of_reason,
)

IDS = [f"area{n % 7}/feature{n % 11}::scenario {n}" for n in range(103)]


@pytest.mark.parametrize(
    ("text", "expected"), [("1/1", ShardSpec(1, 1)), ("2/4", ShardSpec(2, 4)), (" 4 / 4 ", ShardSpec(4, 4))]
)
def test_a_shard_is_k_of_n(text: str, expected: ShardSpec) -> None:
    assert parse_shard(text) == expected
    assert str(expected) == f"{expected.index}/{expected.count}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0/3", "counts from 1 to 3"),
        ("4/3", "counts from 1 to 3"),
        ("1/0", "at least 1"),
        ("2", "takes K/N"),
        ("a/b", "takes K/N"),
        ("-1/3", "takes K/N"),
        ("1/3/5", "takes K/N"),
        ("", "takes K/N"),
    ],
)
def test_a_bad_shard_says_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(ShardError, match=message):
        parse_shard(text)


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8, 200])
def test_the_shards_are_disjoint_and_cover_the_selection_balanced_by_count(count: int) -> None:
    plan = plan_shards(IDS, count)
    assert set(plan) == set(IDS), "every selected scenario is in exactly one shard"
    assert set(plan.values()) <= set(range(1, count + 1))
    sizes = [sum(1 for shard in plan.values() if shard == index) for index in range(1, count + 1)]
    assert sum(sizes) == len(IDS)
    assert max(sizes) - min(sizes) <= 1, sizes


def test_the_plan_does_not_depend_on_collection_order_or_duplicates() -> None:
    shuffled = IDS[:]
    random.Random(4).shuffle(shuffled)  # noqa: S311 - an order, not a secret
    assert plan_shards(shuffled + IDS[:5], 4) == plan_shards(IDS, 4)
    assert plan_digest(plan_shards(shuffled, 4)) == plan_digest(plan_shards(IDS, 4))
    assert plan_digest(plan_shards(IDS, 4)) != plan_digest(plan_shards(IDS[:-1], 4)), "another selection, another plan"


def test_durations_balance_the_shards_longest_first() -> None:
    durations = {"a": 10.0, "b": 7.0, "c": 6.0, "d": 5.0, "e": 4.0, "f": 1.0}
    plan = plan_shards(list(durations), 2, durations)
    # LPT: a->1 (10), b->2 (7), c->2 (13), d->1 (15), e->2 (17), f->1 (16)
    assert plan == {"a": 1, "b": 2, "c": 2, "d": 1, "e": 2, "f": 1}
    loads = {shard: sum(durations[s] for s, k in plan.items() if k == shard) for shard in (1, 2)}
    assert loads == {1: 16.0, 2: 17.0}


def test_by_count_a_long_scenario_would_unbalance_what_durations_balance() -> None:
    durations = {f"s{n:02}": 1.0 for n in range(20)} | {"s00": 30.0}
    by_count = plan_shards(list(durations), 2)
    by_time = plan_shards(list(durations), 2, durations)

    def spread(plan: dict[str, int]) -> float:
        loads = [sum(durations[s] for s, k in plan.items() if k == shard) for shard in (1, 2)]
        return max(loads) - min(loads)

    assert spread(by_count) >= 28
    assert spread(by_time) <= 11
    assert [s for s, k in by_time.items() if k == by_time["s00"]] == ["s00"] + [
        s for s in sorted(durations) if s != "s00" and by_time[s] == by_time["s00"]
    ]


def test_a_scenario_without_a_recorded_duration_weighs_the_median() -> None:
    durations = {"known-1": 1.0, "known-2": 2.0, "known-3": 9.0}
    plan = plan_shards([*durations, "new"], 2, durations)
    # weights: known-3 9, known-2 2, new 2 (the median), known-1 1; ties by id: known-2 before new
    assert plan == {"known-3": 1, "known-2": 2, "new": 2, "known-1": 2}


def test_equal_durations_are_placed_by_id() -> None:
    plan = plan_shards(["c", "a", "b", "d"], 2, {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0})
    assert plan == {"a": 1, "b": 2, "c": 1, "d": 2}


def test_durations_come_from_the_scenarios_that_ran(tmp_path: Path) -> None:
    document = {
        "scenarios": [
            {"id": "x::ran", "outcome": "passed", "duration": 1.5},
            {"id": "x::failed", "outcome": "failed", "duration": 3},
            {"id": "x::left out", "outcome": "disabled", "duration": 0.0},
        ]
    }
    (tmp_path / "results.json").write_text(json.dumps(document), encoding="utf-8")
    assert load_durations(tmp_path) == {"x::ran": 1.5, "x::failed": 3.0}
    assert load_durations(tmp_path / "results.json") == load_durations(tmp_path)
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ShardError, match="cannot read"):
        load_durations(tmp_path / "bad.json")
    with pytest.raises(ShardError, match="cannot read"):
        load_durations(tmp_path / "missing.json")
    (tmp_path / "other.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ShardError, match=r"not a conformance results\.json"):
        load_durations(tmp_path / "other.json")


def test_the_disabled_reason_names_the_shard_and_reads_back() -> None:
    assert shard_of_reason(other_shard_reason(3, 4)) == 3
    assert shard_of_reason("disabled: not selected (-m, -k or the scenarios named)") is None


def test_the_command_hands_the_shard_options_to_pytest() -> None:
    arguments = pytest_arguments(["--shard", "2/3", "--durations-from", "last/results.json", "-m", "badges"])
    assert arguments[arguments.index("--shard") + 1] == "2/3"
    assert arguments[arguments.index("--durations-from") + 1] == "last/results.json"


def _coverage(uncovered: list[tuple[str, str, str]], unmatched: list[str]) -> dict[str, Any]:
    """An operation coverage of three operations (two tagged ``repository``, one ``user``)."""
    every = [("GET", "/repos/{owner}/{repo}", "repository"), ("DELETE", "/repos/{owner}/{repo}", "repository")]
    every.append(("GET", "/user", "user"))
    rows = [
        {"method": m, "path": p, "operation_id": f"{m} {p}", "tag": t} for m, p, t in every if (m, p, t) in uncovered
    ]
    by_tag = {"repository": {"total": 2, "covered": 2}, "user": {"total": 1, "covered": 1}}
    for row in rows:
        by_tag[row["tag"]]["covered"] -= 1
    return {"source": "s", "total": 3, "covered": 3 - len(rows), "by_tag": by_tag, "uncovered": rows,
            "unmatched_requests": unmatched}  # fmt: skip


def test_an_operation_is_covered_when_any_shard_reached_it() -> None:
    get_repo, delete_repo, get_user = (
        ("GET", "/repos/{owner}/{repo}", "repository"),
        ("DELETE", "/repos/{owner}/{repo}", "repository"),
        ("GET", "/user", "user"),
    )
    first = _coverage([delete_repo, get_user], ["GET /nowhere"])  # reached GET repo
    second = _coverage([get_repo, get_user], ["POST /elsewhere"])  # reached DELETE repo
    merged = merge_operation_coverage([first, second])
    assert merged == _coverage([get_user], ["GET /nowhere", "POST /elsewhere"])
    assert merged["covered"] == 2 and merged["by_tag"]["repository"] == {"total": 2, "covered": 2}
