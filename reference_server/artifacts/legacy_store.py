"""SQL of the legacy (v3) artifacts: one row per file of an artifact, unique by (run, artifact name, path).

Kept apart from the v4 table, as the two protocols share nothing but the blob store: a v3 artifact is many
rows (one per uploaded file) under one name, which the v4 table's ``UNIQUE (run_id, name)`` cannot hold.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from ..context import forge

__all__ = [
    "CONFIRMED",
    "PENDING",
    "SCHEMA",
    "LegacyItem",
    "NewItem",
    "confirm",
    "count_items",
    "delete_item",
    "find_item",
    "get_or_create",
    "items_named",
    "items_of_repo",
    "items_of_run",
    "set_sizes",
]

PENDING = 1
CONFIRMED = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS legacy_artifacts (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id           INTEGER NOT NULL,
    run_id            INTEGER NOT NULL,
    job_id            INTEGER NOT NULL,
    task_id           INTEGER NOT NULL,
    name              TEXT    NOT NULL,
    path              TEXT    NOT NULL,
    status            INTEGER NOT NULL,
    file_size         INTEGER NOT NULL DEFAULT 0,
    stored_size       INTEGER NOT NULL DEFAULT 0,
    content_encoding  TEXT    NOT NULL DEFAULT '',
    blob_key          TEXT    NOT NULL DEFAULT '',
    created           INTEGER NOT NULL,
    updated           INTEGER NOT NULL,
    expires           INTEGER NOT NULL,
    UNIQUE (run_id, name, path)
);
CREATE INDEX IF NOT EXISTS legacy_artifacts_repo ON legacy_artifacts (repo_id, id);
"""


@dataclass(frozen=True)
class LegacyItem:
    """One file of a v3 artifact: ``file_size`` as the client declared it, ``stored_size`` as uploaded
    (smaller when ``content_encoding`` is gzip), ``blob_key`` set once its chunks were merged."""

    id: int
    repo_id: int
    run_id: int
    job_id: int
    task_id: int
    name: str
    path: str
    status: int
    file_size: int
    stored_size: int
    content_encoding: str
    blob_key: str
    created: int
    updated: int
    expires: int


@dataclass(frozen=True)
class NewItem:
    """What the first chunk of a file records."""

    repo_id: int
    run_id: int
    job_id: int
    task_id: int
    name: str
    path: str
    expires: int


def _item(raw: sqlite3.Row | None) -> LegacyItem | None:
    if raw is None:
        return None
    return LegacyItem(**{key: raw[key] for key in raw.keys()})  # noqa: SIM118 (sqlite3.Row has no __iter__ of keys)


def _items(raws: Sequence[sqlite3.Row]) -> list[LegacyItem]:
    return [item for item in (_item(raw) for raw in raws) if item is not None]


def find_item(item_id: int) -> LegacyItem | None:
    if not 0 < item_id < 2**63:
        return None
    return _item(forge().db.one("SELECT * FROM legacy_artifacts WHERE id = ?", (item_id,)))


def get_or_create(new: NewItem, now: int) -> LegacyItem:
    """The row of (run, name, path), inserted pending when new (the caller holds the transaction)."""
    db = forge().db
    db.execute(
        "INSERT OR IGNORE INTO legacy_artifacts (repo_id, run_id, job_id, task_id, name, path, status, created,"
        " updated, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (new.repo_id, new.run_id, new.job_id, new.task_id, new.name, new.path, PENDING, now, now, new.expires),
    )
    raw = db.one(
        "SELECT * FROM legacy_artifacts WHERE run_id = ? AND name = ? AND path = ?", (new.run_id, new.name, new.path)
    )
    item = _item(raw)
    if item is None:
        raise LookupError("the legacy artifact row vanished right after its insert")
    return item


def set_sizes(item_id: int, *, file_size: int, stored_size: int, encoding: str, expires: int, now: int) -> None:
    """Record the sizes and encoding a new upload of the file declares."""
    forge().db.execute(
        "UPDATE legacy_artifacts SET file_size = ?, stored_size = ?, content_encoding = ?, expires = ?, updated = ?"
        " WHERE id = ?",
        (file_size, stored_size, encoding, expires, now, item_id),
    )


def confirm(item_id: int, blob_key: str, now: int) -> None:
    """The file's chunks were merged into ``blob_key``: it is downloadable."""
    forge().db.execute(
        "UPDATE legacy_artifacts SET status = ?, blob_key = ?, updated = ? WHERE id = ?",
        (CONFIRMED, blob_key, now, item_id),
    )


def items_named(run_id: int, name: str) -> list[LegacyItem]:
    return _items(
        forge().db.all("SELECT * FROM legacy_artifacts WHERE run_id = ? AND name = ? ORDER BY id", (run_id, name))
    )


def count_items(run_id: int, name: str) -> int:
    value = forge().db.scalar("SELECT COUNT(*) FROM legacy_artifacts WHERE run_id = ? AND name = ?", (run_id, name))
    return int(value) if isinstance(value, int) else 0


def items_of_run(run_id: int) -> list[LegacyItem]:
    return _items(forge().db.all("SELECT * FROM legacy_artifacts WHERE run_id = ? ORDER BY id", (run_id,)))


def items_of_repo(repo_id: int) -> list[LegacyItem]:
    return _items(forge().db.all("SELECT * FROM legacy_artifacts WHERE repo_id = ? ORDER BY id", (repo_id,)))


def expired_items(now: int) -> list[LegacyItem]:
    """Files whose retention has passed (confirmed or abandoned while pending), for the clean-up task."""
    return _items(forge().db.all("SELECT * FROM legacy_artifacts WHERE expires < ? ORDER BY id", (now,)))


def delete_item(item_id: int) -> None:
    forge().db.execute("DELETE FROM legacy_artifacts WHERE id = ?", (item_id,))
