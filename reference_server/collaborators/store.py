"""Table and SQL of repository collaborations (rows go with their repository or user)."""

from __future__ import annotations

from ..context import forge

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS collaborations (
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    access TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (repo_id, user_id)
);
CREATE INDEX IF NOT EXISTS collaborations_user ON collaborations(user_id);
"""


def access_of(repo_id: int, user_id: int) -> str | None:
    value = forge().db.scalar("SELECT access FROM collaborations WHERE repo_id = ? AND user_id = ?", (repo_id, user_id))
    return value if isinstance(value, str) else None


def put(repo_id: int, user_id: int, access: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO collaborations (repo_id, user_id, access, created, updated) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (repo_id, user_id) DO UPDATE SET access = excluded.access, updated = excluded.updated",
        (repo_id, user_id, access, now, now),
    )


def delete(repo_id: int, user_id: int) -> None:
    forge().db.execute("DELETE FROM collaborations WHERE repo_id = ? AND user_id = ?", (repo_id, user_id))


def page(repo_id: int, limit: int, offset: int) -> tuple[list[int], int]:
    rows = forge().db.all(
        "SELECT c.user_id FROM collaborations c JOIN accounts a ON a.id = c.user_id WHERE c.repo_id = ?"
        " ORDER BY a.lower_name LIMIT ? OFFSET ?",
        (repo_id, limit, offset),
    )
    total = forge().db.scalar("SELECT COUNT(*) FROM collaborations WHERE repo_id = ?", (repo_id,))
    return [int(row["user_id"]) for row in rows], total if isinstance(total, int) else 0


def delete_on_owner(owner_id: int, user_id: int) -> None:
    """Drop the user's collaborations on every repository of ``owner_id`` (what a block undoes)."""
    forge().db.execute(
        "DELETE FROM collaborations WHERE user_id = ? AND repo_id IN (SELECT id FROM repos WHERE owner_id = ?)",
        (user_id, owner_id),
    )
