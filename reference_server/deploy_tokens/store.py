"""Table and SQL of deploy tokens: only the SHA-256 of a token is kept, never the token itself."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

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
    return forge().db.one("SELECT * FROM deploy_token WHERE id = ?", (token_id,))


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
