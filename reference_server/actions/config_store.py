"""Actions storage of job configuration: secrets and variables of a repository, an organization or a user.

A row belongs to an owner (``owner_id``, ``repo_id = 0``) or to a repository (``owner_id = 0``,
``repo_id``), as in Gitea. Names are stored upper-cased, so the unique index makes them unique
case-insensitively. Secret values are stored sealed (see :mod:`secrets`), never in clear.
"""

from __future__ import annotations

from typing import Literal

from ..context import forge
from ..db import Row
from .store import count

__all__ = ["SCHEMA", "ConfigTable"]

ConfigTable = Literal["action_secret", "action_variable"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS action_secret (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    data TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (owner_id, repo_id, name)
);
CREATE TABLE IF NOT EXISTS action_variable (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    data TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (owner_id, repo_id, name)
);
"""

_TABLES: frozenset[str] = frozenset({"action_secret", "action_variable"})


def _table(table: ConfigTable) -> str:
    """The table name, checked against the two known ones before it is put into SQL text."""
    if table not in _TABLES:  # pragma: no cover - the Literal type already forbids it
        raise ValueError(f"unknown configuration table {table!r}")
    return table


def find(table: ConfigTable, owner_id: int, repo_id: int, name: str) -> Row | None:
    return forge().db.one(
        f"SELECT * FROM {_table(table)} WHERE owner_id = ? AND repo_id = ? AND name = ?",  # noqa: S608 - table name from a fixed set
        (owner_id, repo_id, name),
    )


def page(table: ConfigTable, owner_id: int, repo_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    """One page of a scope's rows by name, and how many the scope holds."""
    db = forge().db
    rows = db.all(
        f"SELECT * FROM {_table(table)} WHERE owner_id = ? AND repo_id = ? ORDER BY name LIMIT ? OFFSET ?",  # noqa: S608 - table name from a fixed set
        (owner_id, repo_id, limit, offset),
    )
    total = count(f"SELECT COUNT(*) FROM {_table(table)} WHERE owner_id = ? AND repo_id = ?", (owner_id, repo_id))  # noqa: S608 - table name from a fixed set
    return rows, total


def all_of(table: ConfigTable, owner_id: int, repo_id: int) -> list[Row]:
    return forge().db.all(
        f"SELECT * FROM {_table(table)} WHERE owner_id = ? AND repo_id = ? ORDER BY name",  # noqa: S608 - fixed set
        (owner_id, repo_id),
    )


def insert(
    table: ConfigTable, *, owner_id: int, repo_id: int, name: str, data: str, description: str, now: int
) -> None:
    forge().db.execute(
        f"INSERT INTO {_table(table)} (owner_id, repo_id, name, data, description, created, updated) "  # noqa: S608 - table name from a fixed set
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (owner_id, repo_id, name, data, description, now, now),
    )


def update(table: ConfigTable, row_id: int, *, name: str, data: str, description: str, now: int) -> None:
    forge().db.execute(
        f"UPDATE {_table(table)} SET name = ?, data = ?, description = ?, updated = ? WHERE id = ?",  # noqa: S608 - table name from a fixed set
        (name, data, description, now, row_id),
    )


def delete(table: ConfigTable, row_id: int) -> None:
    forge().db.execute(f"DELETE FROM {_table(table)} WHERE id = ?", (row_id,))  # noqa: S608 - table name from a fixed set


def delete_of_repo(repo_id: int) -> None:
    """Forget a deleted repository's secrets and variables."""
    for table in ("action_secret", "action_variable"):
        forge().db.execute(f"DELETE FROM {table} WHERE repo_id = ?", (repo_id,))  # noqa: S608 - table name from a fixed set


def delete_of_owner(owner_id: int) -> None:
    """Forget a deleted user's or organization's own secrets and variables."""
    for table in ("action_secret", "action_variable"):
        forge().db.execute(f"DELETE FROM {table} WHERE owner_id = ? AND repo_id = 0", (owner_id,))  # noqa: S608 - table name from a fixed set
