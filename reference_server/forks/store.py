"""Table and SQL of pull mirrors: where a mirror fetches from and its sealed credentials."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA", "insert_mirror", "mirror_of", "record_sync"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS repo_mirrors (
    repo_id INTEGER PRIMARY KEY REFERENCES repos(id) ON DELETE CASCADE,
    remote_url TEXT NOT NULL,
    sealed_authorization TEXT NOT NULL DEFAULT '',
    last_sync INTEGER NOT NULL DEFAULT 0
);
"""


def insert_mirror(repo_id: int, remote_url: str, sealed_authorization: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO repo_mirrors (repo_id, remote_url, sealed_authorization, last_sync) VALUES (?, ?, ?, ?)",
        (repo_id, remote_url, sealed_authorization, now),
    )


def mirror_of(repo_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM repo_mirrors WHERE repo_id = ?", (repo_id,))


def record_sync(repo_id: int, now: int) -> None:
    forge().db.execute("UPDATE repo_mirrors SET last_sync = ? WHERE repo_id = ?", (now, repo_id))
