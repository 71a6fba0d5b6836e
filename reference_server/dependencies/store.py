"""Dependencies storage: one row per link, ``issue_id`` depends on ``dependency_id`` (so ``dependency_id``
blocks ``issue_id``), as Gitea's ``issue_dependency``. Rows go with either issue (foreign keys cascade)."""

from __future__ import annotations

from ..context import forge

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS issue_dependency (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL,
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    dependency_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    UNIQUE (issue_id, dependency_id)
);
CREATE INDEX IF NOT EXISTS issue_dependency_blocker ON issue_dependency (dependency_id, id);
"""


def link_exists(issue_id: int, dependency_id: int) -> bool:
    row = forge().db.one(
        "SELECT 1 FROM issue_dependency WHERE issue_id = ? AND dependency_id = ?", (issue_id, dependency_id)
    )
    return row is not None


def insert_link(issue_id: int, dependency_id: int, user_id: int, now: int) -> None:
    forge().db.execute(
        "INSERT INTO issue_dependency (user_id, issue_id, dependency_id, created) VALUES (?, ?, ?, ?)",
        (user_id, issue_id, dependency_id, now),
    )


def delete_link(issue_id: int, dependency_id: int) -> bool:
    """Remove one link; False when there was none."""
    cursor = forge().db.execute(
        "DELETE FROM issue_dependency WHERE issue_id = ? AND dependency_id = ?", (issue_id, dependency_id)
    )
    return cursor.rowcount > 0


def dependency_ids(issue_id: int) -> list[int]:
    """The issues ``issue_id`` depends on (its blockers), oldest link first."""
    rows = forge().db.all("SELECT dependency_id FROM issue_dependency WHERE issue_id = ? ORDER BY id", (issue_id,))
    return [int(row["dependency_id"]) for row in rows]


def blocked_ids(issue_id: int) -> list[int]:
    """The issues that depend on ``issue_id`` (those it blocks), oldest link first."""
    rows = forge().db.all("SELECT issue_id FROM issue_dependency WHERE dependency_id = ? ORDER BY id", (issue_id,))
    return [int(row["issue_id"]) for row in rows]
