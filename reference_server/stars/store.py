"""Tables and SQL of stars and watches (rows go with their repository or account)."""

from __future__ import annotations

from typing import Literal

from ..context import forge

__all__ = ["SCHEMA", "Kind"]

Kind = Literal["star", "watch"]
"""The two tables share one shape: a user's mark on a repository and when it was made."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS star (
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    PRIMARY KEY (user_id, repo_id)
);
CREATE INDEX IF NOT EXISTS star_repo ON star(repo_id);
CREATE TABLE IF NOT EXISTS watch (
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    PRIMARY KEY (user_id, repo_id)
);
CREATE INDEX IF NOT EXISTS watch_repo ON watch(repo_id);
"""

_TABLES: dict[str, str] = {"star": "star", "watch": "watch"}


def _table(kind: Kind) -> str:
    """The table of ``kind``, from a closed set (so the SQL built with it is fixed text)."""
    return _TABLES[kind]


def _count(sql: str, params: tuple[object, ...]) -> int:
    value = forge().db.scalar(sql, params)
    return value if isinstance(value, int) else 0


def mark(kind: Kind, user_id: int, repo_id: int, now: int) -> None:
    sql = f"INSERT OR IGNORE INTO {_table(kind)} (user_id, repo_id, created) VALUES (?, ?, ?)"  # noqa: S608
    forge().db.execute(sql, (user_id, repo_id, now))


def unmark(kind: Kind, user_id: int, repo_id: int) -> None:
    forge().db.execute(f"DELETE FROM {_table(kind)} WHERE user_id = ? AND repo_id = ?", (user_id, repo_id))  # noqa: S608 - a table of a closed set


def has_mark(kind: Kind, user_id: int, repo_id: int) -> bool:
    sql = f"SELECT 1 FROM {_table(kind)} WHERE user_id = ? AND repo_id = ?"  # noqa: S608 - a table of a closed set
    return forge().db.scalar(sql, (user_id, repo_id)) is not None


def count_of_repo(kind: Kind, repo_id: int) -> int:
    return _count(f"SELECT COUNT(*) FROM {_table(kind)} WHERE repo_id = ?", (repo_id,))  # noqa: S608 - a table of a closed set


def users_page(kind: Kind, repo_id: int, limit: int, offset: int) -> list[int]:
    """The accounts that marked the repository, oldest mark first."""
    rows = forge().db.all(
        f"SELECT user_id FROM {_table(kind)} WHERE repo_id = ? ORDER BY created, user_id LIMIT ? OFFSET ?",  # noqa: S608 - a table of a closed set
        (repo_id, limit, offset),
    )
    return [int(row["user_id"]) for row in rows]


def repo_ids_of_user(kind: Kind, user_id: int) -> list[int]:
    """Every repository the account marked, newest mark first."""
    sql = f"SELECT repo_id FROM {_table(kind)} WHERE user_id = ? ORDER BY created DESC, repo_id DESC"  # noqa: S608
    rows = forge().db.all(sql, (user_id,))
    return [int(row["repo_id"]) for row in rows]


def unmark_owned_by(kind: Kind, user_id: int, owner_id: int) -> None:
    """Drop the account's marks on every repository of ``owner_id`` (what a block undoes)."""
    sql = f"DELETE FROM {_table(kind)} WHERE user_id = ? AND repo_id IN (SELECT id FROM repos WHERE owner_id = ?)"  # noqa: S608
    forge().db.execute(sql, (user_id, owner_id))
