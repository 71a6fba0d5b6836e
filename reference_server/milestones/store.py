"""Milestones storage: the ``milestone`` table and ``issue_milestone`` (at most one milestone per issue or
pull request). The open and closed counts are counted from the issues really assigned, never cached, so
they cannot drift from the issues' states."""

from __future__ import annotations

from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS milestone (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    is_closed INTEGER NOT NULL DEFAULT 0,
    deadline INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS milestone_by_repo ON milestone (repo_id, deadline, id);
CREATE TABLE IF NOT EXISTS issue_milestone (
    issue_id INTEGER PRIMARY KEY,
    milestone_id INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS issue_milestone_by_milestone ON issue_milestone (milestone_id);
"""


def insert_milestone(fields: dict[str, Any]) -> int:
    columns = ", ".join(fields)
    marks = ", ".join("?" for _ in fields)
    cursor = forge().db.execute(f"INSERT INTO milestone ({columns}) VALUES ({marks})", tuple(fields.values()))  # noqa: S608 - fixed columns
    return int(cursor.lastrowid or 0)


def update_milestone(milestone_id: int, fields: dict[str, Any]) -> None:
    assignments = ", ".join(f"{column} = ?" for column in fields)
    forge().db.execute(f"UPDATE milestone SET {assignments} WHERE id = ?", (*fields.values(), milestone_id))  # noqa: S608


def milestone_in_repo(repo_id: int, milestone_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM milestone WHERE repo_id = ? AND id = ?", (repo_id, milestone_id))


def milestone_by_name(repo_id: int, name: str) -> Row | None:
    return forge().db.one("SELECT * FROM milestone WHERE repo_id = ? AND name = ? ORDER BY id LIMIT 1", (repo_id, name))


def milestones_of_repo(
    repo_id: int, *, closed: bool | None, name: str, limit: int, offset: int
) -> tuple[list[Row], int]:
    """A page of the repository's milestones (by deadline, then id, as Gitea's default order) and the count."""
    clauses: list[str] = ["repo_id = ?"]
    params: list[object] = [repo_id]
    if closed is not None:
        clauses.append("is_closed = ?")
        params.append(int(closed))
    if name:
        escaped = name.upper().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        clauses.append("UPPER(name) LIKE ? ESCAPE '\\'")
        params.append(f"%{escaped}%")
    where = " AND ".join(clauses)
    db = forge().db
    rows = db.all(
        f"SELECT * FROM milestone WHERE {where} ORDER BY deadline, id LIMIT ? OFFSET ?",  # noqa: S608
        (*params, limit, offset),
    )
    total = db.scalar(f"SELECT COUNT(*) FROM milestone WHERE {where}", params)  # noqa: S608
    return rows, int(total if isinstance(total, int) else 0)


def delete_milestone(milestone_id: int) -> None:
    db = forge().db
    db.execute("DELETE FROM issue_milestone WHERE milestone_id = ?", (milestone_id,))
    db.execute("DELETE FROM milestone WHERE id = ?", (milestone_id,))


def delete_milestones_of_repo(repo_id: int) -> None:
    db = forge().db
    db.execute(
        "DELETE FROM issue_milestone WHERE milestone_id IN (SELECT id FROM milestone WHERE repo_id = ?)", (repo_id,)
    )
    db.execute("DELETE FROM milestone WHERE repo_id = ?", (repo_id,))


def issue_counts(milestone_id: int) -> tuple[int, int]:
    """How many open and closed issues and pull requests the milestone holds."""
    rows = forge().db.all(
        "SELECT i.is_closed AS closed, COUNT(*) AS n FROM issue_milestone im JOIN issue i ON i.id = im.issue_id "
        "WHERE im.milestone_id = ? GROUP BY i.is_closed",
        (milestone_id,),
    )
    counts = {int(row["closed"]): int(row["n"]) for row in rows}
    return counts.get(0, 0), counts.get(1, 0)


def milestone_by_id(milestone_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM milestone WHERE id = ?", (milestone_id,))


def milestone_of_issue(issue_id: int) -> Row | None:
    return forge().db.one(
        "SELECT m.* FROM milestone m JOIN issue_milestone im ON im.milestone_id = m.id WHERE im.issue_id = ?",
        (issue_id,),
    )


def set_issue_milestone(issue_id: int, milestone_id: int) -> None:
    """Put the issue in the milestone (0: in none)."""
    db = forge().db
    if milestone_id:
        db.execute(
            "INSERT INTO issue_milestone (issue_id, milestone_id) VALUES (?, ?) "
            "ON CONFLICT (issue_id) DO UPDATE SET milestone_id = excluded.milestone_id",
            (issue_id, milestone_id),
        )
    else:
        db.execute("DELETE FROM issue_milestone WHERE issue_id = ?", (issue_id,))
