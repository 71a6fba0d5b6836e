"""``--shard K/N``: run a deterministic, disjoint part of the selected scenarios (the user's CI is the engine).

The shard plan is computed in every process from the scenario ids alone, after the user's selection
(``-m``, ``-k``, node ids) and the profile: the same ids give the same plan on any machine, whatever the
collection order, hash seed or number of xdist workers. Without ``--durations-from`` every scenario weighs
one, so the shards differ by one scenario at most; with it, each weighs its recorded duration (a scenario
the file does not know weighs the median of those it does) and the heaviest are placed first, each on the
least loaded shard (the LPT rule), ties broken by scenario id and then by the lowest shard number.
``conformance merge`` (``conformance.merge``) joins the shards' report directories into one.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .reporting import INFO_KEY
from .state import RunState
from .verdicts import DISABLED

__all__ = [
    "SHARD_OUTPUT",
    "ShardError",
    "ShardPlugin",
    "ShardSpec",
    "load_durations",
    "other_shard_reason",
    "parse_shard",
    "plan_digest",
    "plan_shards",
    "shard_of_reason",
]

SHARD_OUTPUT = "conformance_shard"
"""The key of ``workeroutput`` under which an xdist worker hands its shard's facts to the controller."""
_REASON = re.compile(r"^disabled: runs in shard (\d+)/(\d+) \(--shard\)$")


class ShardError(ValueError):
    """A ``--shard`` or ``--durations-from`` value the kit cannot use."""


@dataclass(frozen=True)
class ShardSpec:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> ShardSpec:
    """``K/N`` with 1 <= K <= N, as written on the command line."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if match is None:
        raise ShardError(f"--shard takes K/N (for example 2/4: the second of four shards), got {text!r}")
    index, count = int(match[1]), int(match[2])
    if count < 1:
        raise ShardError(f"--shard {text}: the number of shards must be at least 1")
    if not 1 <= index <= count:
        raise ShardError(f"--shard {text}: the shard number counts from 1 to {count}")
    return ShardSpec(index, count)


def other_shard_reason(shard: int, count: int) -> str:
    """The disabled reason of a scenario selected for another shard (``conformance merge`` reads it back)."""
    return f"disabled: runs in shard {shard}/{count} (--shard)"


def shard_of_reason(message: str) -> int | None:
    """The shard a scenario was left to, from its disabled reason; None for any other reason."""
    match = _REASON.match(message)
    return None if match is None else int(match[1])


def load_durations(path: Path) -> dict[str, float]:
    """Each scenario's recorded duration from a ``results.json`` (or a report directory holding one)."""
    file = path / "results.json" if path.is_dir() else path
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ShardError(f"--durations-from {path}: cannot read a results.json there ({error})") from None
    scenarios = document.get("scenarios") if isinstance(document, dict) else None
    if not isinstance(scenarios, list):
        raise ShardError(f"--durations-from {path}: not a conformance results.json (no scenarios)")
    durations: dict[str, float] = {}
    for scenario in scenarios:
        if not isinstance(scenario, dict) or scenario.get("outcome") in (DISABLED, None):
            continue
        duration = scenario.get("duration")
        if isinstance(duration, int | float) and duration >= 0:
            durations[str(scenario.get("id"))] = float(duration)
    return durations


def plan_shards(ids: Sequence[str], count: int, durations: Mapping[str, float] | None = None) -> dict[str, int]:
    """Each id's shard (1-based): the heaviest first onto the least loaded shard; the same on any machine."""
    unique = sorted(set(ids))
    known = [durations[scenario] for scenario in unique if durations and scenario in durations]
    default = statistics.median(known) if known else 1.0
    weight = {scenario: durations.get(scenario, default) if durations else 1.0 for scenario in unique}
    loads = [(0.0, shard) for shard in range(1, count + 1)]
    plan: dict[str, int] = {}
    for scenario in sorted(unique, key=lambda name: (-weight[name], name)):
        load, shard = heapq.heappop(loads)
        plan[scenario] = shard
        heapq.heappush(loads, (load + weight[scenario], shard))
    return plan


def plan_digest(plan: Mapping[str, int]) -> str:
    """A short fingerprint of a plan: shards of one run share it, so a merge can tell them from strangers."""
    text = json.dumps(sorted(plan.items()), separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class ShardPlugin:
    """Keeps this shard's scenarios, reports the others as disabled, and records the shard in results.json."""

    def __init__(self, spec: ShardSpec, durations_from: str | None, state: RunState, disabled: dict[str, str]) -> None:
        """``durations_from``: a path resolved against the directory the run was started in (xdist workers too)."""
        self.spec = spec
        self.durations_from = durations_from
        self.durations = load_durations(Path(durations_from)) if durations_from else None
        self.state = state
        self.disabled = disabled
        self.facts: dict[str, Any] | None = None

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """After ``-m``/``-k`` and the profile: keep this shard's part of what is still selected."""
        ids = [_scenario_id(item) for item in items]
        plan = plan_shards(ids, self.spec.count, self.durations)
        kept = [item for item, scenario in zip(items, ids, strict=True) if plan[scenario] == self.spec.index]
        removed = [item for item, scenario in zip(items, ids, strict=True) if plan[scenario] != self.spec.index]
        for scenario in ids:
            if plan[scenario] != self.spec.index:
                self.disabled[scenario] = other_shard_reason(plan[scenario], self.spec.count)
        self.facts = {
            "index": self.spec.index,
            "count": self.spec.count,
            "balanced_by": "durations" if self.durations is not None else "count",
            "durations_from": self.durations_from,
            "selected": len(set(ids)),
            "scenarios": len({_scenario_id(item) for item in kept}),
            "plan": plan_digest(plan),
            "selection": {"markexpr": config.option.markexpr or "", "keyword": config.option.keyword or ""},
        }
        self.state.results.shard = self.facts
        if removed:
            config.hook.pytest_deselected(items=removed)
            items[:] = kept

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """On the xdist controller (which collects nothing): take the shard's facts from a worker."""
        facts = getattr(node, "workeroutput", {}).get(SHARD_OUTPUT)
        if isinstance(facts, dict) and self.state.results.shard is None:
            self.state.results.shard = facts

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Hand the shard's facts to the controller (on an xdist worker); an empty shard is not a failure.

        With more shards than selected scenarios a shard has nothing to run: pytest would exit 5 (nothing
        selected), failing a CI job although the selection was not empty.
        """
        workeroutput: dict[str, Any] | None = getattr(session.config, "workeroutput", None)
        if workeroutput is not None and self.facts is not None:
            workeroutput[SHARD_OUTPUT] = self.facts
        shard = self.state.results.shard
        if session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and shard and shard["selected"] > 0:
            session.exitstatus = pytest.ExitCode.OK


def _scenario_id(item: pytest.Item) -> str:
    """The scenario id the plan is made of (an item that is not a scenario goes by its node id)."""
    info = item.stash.get(INFO_KEY, None)
    return info.id if info is not None else item.nodeid
