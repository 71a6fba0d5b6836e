"""SQL of the artifacts family: one row per artifact, unique by (run, name); every statement lives here."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from ..context import forge
from .legacy_store import SCHEMA as LEGACY_SCHEMA

__all__ = [
    "FINALIZED",
    "MAX_ID",
    "PENDING",
    "SCHEMA",
    "ArtifactRow",
    "NewArtifact",
    "all_rows",
    "count_finalized",
    "delete_row",
    "find_by_id",
    "find_by_name",
    "forget_blob",
    "insert_pending",
    "list_finalized",
    "mark_finalized",
    "restart_pending",
    "rows_of_repo",
    "rows_of_run",
    "set_block_list",
]

PENDING = 1
FINALIZED = 2
MAX_ID = 2**63 - 1

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS artifacts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id       INTEGER NOT NULL,
    run_id        INTEGER NOT NULL,
    job_id        INTEGER NOT NULL,
    task_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    file_name     TEXT    NOT NULL,
    content_type  TEXT    NOT NULL,
    version       INTEGER NOT NULL,
    status        INTEGER NOT NULL,
    size          INTEGER NOT NULL DEFAULT 0,
    sha256        TEXT    NOT NULL DEFAULT '',
    crc32         INTEGER,  -- unused since zip/raw stopped wrapping single files; kept for old data dirs
    blob_key      TEXT    NOT NULL DEFAULT '',
    parts         TEXT    NOT NULL DEFAULT '[]',
    block_list    TEXT,
    created       INTEGER NOT NULL,
    updated       INTEGER NOT NULL,
    expires       INTEGER NOT NULL,
    UNIQUE (run_id, name)
);
CREATE INDEX IF NOT EXISTS artifacts_repo ON artifacts (repo_id, status, id);
"""
    + LEGACY_SCHEMA
)  # the v3 files' table (legacy_store.py), created with the family's


@dataclass(frozen=True)
class ArtifactRow:
    """One stored artifact as the database holds it (``block_list`` None = no list committed yet)."""

    id: int
    repo_id: int
    run_id: int
    job_id: int
    task_id: int
    name: str
    file_name: str
    content_type: str
    version: int
    status: int
    size: int
    sha256: str
    blob_key: str
    parts: tuple[str, ...]
    block_list: tuple[str, ...] | None
    created: int
    updated: int
    expires: int


@dataclass(frozen=True)
class NewArtifact:
    """What CreateArtifact records for a new or restarted upload."""

    repo_id: int
    run_id: int
    job_id: int
    task_id: int
    name: str
    file_name: str
    content_type: str
    version: int
    expires: int


def _row(raw: sqlite3.Row | None) -> ArtifactRow | None:
    if raw is None:
        return None
    blocks = raw["block_list"]
    return ArtifactRow(
        id=raw["id"],
        repo_id=raw["repo_id"],
        run_id=raw["run_id"],
        job_id=raw["job_id"],
        task_id=raw["task_id"],
        name=raw["name"],
        file_name=raw["file_name"],
        content_type=raw["content_type"],
        version=raw["version"],
        status=raw["status"],
        size=raw["size"],
        sha256=raw["sha256"],
        blob_key=raw["blob_key"],
        parts=tuple(json.loads(raw["parts"])),
        block_list=None if blocks is None else tuple(json.loads(blocks)),
        created=raw["created"],
        updated=raw["updated"],
        expires=raw["expires"],
    )


def _rows(raws: Sequence[sqlite3.Row]) -> list[ArtifactRow]:
    return [row for row in (_row(raw) for raw in raws) if row is not None]


def find_by_id(artifact_id: int) -> ArtifactRow | None:
    if not 0 < artifact_id <= MAX_ID:
        return None  # beyond SQLite's integers: no such row
    return _row(forge().db.one("SELECT * FROM artifacts WHERE id = ?", (artifact_id,)))


def find_by_name(run_id: int, name: str) -> ArtifactRow | None:
    return _row(forge().db.one("SELECT * FROM artifacts WHERE run_id = ? AND name = ?", (run_id, name)))


def insert_pending(new: NewArtifact, now: int) -> int:
    """Insert a pending row and return its id (the caller holds the transaction)."""
    cursor = forge().db.execute(
        "INSERT INTO artifacts (repo_id, run_id, job_id, task_id, name, file_name, content_type, version,"
        " status, created, updated, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            new.repo_id,
            new.run_id,
            new.job_id,
            new.task_id,
            new.name,
            new.file_name,
            new.content_type,
            new.version,
            PENDING,
            now,
            now,
            new.expires,
        ),
    )
    return int(cursor.lastrowid or 0)


