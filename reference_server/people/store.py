"""Table and SQL of OAuth2 applications (rows go with their account); follows and blocks are the users
family's tables."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS oauth2_application (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    client_id TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL,
    confidential_client INTEGER NOT NULL,
    skip_secondary_authorization INTEGER NOT NULL,
    redirect_uris TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS oauth2_application_user ON oauth2_application(user_id);
"""


def insert_app(
    *, user_id: int, name: str, client_id: str, secret_hash: str, confidential: bool, skip: bool, uris: str, now: int
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO oauth2_application (user_id, name, client_id, secret_hash, confidential_client,"
        " skip_secondary_authorization, redirect_uris, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (user_id, name, client_id, secret_hash, int(confidential), int(skip), uris, now, now),
    )
    return int(cursor.lastrowid or 0)


def update_app(
    app_id: int, *, name: str, secret_hash: str, confidential: bool, skip: bool, uris: str, now: int
) -> None:
    forge().db.execute(
        "UPDATE oauth2_application SET name = ?, secret_hash = ?, confidential_client = ?,"
        " skip_secondary_authorization = ?, redirect_uris = ?, updated = ? WHERE id = ?",
        (name, secret_hash, int(confidential), int(skip), uris, now, app_id),
    )


def app_by_id(app_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM oauth2_application WHERE id = ?", (app_id,))


def apps_page(user_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    rows = forge().db.all(
        "SELECT * FROM oauth2_application WHERE user_id = ? ORDER BY id LIMIT ? OFFSET ?", (user_id, limit, offset)
    )
    total = forge().db.scalar("SELECT COUNT(*) FROM oauth2_application WHERE user_id = ?", (user_id,))
    return rows, total if isinstance(total, int) else 0


def delete_app(app_id: int) -> None:
    forge().db.execute("DELETE FROM oauth2_application WHERE id = ?", (app_id,))
