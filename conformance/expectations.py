"""Expectations: scenarios a target is known to fail, kept outside the tests (``--expectations FILE``).

The file is YAML::

    expectations:
      - id: "runners/registration_tokens::The legacy GET still gives a registration token"
        reason: Gitea 1.26 removed the legacy GET route
        link: ../shared/reference/actions-rest.md
        expires: 2027-06-30        # optional

A listed scenario that fails becomes ``expected-failure`` (it does not fail the run). One that passes
stays ``passed`` and is reported as "fixed: remove this entry" (listed prominently, without failing
the run: the target got better). An entry whose ``expires`` date is past no longer excuses a
failure: the scenario counts as failed with a message saying the entry expired. Errors and
unsupported or disabled scenarios are never hidden or changed by an entry.

Scenario ids are ``<feature file path under features/, without .feature>::<scenario name>`` with
``[<example values joined by ->]`` for a row of a Scenario Outline; an id without the row covers
every row.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

__all__ = ["Expectation", "ExpectationError", "Expectations", "load_expectations", "parse_expectations"]

KEYS = frozenset({"id", "reason", "link", "expires"})


class ExpectationError(ValueError):
    """An expectations file that cannot be used: one clear line."""


@dataclass(frozen=True)
class Expectation:
    """One entry: a scenario id expected to fail, and why."""

    id: str
    reason: str
    link: str = ""
    expires: dt.date | None = None

    def expired(self, today: dt.date) -> bool:
        """Whether the entry no longer excuses a failure."""
        return self.expires is not None and self.expires < today

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of results.json."""
        return {
            "id": self.id,
            "reason": self.reason,
            "link": self.link,
            "expires": self.expires.isoformat() if self.expires else None,
        }


@dataclass(frozen=True)
class Expectations:
    """The entries of one file, by id."""

    path: Path | None
    entries: dict[str, Expectation]

    def for_scenario(self, scenario_id: str) -> Expectation | None:
        """The entry for this scenario: its exact id, or its id without the example row."""
        return self.entries.get(scenario_id) or self.entries.get(scenario_id.split("[", 1)[0])

    def unknown(self, scenario_ids: Iterable[str]) -> list[str]:
        """Entry ids that name no collected scenario (with or without an example row)."""
        known = set(scenario_ids)
        known |= {scenario_id.split("[", 1)[0] for scenario_id in known}
        return [entry for entry in self.entries if entry not in known]


def _date(value: Any, where: str) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ExpectationError(f"{where}: expires must be a date like 2027-06-30, not {value!r}") from None


def _entry(item: Any, where: str) -> Expectation:
    if not isinstance(item, dict):
        raise ExpectationError(f"{where} must be a mapping with id and reason")
    unknown = sorted(str(key) for key in set(item) - KEYS)
    if unknown:
        raise ExpectationError(f"{where} has unknown keys: {', '.join(unknown)}")
    scenario_id, reason = item.get("id"), item.get("reason")
    if not isinstance(scenario_id, str) or "::" not in scenario_id:
        raise ExpectationError(f"{where}: id must be a scenario id like 'area/feature::Scenario name'")
    if not isinstance(reason, str) or not reason.strip():
        raise ExpectationError(f"{where} ({scenario_id}) needs a reason")
    link = item.get("link", "")
    if not isinstance(link, str):
        raise ExpectationError(f"{where} ({scenario_id}): link must be a string")
    return Expectation(scenario_id, reason.strip(), link, _date(item.get("expires"), f"{where} ({scenario_id})"))


def parse_expectations(raw: Any, path: Path | None) -> Expectations:
    """Check and index a loaded document."""
    name = str(path) if path else "expectations"
    if raw is None:
        return Expectations(path, {})
    if not isinstance(raw, dict) or set(raw) != {"expectations"} or not isinstance(raw["expectations"], list):
        raise ExpectationError(f"{name} must be a mapping with one key, expectations, holding a list")
    entries: dict[str, Expectation] = {}
    for index, item in enumerate(raw["expectations"], start=1):
        entry = _entry(item, f"{name}: entry {index}")
        if entry.id in entries:
            raise ExpectationError(f"{name}: {entry.id} is listed twice")
        entries[entry.id] = entry
    return Expectations(path, entries)


def load_expectations(path: Path) -> Expectations:
    """Read and check an expectations file; ExpectationError when it is unusable."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ExpectationError(f"cannot read expectations file {path}: {error.strerror}") from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ExpectationError(f"expectations file {path} is not valid YAML: {error}") from None
    return parse_expectations(raw, path)
