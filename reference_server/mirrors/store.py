"""Push mirrors of repositories: the remote each mirror pushes to and the outcome of its last sync."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = [
    "SCHEMA",
    "delete_mirror",
    "delete_mirrors_of_repo",
    "due_mirrors",
    "insert_mirror",
    "list_mirrors",
    "mirror_by_id",
    "mirror_by_name",
    "record_sync",
    "sync_on_commit_mirrors",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS push_mirror (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    remote_name TEXT NOT NULL,
    remote_address TEXT NOT NULL,
    sealed_authorization TEXT NOT NULL DEFAULT '',
    interval_ns INTEGER NOT NULL,
    sync_on_commit INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    last_update INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    UNIQUE (repo_id, remote_name)
);
"""


def insert_mirror(
    repo_id: int, *, name: str, address: str, sealed: str, interval_ns: int, sync_on_commit: bool, now: int
) -> None:
    forge().db.execute(
        "INSERT INTO push_mirror (repo_id, remote_name, remote_address, sealed_authorization, interval_ns, "
        "sync_on_commit, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (repo_id, name, address, sealed, interval_ns, int(sync_on_commit), now),
    )


def list_mirrors(repo_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    db = forge().db
    total_row = db.one("SELECT COUNT(*) AS n FROM push_mirror WHERE repo_id = ?", (repo_id,))
    rows = db.all("SELECT * FROM push_mirror WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?", (repo_id, limit, offset))
    return rows, int(total_row["n"]) if total_row is not None else 0


def mirror_by_name(repo_id: int, name: str) -> Row | None:
    return forge().db.one("SELECT * FROM push_mirror WHERE repo_id = ? AND remote_name = ?", (repo_id, name))


def mirror_by_id(mirror_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM push_mirror WHERE id = ?", (mirror_id,))


def sync_on_commit_mirrors(repo_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM push_mirror WHERE repo_id = ? AND sync_on_commit = 1 ORDER BY id", (repo_id,))


def due_mirrors(now: int, limit: int) -> list[Row]:
    """Mirrors with an interval whose last sync is at least that long ago, oldest sync first, skipping archived
    repositories (Gitea's ``PushMirrorsIterate``)."""
    return forge().db.all(
        "SELECT push_mirror.* FROM push_mirror LEFT JOIN repo_settings ON repo_settings.repo_id = push_mirror.repo_id "
        "WHERE push_mirror.interval_ns != 0 AND push_mirror.last_update + push_mirror.interval_ns / 1000000000 <= ? "
        "AND COALESCE(repo_settings.archived, 0) = 0 ORDER BY push_mirror.last_update, push_mirror.id LIMIT ?",
        (now, limit),
    )


def delete_mirror(mirror_id: int) -> None:
    forge().db.execute("DELETE FROM push_mirror WHERE id = ?", (mirror_id,))


def delete_mirrors_of_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM push_mirror WHERE repo_id = ?", (repo_id,))


def record_sync(mirror_id: int, now: int, error: str) -> None:
    forge().db.execute("UPDATE push_mirror SET last_update = ?, last_error = ? WHERE id = ?", (now, error, mirror_id))
