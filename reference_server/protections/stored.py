"""Protection rules as stored, and their enforcement view, importable without the Flask app.

The pre-receive hook program is a process of its own that Git starts for every push; it reads the rules
here on its own read-only connection. Nothing in this module may import the app (``context``), so the
hook starts in a fraction of the app's import time; the app's store and models build on it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..db import Row
from .rules import BranchRule, TagRule

__all__ = [
    "BRANCH_COLUMNS",
    "COLUMN_SETTINGS",
    "TAG_COLUMNS",
    "BranchProtection",
    "Reader",
    "TagProtection",
    "branch_rule_rows",
    "branch_rules",
    "tag_rule_rows",
    "tag_rules",
]

BRANCH_COLUMNS = (
    "rule_name",
    "priority",
    "enable_push",
    "enable_push_whitelist",
    "push_user_ids",
    "push_teams",
    "push_deploy_keys",
    "enable_force_push",
    "enable_force_push_allowlist",
    "force_push_user_ids",
    "force_push_teams",
    "force_push_deploy_keys",
    "protected_file_patterns",
    "unprotected_file_patterns",
    "stored_options",
)
"""The writable columns of ``protected_branch``; values are encoded by ``store._encode``."""
TAG_COLUMNS = ("name_pattern", "user_ids", "teams")
COLUMN_SETTINGS = frozenset(BRANCH_COLUMNS) - {"rule_name", "priority", "stored_options"}


class Reader(Protocol):
    """Anything that runs a SELECT and returns rows (the app's ``Database`` or the hook's connection)."""

    def all(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...


def branch_rule_rows(reader: Reader, repo_id: int) -> list[Row]:
    return reader.all("SELECT * FROM protected_branch WHERE repo_id = ? ORDER BY id", (repo_id,))


def tag_rule_rows(reader: Reader, repo_id: int) -> list[Row]:
    return reader.all("SELECT * FROM protected_tag WHERE repo_id = ? ORDER BY id", (repo_id,))


@dataclass(frozen=True)
class BranchProtection:
    """One stored branch protection rule; ``settings`` holds every setting by its storage name."""

    id: int
    repo_id: int
    rule_name: str
    priority: int
    created: int
    updated: int
    settings: Mapping[str, Any]

    @classmethod
    def from_row(cls, row: Row) -> BranchProtection:
        settings: dict[str, Any] = {name: row[name] for name in COLUMN_SETTINGS}
        for name in ("push_user_ids", "force_push_user_ids", "push_teams", "force_push_teams"):
            settings[name] = json.loads(row[name])
        settings.update(json.loads(row["stored_options"]))
        return cls(
            id=int(row["id"]),
            repo_id=int(row["repo_id"]),
            rule_name=str(row["rule_name"]),
            priority=int(row["priority"]),
            created=int(row["created"]),
            updated=int(row["updated"]),
            settings=settings,
        )

    def flag(self, name: str) -> bool:
        return bool(self.settings.get(name, False))

    def team_ids(self, name: str) -> frozenset[int]:
        return frozenset(int(team["id"]) for team in self.settings.get(name, []))

    def to_rule(self) -> BranchRule:
        """What enforcement needs of this rule."""
        return BranchRule(
            id=self.id,
            rule_name=self.rule_name,
            priority=self.priority,
            created=self.created,
            enable_push=self.flag("enable_push"),
            enable_push_whitelist=self.flag("enable_push_whitelist"),
            push_user_ids=frozenset(self.settings["push_user_ids"]),
            push_team_ids=self.team_ids("push_teams"),
            push_deploy_keys=self.flag("push_deploy_keys"),
            enable_force_push=self.flag("enable_force_push"),
            enable_force_push_allowlist=self.flag("enable_force_push_allowlist"),
            force_push_user_ids=frozenset(self.settings["force_push_user_ids"]),
            force_push_team_ids=self.team_ids("force_push_teams"),
            force_push_deploy_keys=self.flag("force_push_deploy_keys"),
            protected_file_patterns=str(self.settings["protected_file_patterns"]),
            unprotected_file_patterns=str(self.settings["unprotected_file_patterns"]),
        )


@dataclass(frozen=True)
class TagProtection:
    """One stored tag protection rule."""

    id: int
    repo_id: int
    name_pattern: str
    user_ids: tuple[int, ...]
    teams: tuple[Mapping[str, Any], ...]
    created: int
    updated: int

    @classmethod
    def from_row(cls, row: Row) -> TagProtection:
        return cls(
            id=int(row["id"]),
            repo_id=int(row["repo_id"]),
            name_pattern=str(row["name_pattern"]),
            user_ids=tuple(int(user_id) for user_id in json.loads(row["user_ids"])),
            teams=tuple(json.loads(row["teams"])),
            created=int(row["created"]),
            updated=int(row["updated"]),
        )

    def to_rule(self) -> TagRule:
        return TagRule(
            id=self.id,
            name_pattern=self.name_pattern,
            user_ids=frozenset(self.user_ids),
            team_ids=frozenset(int(team["id"]) for team in self.teams),
        )


def branch_rules(reader: Reader, repo_id: int) -> list[BranchRule]:
    """The enforcement view of a repository's branch rules."""
    return [BranchProtection.from_row(row).to_rule() for row in branch_rule_rows(reader, repo_id)]


def tag_rules(reader: Reader, repo_id: int) -> list[TagRule]:
    """The enforcement view of a repository's tag rules."""
    return [TagProtection.from_row(row).to_rule() for row in tag_rule_rows(reader, repo_id)]
