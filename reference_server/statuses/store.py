"""Statuses storage: one ``commit_status`` row per report; ``idx`` numbers a commit's statuses from 1, as
Gitea's ``index`` does (the API's ``id``), and ``context_hash`` groups the reports of one context."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS commit_status (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    sha TEXT NOT NULL,
    idx INTEGER NOT NULL,
    state TEXT NOT NULL,
    target_url TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    context TEXT NOT NULL DEFAULT '',
    context_hash TEXT NOT NULL,
    creator_id INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (repo_id, sha, idx)
);
CREATE INDEX IF NOT EXISTS commit_status_by_commit ON commit_status (repo_id, sha, context_hash, id);
"""

ORDERS = {
    "oldest": "created ASC, id ASC",
    "recentupdate": "updated DESC, id DESC",
    "leastupdate": "updated ASC, id ASC",
    "leastindex": "idx DESC",
    "highestindex": "idx ASC",
}
"""Gitea's ``sort`` values (``leastindex`` is the highest index first, as Gitea has it); default newest first."""
DEFAULT_ORDER = "created DESC, id DESC"


def insert_status(
    *,
    repo_id: int,
    sha: str,
    state: str,
    target_url: str,
    description: str,
    context: str,
    context_hash: str,
    creator_id: int,
    now: int,
) -> int:
    """Store a status with the commit's next index (call inside a transaction)."""
    db = forge().db
    last = db.scalar("SELECT MAX(idx) FROM commit_status WHERE repo_id = ? AND sha = ?", (repo_id, sha))
    index = (int(last) if isinstance(last, int) else 0) + 1
    cursor = db.execute(
        "INSERT INTO commit_status (repo_id, sha, idx, state, target_url, description, context, context_hash,"
        " creator_id, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (repo_id, sha, index, state, target_url, description, context, context_hash, creator_id, now, now),
    )
    return int(cursor.lastrowid or 0)


def latest_row_of_context(repo_id: int, sha: str, context_hash: str) -> Row | None:
    """The newest status of one context of a commit (the index covers this lookup)."""
    return forge().db.one(
        "SELECT * FROM commit_status WHERE repo_id = ? AND sha = ? AND context_hash = ? ORDER BY id DESC LIMIT 1",
        (repo_id, sha, context_hash),
    )


def status_by_id(status_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM commit_status WHERE id = ?", (status_id,))


def status_rows(repo_id: int, sha: str, *, state: str, sort: str, limit: int, offset: int) -> tuple[list[Row], int]:
    """A page of a commit's statuses (``state``: one state or "" for all) in the order ``sort`` names."""
    where = "repo_id = ? AND sha = ?" + (" AND state = ?" if state else "")
    params: tuple[object, ...] = (repo_id, sha, state) if state else (repo_id, sha)
    order = ORDERS.get(sort, DEFAULT_ORDER)
    db = forge().db
    rows = db.all(
        f"SELECT * FROM commit_status WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",  # noqa: S608
        (*params, limit, offset),
    )
    total = db.scalar(f"SELECT COUNT(*) FROM commit_status WHERE {where}", params)  # noqa: S608
    return rows, int(total if isinstance(total, int) else 0)


def latest_rows(repo_id: int, sha: str) -> list[Row]:
    """The newest status of each context of a commit, oldest context first."""
    return forge().db.all(
        "SELECT * FROM commit_status WHERE id IN (SELECT MAX(id) FROM commit_status WHERE repo_id = ? AND sha = ?"
        " GROUP BY context_hash) ORDER BY id",
        (repo_id, sha),
    )
