"""Table and SQL of labels (``color`` stored with its ``#``, as Gitea stores it).

A label belongs to a repository (``repo_id``, ``org_id`` 0) or to an organization (``org_id``, ``repo_id`` 0), as
in Gitea's ``label`` table; every query names both, so one owner's label is never found through another.
"""

from __future__ import annotations

from ..context import forge
from ..db import Database, Row

__all__ = ["SCHEMA", "upgrade"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS repo_label (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    org_id INTEGER NOT NULL DEFAULT 0,
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


ADDED_COLUMNS = {"org_id": "INTEGER NOT NULL DEFAULT 0"}
"""Columns added after the first release of the table: ``upgrade`` adds them to existing databases."""


def upgrade(db: Database) -> None:
    """Add the columns of :data:`ADDED_COLUMNS` that an existing ``repo_label`` table lacks, and their index."""
    present = {row["name"] for row in db.all("PRAGMA table_info(repo_label)")}
    for name, declaration in ADDED_COLUMNS.items():
        if name not in present:
            db.execute(f"ALTER TABLE repo_label ADD COLUMN {name} {declaration}")
    db.execute("CREATE INDEX IF NOT EXISTS repo_label_by_org ON repo_label (org_id, name)")


def insert_label(
    *,
    repo_id: int,
    org_id: int = 0,
    name: str,
    exclusive: bool,
    color: str,
    description: str,
    archived_unix: int,
    now: int,
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO repo_label (repo_id, org_id, name, exclusive, color, description, archived_unix, created,"
        " updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (repo_id, org_id, name, int(exclusive), color, description, archived_unix, now, now),
    )
    return int(cursor.lastrowid or 0)


def label_of(repo_id: int, org_id: int, label_id: int) -> Row | None:
    """The label of this repository (``org_id`` 0) or of this organization (``repo_id`` 0)."""
    return forge().db.one(
        "SELECT * FROM repo_label WHERE repo_id = ? AND org_id = ? AND id = ?", (repo_id, org_id, label_id)
    )


def label_usable_in(repo_id: int, owner_id: int, label_id: int) -> Row | None:
    """A label an issue of the repository may carry: the repository's own or its owner organization's."""
    return forge().db.one(
        "SELECT * FROM repo_label WHERE id = ? AND ((repo_id = ? AND org_id = 0) OR (repo_id = 0 AND org_id = ?))",
        (label_id, repo_id, owner_id),
    )


def labels_of(repo_id: int, org_id: int, limit: int, offset: int) -> list[Row]:
    return forge().db.all(
        "SELECT * FROM repo_label WHERE repo_id = ? AND org_id = ? ORDER BY name, id LIMIT ? OFFSET ?",
        (repo_id, org_id, limit, offset),
    )


def count_labels(repo_id: int, org_id: int) -> int:
    value = forge().db.scalar("SELECT COUNT(*) FROM repo_label WHERE repo_id = ? AND org_id = ?", (repo_id, org_id))
    return value if isinstance(value, int) else 0


def update_label(
    label_id: int, *, name: str, exclusive: bool, color: str, description: str, archived_unix: int, now: int
) -> None:
    forge().db.execute(
        "UPDATE repo_label SET name = ?, exclusive = ?, color = ?, description = ?, archived_unix = ?, updated = ?"
        " WHERE id = ?",
        (name, int(exclusive), color, description, archived_unix, now, label_id),
    )


def delete_label(repo_id: int, org_id: int, label_id: int) -> int:
    cursor = forge().db.execute(
        "DELETE FROM repo_label WHERE repo_id = ? AND org_id = ? AND id = ?", (repo_id, org_id, label_id)
    )
    if cursor.rowcount:
        forge().db.execute("DELETE FROM issue_label WHERE label_id = ?", (label_id,))
    return cursor.rowcount


def delete_labels_of(repo_id: int, org_id: int) -> None:
    """Drop every label of a repository or of an organization, and their places on issues."""
    db = forge().db
    db.execute(
        "DELETE FROM issue_label WHERE label_id IN (SELECT id FROM repo_label WHERE repo_id = ? AND org_id = ?)",
        (repo_id, org_id),
    )
    db.execute("DELETE FROM repo_label WHERE repo_id = ? AND org_id = ?", (repo_id, org_id))


def labels_usable_by_names(repo_id: int, owner_id: int, names: list[str]) -> list[Row]:
    """The repository's labels, and its owner organization's, with these names."""
    marks = ", ".join("?" for _ in names)
    return forge().db.all(
        "SELECT * FROM repo_label WHERE ((repo_id = ? AND org_id = 0) OR (repo_id = 0 AND org_id = ?))"  # noqa: S608
        f" AND name IN ({marks})",
        (repo_id, owner_id, *names),
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