def restart_pending(artifact_id: int, new: NewArtifact, now: int) -> bool:
    """Reset a pending row for a new upload under the same id; False when it is no longer pending."""
    cursor = forge().db.execute(
        "UPDATE artifacts SET job_id = ?, task_id = ?, file_name = ?, content_type = ?, version = ?,"
        " block_list = NULL, size = 0, sha256 = '', blob_key = '', parts = '[]', updated = ?, expires = ?"
        " WHERE id = ? AND status = ?",
        (
            new.job_id,
            new.task_id,
            new.file_name,
            new.content_type,
            new.version,
            now,
            new.expires,
            artifact_id,
            PENDING,
        ),
    )
    return cursor.rowcount == 1


def set_block_list(artifact_id: int, block_ids: Sequence[str], now: int) -> bool:
    """Record the committed block list of a pending upload; False when it is no longer pending."""
    cursor = forge().db.execute(
        "UPDATE artifacts SET block_list = ?, updated = ? WHERE id = ? AND status = ?",
        (json.dumps(list(block_ids)), now, artifact_id, PENDING),
    )
    return cursor.rowcount == 1


def mark_finalized(artifact_id: int, *, size: int, sha256: str, blob_key: str, parts: Sequence[str], now: int) -> bool:
    """Flip a pending row to finalized with its stored parts; False when another finalize won the race."""
    cursor = forge().db.execute(
        "UPDATE artifacts SET status = ?, size = ?, sha256 = ?, blob_key = ?, parts = ?,"
        " block_list = NULL, updated = ? WHERE id = ? AND status = ?",
        (FINALIZED, size, sha256, blob_key, json.dumps(list(parts)), now, artifact_id, PENDING),
    )
    return cursor.rowcount == 1


def list_finalized(
    *,
    run_id: int | None = None,
    repo_id: int | None = None,
    name: str | None = None,
    artifact_id: int | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[ArtifactRow]:
    """Finalized artifacts matching every given filter, ordered by id."""
    where, params = _filters(run_id=run_id, repo_id=repo_id, name=name, artifact_id=artifact_id)
    sql = f"SELECT * FROM artifacts WHERE {where} ORDER BY id"  # noqa: S608 (only fixed column names)
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        params += [limit, offset]
    return _rows(forge().db.all(sql, params))


def count_finalized(*, run_id: int | None = None, repo_id: int | None = None, name: str | None = None) -> int:
    where, params = _filters(run_id=run_id, repo_id=repo_id, name=name, artifact_id=None)
    value = forge().db.scalar(f"SELECT COUNT(*) FROM artifacts WHERE {where}", params)  # noqa: S608
    return int(value) if isinstance(value, int) else 0


def _filters(
    *, run_id: int | None, repo_id: int | None, name: str | None, artifact_id: int | None
) -> tuple[str, list[object]]:
    clauses = ["status = ?"]
    params: list[object] = [FINALIZED]
    for column, value in (("run_id", run_id), ("repo_id", repo_id), ("name", name), ("id", artifact_id)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    return " AND ".join(clauses), params


def rows_of_run(run_id: int) -> list[ArtifactRow]:
    return _rows(forge().db.all("SELECT * FROM artifacts WHERE run_id = ? ORDER BY id", (run_id,)))


def rows_of_repo(repo_id: int) -> list[ArtifactRow]:
    return _rows(forge().db.all("SELECT * FROM artifacts WHERE repo_id = ? ORDER BY id", (repo_id,)))


def all_rows() -> list[ArtifactRow]:
    """Every row (used once at start-up to sweep storage left by a crash)."""
    return _rows(forge().db.all("SELECT * FROM artifacts ORDER BY id"))


def forget_blob(artifact_id: int) -> None:
    """The artifact's files are gone (expired and cleaned up): it keeps its record, with no blob."""
    forge().db.execute("UPDATE artifacts SET blob_key = '' WHERE id = ?", (artifact_id,))


def delete_row(artifact_id: int) -> bool:
    cursor = forge().db.execute("DELETE FROM artifacts WHERE id = ?", (artifact_id,))
    return cursor.rowcount == 1
