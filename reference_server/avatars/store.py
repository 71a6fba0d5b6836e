"""Table and SQL of uploaded avatars (the PNG itself is a blob under ``avatars/``)."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS avatar (
    kind TEXT NOT NULL,
    owner_id INTEGER NOT NULL,
    hash TEXT NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (kind, owner_id)
);
CREATE UNIQUE INDEX IF NOT EXISTS avatar_by_hash ON avatar (kind, hash);
"""


def avatar_of(kind: str, owner_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM avatar WHERE kind = ? AND owner_id = ?", (kind, owner_id))


def avatar_by_hash(kind: str, digest: str) -> Row | None:
    return forge().db.one("SELECT * FROM avatar WHERE kind = ? AND hash = ?", (kind, digest))


def save_avatar(kind: str, owner_id: int, digest: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO avatar (kind, owner_id, hash, updated) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (kind, owner_id) DO UPDATE SET hash = excluded.hash, updated = excluded.updated",
        (kind, owner_id, digest, now),
    )


def delete_avatar(kind: str, owner_id: int) -> None:
    forge().db.execute("DELETE FROM avatar WHERE kind = ? AND owner_id = ?", (kind, owner_id))
