"""Tracked times of issues: seconds a user spent on an issue, soft-deleted as Gitea keeps them."""

from __future__ import annotations

from collections.abc import Sequence

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA", "delete_of_issue", "delete_of_repo", "find_times", "insert_time", "mark_deleted", "time_row"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tracked_time (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    issue_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    created INTEGER NOT NULL,
    time INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tracked_time_repo ON tracked_time (repo_id, id);
"""


def insert_time(repo_id: int, issue_id: int, user_id: int, created: int, seconds: int) -> int:
    cursor = forge().db.execute(
        "INSERT INTO tracked_time (repo_id, issue_id, user_id, created, time) VALUES (?, ?, ?, ?, ?)",
        (repo_id, issue_id, user_id, created, seconds),
    )
    return int(cursor.lastrowid or 0)


def time_row(time_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM tracked_time WHERE id = ?", (time_id,))


def find_times(
    repo_id: int | None,
    *,
    issue_id: int | None = None,
    user_id: int | None = None,
    since: int | None = None,
    before: int | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> tuple[list[Row], int]:
    """Undeleted times of a repository (every repository when None; of one issue, one user, created within
    [since, before]), oldest first, one page of them and their count."""
    clauses: list[str] = ["deleted = 0"]
    params: list[object] = []
    for clause, value in (
        ("repo_id = ?", repo_id),
        ("issue_id = ?", issue_id),
        ("user_id = ?", user_id),
        ("created >= ?", since),
        ("created <= ?", before),
    ):
        if value is not None:
            clauses.append(clause)
            params.append(value)
    where = " AND ".join(clauses)
    db = forge().db
    total = db.one(f"SELECT COUNT(*) AS n FROM tracked_time WHERE {where}", params)  # noqa: S608
    page: Sequence[object] = (limit, offset) if limit is not None else (-1, 0)
    rows = db.all(f"SELECT * FROM tracked_time WHERE {where} ORDER BY id LIMIT ? OFFSET ?", [*params, *page])  # noqa: S608
    return rows, int(total["n"]) if total is not None else 0


def mark_deleted(time_ids: Sequence[int]) -> None:
    for time_id in time_ids:
        forge().db.execute("UPDATE tracked_time SET deleted = 1 WHERE id = ?", (time_id,))


def delete_of_issue(issue_id: int) -> None:
    forge().db.execute("DELETE FROM tracked_time WHERE issue_id = ?", (issue_id,))


def delete_of_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM tracked_time WHERE repo_id = ?", (repo_id,))
