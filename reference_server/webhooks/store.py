"""Webhooks storage: hooks of repositories, accounts and the instance, and the record of every delivery attempt.

A hook belongs to a repository (``repo_id``), to an account (``owner_id``: an organization's or a user's hooks,
fired for the account's repositories) or, with both 0, to the instance (system hooks), as Gitea's ``webhook``
table. Times are integer Unix seconds; ``events`` is a JSON list of event names.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..context import forge
from ..db import Database, Row

__all__ = ["SCHEMA", "upgrade"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS webhook (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL DEFAULT 0,
    type TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL,
    content_type TEXT NOT NULL,
    http_method TEXT NOT NULL DEFAULT 'post',
    secret TEXT NOT NULL DEFAULT '',
    events TEXT NOT NULL,
    branch_filter TEXT NOT NULL DEFAULT '',
    authorization_header TEXT NOT NULL DEFAULT '',
    active INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_repo ON webhook (repo_id, id);
CREATE TABLE IF NOT EXISTS webhook_delivery (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    hook_id INTEGER NOT NULL,
    uuid TEXT NOT NULL UNIQUE,
    event TEXT NOT NULL,
    action TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    error TEXT NOT NULL,
    delivered INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_delivery_hook ON webhook_delivery (hook_id, id);
"""

ADDED_COLUMNS = {"owner_id": "INTEGER NOT NULL DEFAULT 0"}
"""Columns added after the first release of the table: ``upgrade`` adds them to existing databases."""


def upgrade(db: Database) -> None:
    """Add the columns of :data:`ADDED_COLUMNS` that an existing ``webhook`` table lacks, and their index."""
    present = {row["name"] for row in db.all("PRAGMA table_info(webhook)")}
    for name, declaration in ADDED_COLUMNS.items():
        if name not in present:
            db.execute(f"ALTER TABLE webhook ADD COLUMN {name} {declaration}")
    db.execute("CREATE INDEX IF NOT EXISTS webhook_owner ON webhook (owner_id, id)")


HOOK_COLUMNS = (
    "type",
    "name",
    "url",
    "content_type",
    "http_method",
    "secret",
    "events",
    "branch_filter",
    "authorization_header",
    "active",
)


def _encode(fields: dict[str, Any]) -> dict[str, Any]:
    encoded = dict(fields)
    if "events" in encoded:
        encoded["events"] = json.dumps(list(encoded["events"]))
    if "active" in encoded:
        encoded["active"] = int(bool(encoded["active"]))
    return encoded


def insert_hook(repo_id: int, owner_id: int, fields: dict[str, Any], now: int) -> int:
    values = _encode(fields)
    columns = ", ".join(HOOK_COLUMNS)
    marks = ", ".join("?" for _ in HOOK_COLUMNS)
    cursor = forge().db.execute(
        f"INSERT INTO webhook (repo_id, owner_id, {columns}, created, updated)"  # noqa: S608
        f" VALUES (?, ?, {marks}, ?, ?)",
        (repo_id, owner_id, *(values[column] for column in HOOK_COLUMNS), now, now),
    )
    return int(cursor.lastrowid or 0)


def update_hook(hook_id: int, fields: dict[str, Any], now: int) -> None:
    """Write the given columns (names from :data:`HOOK_COLUMNS` only) of one hook."""
    values = _encode(fields)
    names = [column for column in HOOK_COLUMNS if column in values]
    assignments = ", ".join(f"{column} = ?" for column in names)
    forge().db.execute(
        f"UPDATE webhook SET {assignments}, updated = ? WHERE id = ?",  # noqa: S608
        (*(values[column] for column in names), now, hook_id),
    )


def hooks_with_clear_credentials(sealed_prefix: str) -> list[Row]:
    """Hooks whose secret or authorization header is set but not sealed (stored by an older version)."""
    return forge().db.all(
        "SELECT id, secret, authorization_header FROM webhook WHERE (secret != '' AND secret NOT LIKE ? || '%')"
        " OR (authorization_header != '' AND authorization_header NOT LIKE ? || '%')",
        (sealed_prefix, sealed_prefix),
    )


