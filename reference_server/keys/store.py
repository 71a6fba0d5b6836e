"""Tables and SQL of users' SSH and GPG keys; a deleted account takes its keys with it (foreign keys)."""

from __future__ import annotations

from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS user_ssh_key (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    content TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (owner_id, title)
);
CREATE INDEX IF NOT EXISTS user_ssh_key_fingerprint ON user_ssh_key (fingerprint);
CREATE TABLE IF NOT EXISTS gpg_key (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_id TEXT NOT NULL,
    primary_key_id TEXT NOT NULL DEFAULT '',
    content TEXT NOT NULL,
    armored TEXT NOT NULL DEFAULT '',
    emails TEXT NOT NULL DEFAULT '[]',
    created INTEGER NOT NULL,
    expires INTEGER,
    added INTEGER NOT NULL,
    verified INTEGER NOT NULL DEFAULT 0,
    can_sign INTEGER NOT NULL,
    can_encrypt INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS gpg_key_owner ON gpg_key (owner_id, primary_key_id, id);
CREATE INDEX IF NOT EXISTS gpg_key_key_id ON gpg_key (key_id);
"""


def _count(sql: str, params: tuple[object, ...]) -> int:
    value = forge().db.scalar(sql, params)
    return value if isinstance(value, int) else 0


# -- SSH keys --------------------------------------------------------------------------------------


def ssh_key(key_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM user_ssh_key WHERE id = ?", (key_id,))


def ssh_key_by_fingerprint(fingerprint: str) -> Row | None:
    return forge().db.one("SELECT * FROM user_ssh_key WHERE fingerprint = ? ORDER BY id LIMIT 1", (fingerprint,))


def ssh_keys_with_fingerprint(fingerprint: str, owner_id: int | None) -> list[Row]:
    if owner_id is None:
        return forge().db.all("SELECT * FROM user_ssh_key WHERE fingerprint = ? ORDER BY id", (fingerprint,))
    return forge().db.all(
        "SELECT * FROM user_ssh_key WHERE fingerprint = ? AND owner_id = ? ORDER BY id", (fingerprint, owner_id)
    )


def ssh_title_taken(owner_id: int, title: str) -> bool:
    return forge().db.one("SELECT 1 FROM user_ssh_key WHERE owner_id = ? AND title = ?", (owner_id, title)) is not None


def ssh_keys_of(owner_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    rows = forge().db.all(
        "SELECT * FROM user_ssh_key WHERE owner_id = ? ORDER BY id LIMIT ? OFFSET ?", (owner_id, limit, offset)
    )
    return rows, _count("SELECT COUNT(*) FROM user_ssh_key WHERE owner_id = ?", (owner_id,))


def insert_ssh_key(*, owner_id: int, title: str, fingerprint: str, content: str, now: int) -> int:
    cursor = forge().db.execute(
        "INSERT INTO user_ssh_key (owner_id, title, fingerprint, content, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
        (owner_id, title, fingerprint, content, now, now),
    )
    return int(cursor.lastrowid or 0)


def delete_ssh_key(key_id: int) -> None:
    forge().db.execute("DELETE FROM user_ssh_key WHERE id = ?", (key_id,))


# -- GPG keys --------------------------------------------------------------------------------------


def gpg_key(key_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM gpg_key WHERE id = ?", (key_id,))


def gpg_key_id_used(key_id: str) -> bool:
    return forge().db.one("SELECT 1 FROM gpg_key WHERE key_id = ?", (key_id,)) is not None


def gpg_primary_of(owner_id: int, key_id: str) -> Row | None:
    return forge().db.one(
        "SELECT * FROM gpg_key WHERE owner_id = ? AND key_id = ? AND primary_key_id = ''", (owner_id, key_id)
    )


def gpg_keys_of(owner_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    where = "owner_id = ? AND primary_key_id = ''"
    rows = forge().db.all(
        f"SELECT * FROM gpg_key WHERE {where} ORDER BY id LIMIT ? OFFSET ?",  # noqa: S608 - fixed text
        (owner_id, limit, offset),
    )
    return rows, _count(f"SELECT COUNT(*) FROM gpg_key WHERE {where}", (owner_id,))  # noqa: S608 - fixed text


def gpg_subkeys(primary_key_id: str) -> list[Row]:
    return forge().db.all("SELECT * FROM gpg_key WHERE primary_key_id = ? ORDER BY id", (primary_key_id,))


def insert_gpg_key(values: dict[str, Any]) -> int:
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    cursor = forge().db.execute(
        f"INSERT INTO gpg_key ({columns}) VALUES ({marks})",  # noqa: S608 - the columns are the model's own
        tuple(values.values()),
    )
    return int(cursor.lastrowid or 0)


def mark_gpg_verified(row_id: int) -> None:
    forge().db.execute("UPDATE gpg_key SET verified = 1 WHERE id = ?", (row_id,))


def delete_gpg_key(key_id: str) -> None:
    """The key and its subkeys."""
    forge().db.execute("DELETE FROM gpg_key WHERE key_id = ? OR primary_key_id = ?", (key_id, key_id))
