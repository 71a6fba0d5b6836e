"""Protections storage: branch protection rules and tag protection rules of repositories.

Lists of users are JSON arrays of account ids; lists of teams are JSON arrays of ``{"id", "name"}``
(the name as resolved when the rule was written). The settings the reference stores without
enforcing (merge, approvals, status checks...) are one JSON object, ``stored_options``. The columns and
the reading of rules live in :mod:`.stored`, which the pre-receive hook program imports without the app.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..context import forge
from ..db import Row
from . import stored
from .stored import BRANCH_COLUMNS, TAG_COLUMNS

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS protected_branch (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    rule_name TEXT NOT NULL,
    priority INTEGER NOT NULL,
    enable_push INTEGER NOT NULL,
    enable_push_whitelist INTEGER NOT NULL,
    push_user_ids TEXT NOT NULL,
    push_teams TEXT NOT NULL,
    push_deploy_keys INTEGER NOT NULL,
    enable_force_push INTEGER NOT NULL,
    enable_force_push_allowlist INTEGER NOT NULL,
    force_push_user_ids TEXT NOT NULL,
    force_push_teams TEXT NOT NULL,
    force_push_deploy_keys INTEGER NOT NULL,
    protected_file_patterns TEXT NOT NULL,
    unprotected_file_patterns TEXT NOT NULL,
    stored_options TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (repo_id, rule_name)
);
CREATE INDEX IF NOT EXISTS protected_branch_repo ON protected_branch (repo_id, priority);
CREATE TABLE IF NOT EXISTS protected_tag (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    name_pattern TEXT NOT NULL,
    user_ids TEXT NOT NULL,
    teams TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS protected_tag_repo ON protected_tag (repo_id, id);
"""


def _encode(fields: Mapping[str, Any]) -> dict[str, Any]:
    encoded: dict[str, Any] = {}
    for name, value in fields.items():
        if isinstance(value, bool):
            encoded[name] = int(value)
        elif isinstance(value, (list, tuple, dict)):
            encoded[name] = json.dumps(value, sort_keys=isinstance(value, dict))
        else:
            encoded[name] = value
    return encoded


# -- branch rules ---------------------------------------------------------------------------------


def branch_rule_rows(repo_id: int) -> list[Row]:
    return stored.branch_rule_rows(forge().db, repo_id)


def branch_rule_by_name(repo_id: int, rule_name: str) -> Row | None:
    return forge().db.one("SELECT * FROM protected_branch WHERE repo_id = ? AND rule_name = ?", (repo_id, rule_name))


def max_branch_priority(repo_id: int) -> int:
    value = forge().db.scalar("SELECT MAX(priority) FROM protected_branch WHERE repo_id = ?", (repo_id,))
    return int(value) if isinstance(value, int) else 0


def insert_branch_rule(repo_id: int, fields: Mapping[str, Any], now: int) -> int:
    values = _encode(fields)
    columns = ", ".join(BRANCH_COLUMNS)
    marks = ", ".join("?" for _ in BRANCH_COLUMNS)
    cursor = forge().db.execute(
        f"INSERT INTO protected_branch (repo_id, {columns}, created, updated) VALUES (?, {marks}, ?, ?)",  # noqa: S608
        (repo_id, *(values[column] for column in BRANCH_COLUMNS), now, now),
    )
    return int(cursor.lastrowid or 0)


def update_branch_rule(rule_id: int, fields: Mapping[str, Any], now: int) -> None:
    """Write the given columns (names from :data:`BRANCH_COLUMNS` only) of one rule."""
    values = _encode(fields)
    names = [column for column in BRANCH_COLUMNS if column in values]
    assignments = "".join(f"{column} = ?, " for column in names)
    forge().db.execute(
        f"UPDATE protected_branch SET {assignments}updated = ? WHERE id = ?",  # noqa: S608
        (*(values[column] for column in names), now, rule_id),
    )


def set_branch_priority(repo_id: int, rule_id: int, priority: int) -> None:
    """Only the priority changes: the rule keeps its id, creation and update times."""
    forge().db.execute(
        "UPDATE protected_branch SET priority = ? WHERE repo_id = ? AND id = ?", (priority, repo_id, rule_id)
    )


def branch_rule_ids(repo_id: int) -> set[int]:
    rows = forge().db.all("SELECT id FROM protected_branch WHERE repo_id = ?", (repo_id,))
    return {int(row["id"]) for row in rows}


def delete_branch_rule(rule_id: int) -> None:
    forge().db.execute("DELETE FROM protected_branch WHERE id = ?", (rule_id,))


# -- tag rules ------------------------------------------------------------------------------------


def tag_rule_rows(repo_id: int) -> list[Row]:
    return stored.tag_rule_rows(forge().db, repo_id)


def tag_rule_row(repo_id: int, rule_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM protected_tag WHERE repo_id = ? AND id = ?", (repo_id, rule_id))


def tag_rule_by_pattern(repo_id: int, pattern: str) -> Row | None:
    return forge().db.one("SELECT * FROM protected_tag WHERE repo_id = ? AND name_pattern = ?", (repo_id, pattern))


def insert_tag_rule(repo_id: int, fields: Mapping[str, Any], now: int) -> int:
    values = _encode(fields)
    cursor = forge().db.execute(
        "INSERT INTO protected_tag (repo_id, name_pattern, user_ids, teams, created, updated) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (repo_id, *(values[column] for column in TAG_COLUMNS), now, now),
    )
    return int(cursor.lastrowid or 0)


def update_tag_rule(rule_id: int, fields: Mapping[str, Any], now: int) -> None:
    values = _encode(fields)
    names = [column for column in TAG_COLUMNS if column in values]
    assignments = "".join(f"{column} = ?, " for column in names)
    forge().db.execute(
        f"UPDATE protected_tag SET {assignments}updated = ? WHERE id = ?",  # noqa: S608
        (*(values[column] for column in names), now, rule_id),
    )


def delete_tag_rule(rule_id: int) -> None:
    forge().db.execute("DELETE FROM protected_tag WHERE id = ?", (rule_id,))


def delete_rules_of_repo(repo_id: int) -> None:
    db = forge().db
    db.execute("DELETE FROM protected_branch WHERE repo_id = ?", (repo_id,))
    db.execute("DELETE FROM protected_tag WHERE repo_id = ?", (repo_id,))


def copy_branch_rules(from_repo_id: int, to_repo_id: int, now: int) -> None:
    """Copy every branch protection rule of a repository to another (a repository generated from a template)."""
    for row in branch_rule_rows(from_repo_id):
        insert_branch_rule(to_repo_id, {column: row[column] for column in BRANCH_COLUMNS}, now)
