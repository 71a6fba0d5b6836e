"""Tables and SQL of releases and their assets (a tag without a release keeps no row: Git holds it)."""

from __future__ import annotations

from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS release (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    publisher_id INTEGER NOT NULL,
    tag_name TEXT NOT NULL,
    lower_tag_name TEXT NOT NULL,
    target TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    is_draft INTEGER NOT NULL DEFAULT 0,
    is_prerelease INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    published INTEGER NOT NULL DEFAULT 0,
    UNIQUE (repo_id, lower_tag_name)
);
CREATE INDEX IF NOT EXISTS release_by_repo ON release (repo_id, created, id);
CREATE TABLE IF NOT EXISTS release_attachment (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL UNIQUE,
    repo_id INTEGER NOT NULL,
    release_id INTEGER NOT NULL,
    uploader_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    download_count INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS release_attachment_by_release ON release_attachment (release_id, id);
"""

_FILTERS = {"draft": "is_draft", "prerelease": "is_prerelease"}


def insert_release(fields: dict[str, Any]) -> int:
    columns = ", ".join(fields)
    marks = ", ".join("?" for _ in fields)
    cursor = forge().db.execute(f"INSERT INTO release ({columns}) VALUES ({marks})", tuple(fields.values()))  # noqa: S608 - fixed columns
    return int(cursor.lastrowid or 0)


def update_release(release_id: int, fields: dict[str, Any]) -> None:
    assignments = ", ".join(f"{column} = ?" for column in fields)
    forge().db.execute(f"UPDATE release SET {assignments} WHERE id = ?", (*fields.values(), release_id))  # noqa: S608


def release_in_repo(repo_id: int, release_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM release WHERE repo_id = ? AND id = ?", (repo_id, release_id))


def release_by_tag(repo_id: int, tag: str) -> Row | None:
    return forge().db.one("SELECT * FROM release WHERE repo_id = ? AND lower_tag_name = ?", (repo_id, tag.lower()))


def _where(repo_id: int, include_drafts: bool, filters: dict[str, bool | None]) -> tuple[str, list[Any]]:
    clauses, values = ["repo_id = ?"], [repo_id]
    if not include_drafts:
        clauses.append("is_draft = 0")
    for key, column in _FILTERS.items():
        wanted = filters.get(key)
        if wanted is not None:
            clauses.append(f"{column} = ?")
            values.append(int(wanted))
    return " AND ".join(clauses), values


def releases_of_repo(
    repo_id: int, *, include_drafts: bool, filters: dict[str, bool | None], limit: int, offset: int
) -> tuple[list[Row], int]:
    where, values = _where(repo_id, include_drafts, filters)
    rows = forge().db.all(
        f"SELECT * FROM release WHERE {where} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?",  # noqa: S608
        (*values, limit, offset),
    )
    total = forge().db.scalar(f"SELECT COUNT(*) FROM release WHERE {where}", tuple(values))  # noqa: S608
    return rows, total if isinstance(total, int) else 0


def latest_release(repo_id: int) -> Row | None:
    return forge().db.one(
        "SELECT * FROM release WHERE repo_id = ? AND is_draft = 0 AND is_prerelease = 0"
        " ORDER BY created DESC, id DESC LIMIT 1",
        (repo_id,),
    )


def delete_release(release_id: int) -> None:
    forge().db.execute("DELETE FROM release_attachment WHERE release_id = ?", (release_id,))
    forge().db.execute("DELETE FROM release WHERE id = ?", (release_id,))


def insert_attachment(fields: dict[str, Any]) -> int:
    columns = ", ".join(fields)
    marks = ", ".join("?" for _ in fields)
    cursor = forge().db.execute(
        f"INSERT INTO release_attachment ({columns}) VALUES ({marks})",  # noqa: S608 - fixed columns
        tuple(fields.values()),
    )
    return int(cursor.lastrowid or 0)


def attachments_of(release_ids: list[int]) -> list[Row]:
    if not release_ids:
        return []
    marks = ", ".join("?" for _ in release_ids)
    return forge().db.all(
        f"SELECT * FROM release_attachment WHERE release_id IN ({marks}) ORDER BY id",  # noqa: S608
        tuple(release_ids),
    )


def attachment_of_release(release_id: int, attachment_id: int) -> Row | None:
    return forge().db.one(
        "SELECT * FROM release_attachment WHERE release_id = ? AND id = ?", (release_id, attachment_id)
    )


def attachment_by_name(release_id: int, name: str) -> Row | None:
    return forge().db.one(
        "SELECT * FROM release_attachment WHERE release_id = ? AND name = ? ORDER BY id LIMIT 1", (release_id, name)
    )


def attachment_by_uuid(uuid: str) -> Row | None:
    return forge().db.one("SELECT * FROM release_attachment WHERE uuid = ?", (uuid,))


def rename_attachment(attachment_id: int, name: str) -> None:
    forge().db.execute("UPDATE release_attachment SET name = ? WHERE id = ?", (name, attachment_id))


def count_download(attachment_id: int) -> None:
    forge().db.execute(
        "UPDATE release_attachment SET download_count = download_count + 1 WHERE id = ?", (attachment_id,)
    )


def delete_attachment(attachment_id: int) -> None:
    forge().db.execute("DELETE FROM release_attachment WHERE id = ?", (attachment_id,))


def attachment_uuids_of_repo(repo_id: int) -> list[str]:
    return [row["uuid"] for row in forge().db.all("SELECT uuid FROM release_attachment WHERE repo_id = ?", (repo_id,))]


def delete_repo_rows(repo_id: int) -> None:
    forge().db.execute("DELETE FROM release_attachment WHERE repo_id = ?", (repo_id,))
    forge().db.execute("DELETE FROM release WHERE repo_id = ?", (repo_id,))


def count_published(repo_id: int) -> int:
    """The repository's releases that are not drafts, Gitea's ``NumReleases``."""
    value = forge().db.scalar("SELECT COUNT(*) FROM release WHERE repo_id = ? AND is_draft = 0", (repo_id,))
    return value if isinstance(value, int) else 0
