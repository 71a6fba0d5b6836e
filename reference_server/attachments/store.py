"""Storage of issue and comment attachments: one row per file (``comment_id`` 0 for the issue's own), the
bytes a blob under the attachment's UUID."""

from __future__ import annotations

from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS issue_attachment (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL UNIQUE,
    repo_id INTEGER NOT NULL,
    issue_id INTEGER NOT NULL,
    comment_id INTEGER NOT NULL DEFAULT 0,
    uploader_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    download_count INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS issue_attachment_by_issue ON issue_attachment (issue_id, comment_id, id);
CREATE INDEX IF NOT EXISTS issue_attachment_by_repo ON issue_attachment (repo_id);
"""


def insert_attachment(fields: dict[str, Any]) -> int:
    columns = ", ".join(fields)
    marks = ", ".join("?" for _ in fields)
    cursor = forge().db.execute(f"INSERT INTO issue_attachment ({columns}) VALUES ({marks})", tuple(fields.values()))  # noqa: S608 - fixed columns
    return int(cursor.lastrowid or 0)


def attachment_by_id(attachment_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM issue_attachment WHERE id = ?", (attachment_id,))


def attachment_by_uuid(uuid: str) -> Row | None:
    return forge().db.one("SELECT * FROM issue_attachment WHERE uuid = ?", (uuid,))


def attachments_of_issue(issue_id: int) -> list[Row]:
    """The issue's own files (not its comments'), oldest first."""
    return forge().db.all(
        "SELECT * FROM issue_attachment WHERE issue_id = ? AND comment_id = 0 ORDER BY id", (issue_id,)
    )


def attachments_of_comment(comment_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM issue_attachment WHERE comment_id = ? ORDER BY id", (comment_id,))


def rename_attachment(attachment_id: int, name: str) -> None:
    forge().db.execute("UPDATE issue_attachment SET name = ? WHERE id = ?", (name, attachment_id))


def count_download(attachment_id: int) -> None:
    forge().db.execute("UPDATE issue_attachment SET download_count = download_count + 1 WHERE id = ?", (attachment_id,))


def delete_where(column: str, value: int) -> list[str]:
    """Delete the rows whose ``column`` (id, issue_id, comment_id or repo_id) is ``value``; their UUIDs."""
    if column not in ("id", "issue_id", "comment_id", "repo_id"):
        raise ValueError(column)
    db = forge().db
    rows = db.all(f"SELECT uuid FROM issue_attachment WHERE {column} = ?", (value,))  # noqa: S608 - fixed columns
    db.execute(f"DELETE FROM issue_attachment WHERE {column} = ?", (value,))  # noqa: S608
    return [str(row["uuid"]) for row in rows]
