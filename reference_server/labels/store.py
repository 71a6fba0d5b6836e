"""Table and SQL of repository labels (``color`` stored with its ``#``, as Gitea stores it)."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS repo_label (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    exclusive INTEGER NOT NULL DEFAULT 0,
    color TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    archived_unix INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS repo_label_by_repo ON repo_label (repo_id, name);
CREATE TABLE IF NOT EXISTS issue_label (
    issue_id INTEGER NOT NULL,
    label_id INTEGER NOT NULL,
    PRIMARY KEY (issue_id, label_id)
);
CREATE INDEX IF NOT EXISTS issue_label_by_label ON issue_label (label_id);
"""


def insert_label(
    *, repo_id: int, name: str, exclusive: bool, color: str, description: str, archived_unix: int, now: int
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO repo_label (repo_id, name, exclusive, color, description, archived_unix, created, updated)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (repo_id, name, int(exclusive), color, description, archived_unix, now, now),
    )
    return int(cursor.lastrowid or 0)


def label_in_repo(repo_id: int, label_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM repo_label WHERE repo_id = ? AND id = ?", (repo_id, label_id))


def labels_of_repo(repo_id: int, limit: int, offset: int) -> list[Row]:
    return forge().db.all(
        "SELECT * FROM repo_label WHERE repo_id = ? ORDER BY name, id LIMIT ? OFFSET ?", (repo_id, limit, offset)
    )


def count_labels(repo_id: int) -> int:
    value = forge().db.scalar("SELECT COUNT(*) FROM repo_label WHERE repo_id = ?", (repo_id,))
    return value if isinstance(value, int) else 0


def update_label(
    label_id: int, *, name: str, exclusive: bool, color: str, description: str, archived_unix: int, now: int
) -> None:
    forge().db.execute(
        "UPDATE repo_label SET name = ?, exclusive = ?, color = ?, description = ?, archived_unix = ?, updated = ?"
        " WHERE id = ?",
        (name, int(exclusive), color, description, archived_unix, now, label_id),
    )


def delete_label(repo_id: int, label_id: int) -> int:
    cursor = forge().db.execute("DELETE FROM repo_label WHERE repo_id = ? AND id = ?", (repo_id, label_id))
    if cursor.rowcount:
        forge().db.execute("DELETE FROM issue_label WHERE label_id = ?", (label_id,))
    return cursor.rowcount


def delete_labels_of_repo(repo_id: int) -> None:
    db = forge().db
    db.execute("DELETE FROM issue_label WHERE label_id IN (SELECT id FROM repo_label WHERE repo_id = ?)", (repo_id,))
    db.execute("DELETE FROM repo_label WHERE repo_id = ?", (repo_id,))


def labels_by_names(repo_id: int, names: list[str]) -> list[Row]:
    marks = ", ".join("?" for _ in names)
    return forge().db.all(
        f"SELECT * FROM repo_label WHERE repo_id = ? AND name IN ({marks})",  # noqa: S608 - placeholders only
        (repo_id, *names),
    )


def labels_of_issue(issue_id: int) -> list[Row]:
    return forge().db.all(
        "SELECT l.* FROM repo_label l JOIN issue_label il ON il.label_id = l.id WHERE il.issue_id = ?"
        " ORDER BY l.name, l.id",
        (issue_id,),
    )


def add_issue_label(issue_id: int, label_id: int) -> None:
    forge().db.execute("INSERT OR IGNORE INTO issue_label (issue_id, label_id) VALUES (?, ?)", (issue_id, label_id))


def remove_issue_label(issue_id: int, label_id: int) -> None:
    forge().db.execute("DELETE FROM issue_label WHERE issue_id = ? AND label_id = ?", (issue_id, label_id))


def clear_issue_labels(issue_id: int) -> None:
    forge().db.execute("DELETE FROM issue_label WHERE issue_id = ?", (issue_id,))