def update_credentials(hook_id: int, fields: dict[str, str]) -> None:
    """Replace the stored secret and/or authorization header (already sealed) of one hook."""
    names = [column for column in ("secret", "authorization_header") if column in fields]
    if names:
        assignments = ", ".join(f"{column} = ?" for column in names)
        forge().db.execute(
            f"UPDATE webhook SET {assignments} WHERE id = ?",  # noqa: S608
            (*(fields[column] for column in names), hook_id),
        )


def hook_row(repo_id: int, owner_id: int, hook_id: int) -> Row | None:
    return forge().db.one(
        "SELECT * FROM webhook WHERE repo_id = ? AND owner_id = ? AND id = ?", (repo_id, owner_id, hook_id)
    )


def hook_rows(repo_id: int, owner_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    db = forge().db
    rows = db.all(
        "SELECT * FROM webhook WHERE repo_id = ? AND owner_id = ? ORDER BY id LIMIT ? OFFSET ?",
        (repo_id, owner_id, limit, offset),
    )
    total = db.scalar("SELECT COUNT(*) FROM webhook WHERE repo_id = ? AND owner_id = ?", (repo_id, owner_id))
    return rows, int(total if isinstance(total, int) else 0)


def active_hook_rows(repo_id: int, owner_id: int) -> list[Row]:
    """The active hooks a repository's events reach: its own, its owner's, then the system hooks."""
    return forge().db.all(
        "SELECT * FROM webhook WHERE active = 1 AND ((repo_id = ? AND owner_id = 0)"
        " OR (repo_id = 0 AND owner_id IN (?, 0))) ORDER BY repo_id = 0, owner_id = 0, id",
        (repo_id, owner_id),
    )


def delete_hook(hook_id: int) -> None:
    db = forge().db
    db.execute("DELETE FROM webhook_delivery WHERE hook_id = ?", (hook_id,))
    db.execute("DELETE FROM webhook WHERE id = ?", (hook_id,))


def delete_hooks_of_owner(owner_id: int) -> None:
    db = forge().db
    db.execute(
        "DELETE FROM webhook_delivery WHERE hook_id IN (SELECT id FROM webhook WHERE repo_id = 0 AND owner_id = ?)",
        (owner_id,),
    )
    db.execute("DELETE FROM webhook WHERE repo_id = 0 AND owner_id = ?", (owner_id,))


def delete_hooks_of_repo(repo_id: int) -> None:
    db = forge().db
    db.execute("DELETE FROM webhook_delivery WHERE hook_id IN (SELECT id FROM webhook WHERE repo_id = ?)", (repo_id,))
    db.execute("DELETE FROM webhook WHERE repo_id = ?", (repo_id,))


def insert_delivery(fields: dict[str, Any]) -> None:
    forge().db.execute(
        "INSERT INTO webhook_delivery (hook_id, uuid, event, action, status_code, error, delivered, duration_ms) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        tuple(
            fields[name]
            for name in ("hook_id", "uuid", "event", "action", "status_code", "error", "delivered", "duration_ms")
        ),
    )


def delivery_rows(hook_id: int) -> Sequence[Row]:
    return forge().db.all("SELECT * FROM webhook_delivery WHERE hook_id = ? ORDER BY id", (hook_id,))


def hook_exists(hook_id: int) -> bool:
    return forge().db.one("SELECT 1 FROM webhook WHERE id = ?", (hook_id,)) is not None


def copy_hooks(from_repo_id: int, to_repo_id: int, now: int) -> None:
    """Copy every webhook of a repository to another (a repository generated from a template)."""
    for row in forge().db.all("SELECT * FROM webhook WHERE repo_id = ? ORDER BY id", (from_repo_id,)):
        fields = {column: row[column] for column in HOOK_COLUMNS}
        fields["events"] = json.loads(row["events"])
        insert_hook(to_repo_id, 0, fields, now)
