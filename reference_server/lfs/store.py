"""Tables and SQL of LFS: which repository holds which object (the bytes live once per oid in the blob
store) and the file locks of each repository."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS lfs_meta_object (
    repo_id INTEGER NOT NULL,
    oid TEXT NOT NULL,
    size INTEGER NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (repo_id, oid)
);
CREATE INDEX IF NOT EXISTS lfs_meta_object_oid ON lfs_meta_object (oid);
CREATE TABLE IF NOT EXISTS lfs_lock (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    ref TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL,
    UNIQUE (repo_id, path)
);
"""


def meta_object(repo_id: int, oid: str) -> Row | None:
    return forge().db.one("SELECT * FROM lfs_meta_object WHERE repo_id = ? AND oid = ?", (repo_id, oid))


def link_object(repo_id: int, oid: str, size: int, now: int) -> None:
    forge().db.execute(
        "INSERT OR IGNORE INTO lfs_meta_object (repo_id, oid, size, created) VALUES (?, ?, ?, ?)",
        (repo_id, oid, size, now),
    )


def oids_of_repo(repo_id: int) -> list[str]:
    return [row["oid"] for row in forge().db.all("SELECT oid FROM lfs_meta_object WHERE repo_id = ?", (repo_id,))]


def delete_objects_of_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM lfs_meta_object WHERE repo_id = ?", (repo_id,))


def oid_referenced(oid: str) -> bool:
    return forge().db.one("SELECT 1 FROM lfs_meta_object WHERE oid = ? LIMIT 1", (oid,)) is not None


_LOCK_SELECT = "SELECT l.*, a.name AS owner_name FROM lfs_lock l JOIN accounts a ON a.id = l.owner_id"


def insert_lock(repo_id: int, owner_id: int, path: str, ref: str, now: int) -> int:
    cursor = forge().db.execute(
        "INSERT INTO lfs_lock (repo_id, owner_id, path, ref, created) VALUES (?, ?, ?, ?, ?)",
        (repo_id, owner_id, path, ref, now),
    )
    return int(cursor.lastrowid or 0)


def lock_by_id(repo_id: int, lock_id: int) -> Row | None:
    return forge().db.one(f"{_LOCK_SELECT} WHERE l.repo_id = ? AND l.id = ?", (repo_id, lock_id))


def lock_by_path(repo_id: int, path: str) -> Row | None:
    return forge().db.one(f"{_LOCK_SELECT} WHERE l.repo_id = ? AND l.path = ?", (repo_id, path))


def locks_of_repo(repo_id: int, from_id: int, limit: int) -> list[Row]:
    return forge().db.all(
        f"{_LOCK_SELECT} WHERE l.repo_id = ? AND l.id >= ? ORDER BY l.id LIMIT ?", (repo_id, from_id, limit)
    )


def delete_lock(lock_id: int) -> None:
    forge().db.execute("DELETE FROM lfs_lock WHERE id = ?", (lock_id,))


def delete_locks_of_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM lfs_lock WHERE repo_id = ?", (repo_id,))
