"""Table and SQL of deploy tokens: only the SHA-256 of a token is kept, never the token itself."""

from __future__ import annotations

from ..context import forge
from ..db import Database, Row

__all__ = ["SCHEMA", "upgrade"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS deploy_token (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    title TEXT NOT NULL,
    lower_title TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_last_eight TEXT NOT NULL,
    read_only INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (repo_id, lower_title)
);
CREATE INDEX IF NOT EXISTS deploy_token_repo ON deploy_token (repo_id, id);
"""

ADDED_COLUMNS = {
    "key_content": "TEXT NOT NULL DEFAULT ''",
    "fingerprint": "TEXT NOT NULL DEFAULT ''",
    "key_id": "INTEGER NOT NULL DEFAULT 0",
}
"""Columns of SSH deploy keys, which share the table (and the ids and the ``/keys`` list) with deploy tokens:
a row with a ``key_content`` is a key; its ``token_hash`` is a ``ssh-key:`` marker no token's hash can equal."""
KEY_MARKER = "ssh-key:"


def upgrade(db: Database) -> None:
    """Add the columns of :data:`ADDED_COLUMNS` that an existing table lacks (fresh ones too)."""
    present = {row["name"] for row in db.all("PRAGMA table_info(deploy_token)")}
    for name, declaration in ADDED_COLUMNS.items():
        if name not in present:
            db.execute(f"ALTER TABLE deploy_token ADD COLUMN {name} {declaration}")
    db.execute("CREATE INDEX IF NOT EXISTS deploy_token_fingerprint ON deploy_token (fingerprint)")


def insert_key(*, repo_id: int, title: str, content: str, fingerprint: str, read_only: bool, now: int) -> int:
    """A deploy key row; its ``key_id`` is the oldest row's with the same key (its own id for a new key)."""
    shared = first_key_id(fingerprint)
    marker = f"{KEY_MARKER}{repo_id}:{fingerprint}"
    cursor = forge().db.execute(
        "INSERT INTO deploy_token (repo_id, title, lower_title, token_hash, token_last_eight, read_only,"
        " created, updated, key_content, fingerprint, key_id) VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?)",
        (repo_id, title, title.lower(), marker, int(read_only), now, now, content, fingerprint, shared),
    )
    row_id = int(cursor.lastrowid or 0)
    if not shared:
        forge().db.execute("UPDATE deploy_token SET key_id = ? WHERE id = ?", (row_id, row_id))
    return row_id


def key_in_repo(repo_id: int, fingerprint: str) -> bool:
    row = forge().db.one("SELECT 1 FROM deploy_token WHERE repo_id = ? AND fingerprint = ?", (repo_id, fingerprint))
    return row is not None


def first_key_id(fingerprint: str) -> int:
    """The id of the oldest deploy key with this fingerprint in any repository (Gitea's shared ``key_id``)."""
    value = forge().db.scalar("SELECT MIN(id) FROM deploy_token WHERE fingerprint = ?", (fingerprint,))
    return value if isinstance(value, int) else 0


def insert_token(*, repo_id: int, title: str, token_hash: str, last_eight: str, read_only: bool, now: int) -> int:
    cursor = forge().db.execute(
        "INSERT INTO deploy_token (repo_id, title, lower_title, token_hash, token_last_eight, read_only,"
        " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (repo_id, title, title.lower(), token_hash, last_eight, int(read_only), now, now),
    )
    return int(cursor.lastrowid or 0)


def title_taken(repo_id: int, title: str) -> bool:
    row = forge().db.one("SELECT 1 FROM deploy_token WHERE repo_id = ? AND lower_title = ?", (repo_id, title.lower()))
    return row is not None


def token_by_id(repo_id: int, token_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM deploy_token WHERE repo_id = ? AND id = ?", (repo_id, token_id))


def token_by_any_id(token_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM deploy_token WHERE id = ? AND key_content = ''", (token_id,))


def token_by_hash(token_hash: str) -> Row | None:
    return forge().db.one("SELECT * FROM deploy_token WHERE token_hash = ?", (token_hash,))


def tokens_of_repo(repo_id: int, limit: int, offset: int, token_id: int | None) -> list[Row]:
    if token_id is not None:
        return forge().db.all(
            "SELECT * FROM deploy_token WHERE repo_id = ? AND id = ? LIMIT ? OFFSET ?",
            (repo_id, token_id, limit, offset),
        )
    return forge().db.all(
        "SELECT * FROM deploy_token WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?", (repo_id, limit, offset)
    )


def count_tokens_of_repo(repo_id: int, token_id: int | None) -> int:
    if token_id is not None:
        value = forge().db.scalar("SELECT COUNT(*) FROM deploy_token WHERE repo_id = ? AND id = ?", (repo_id, token_id))
    else:
        value = forge().db.scalar("SELECT COUNT(*) FROM deploy_token WHERE repo_id = ?", (repo_id,))
    return value if isinstance(value, int) else 0


def replace_hash(token_id: int, token_hash: str, last_eight: str, now: int) -> None:
    forge().db.execute(
        "UPDATE deploy_token SET token_hash = ?, token_last_eight = ?, updated = ? WHERE id = ?",
        (token_hash, last_eight, now, token_id),
    )


def delete_token(token_id: int) -> None:
    forge().db.execute("DELETE FROM deploy_token WHERE id = ?", (token_id,))


def delete_tokens_of_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM deploy_token WHERE repo_id = ?", (repo_id,))
