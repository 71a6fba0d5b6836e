"""Storage of reactions: one row per user, content and issue (``comment_id`` 0) or comment."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS reaction (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    repo_id INTEGER NOT NULL,
    issue_id INTEGER NOT NULL,
    comment_id INTEGER NOT NULL DEFAULT 0,
    user_id INTEGER NOT NULL,
    created INTEGER NOT NULL,
    UNIQUE (type, issue_id, comment_id, user_id)
);
CREATE INDEX IF NOT EXISTS reaction_by_issue ON reaction (issue_id, comment_id, created, id);
CREATE INDEX IF NOT EXISTS reaction_by_repo ON reaction (repo_id);
"""


def find_reaction(issue_id: int, comment_id: int, user_id: int, content: str) -> Row | None:
    return forge().db.one(
        "SELECT * FROM reaction WHERE issue_id = ? AND comment_id = ? AND user_id = ? AND type = ?",
        (issue_id, comment_id, user_id, content),
    )


def insert_reaction(*, repo_id: int, issue_id: int, comment_id: int, user_id: int, content: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO reaction (type, repo_id, issue_id, comment_id, user_id, created) VALUES (?, ?, ?, ?, ?, ?)",
        (content, repo_id, issue_id, comment_id, user_id, now),
    )


def delete_reaction(issue_id: int, comment_id: int, user_id: int, content: str) -> None:
    forge().db.execute(
        "DELETE FROM reaction WHERE issue_id = ? AND comment_id = ? AND user_id = ? AND type = ?",
        (issue_id, comment_id, user_id, content),
    )


def reactions_of(
    issue_id: int, comment_id: int, kinds: tuple[str, ...], limit: int, offset: int
) -> tuple[list[Row], int]:
    """A page of the reactions (of the allowed ``kinds``) to an issue or one of its comments, oldest first."""
    marks = ", ".join("?" for _ in kinds) or "NULL"
    where = f"issue_id = ? AND comment_id = ? AND type IN ({marks})"
    params = (issue_id, comment_id, *kinds)
    db = forge().db
    rows = db.all(
        f"SELECT * FROM reaction WHERE {where} ORDER BY created, id LIMIT ? OFFSET ?",  # noqa: S608
        (*params, limit, offset),
    )
    total = db.scalar(f"SELECT COUNT(*) FROM reaction WHERE {where}", params)  # noqa: S608
    return rows, int(total if isinstance(total, int) else 0)


def delete_where(column: str, value: int) -> None:
    """Delete the reactions whose ``column`` (issue_id, comment_id or repo_id) is ``value``."""
    if column not in ("issue_id", "comment_id", "repo_id"):
        raise ValueError(column)
    forge().db.execute(f"DELETE FROM reaction WHERE {column} = ?", (value,))  # noqa: S608 - fixed columns
