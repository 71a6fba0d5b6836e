"""Tables and SQL of pending repository transfers and of the redirects a moved repository leaves behind."""

from __future__ import annotations

import json

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS repo_transfer (
    repo_id INTEGER PRIMARY KEY REFERENCES repos(id) ON DELETE CASCADE,
    doer_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    recipient_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    team_ids TEXT NOT NULL DEFAULT '[]',
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS repo_redirect (
    owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    lower_name TEXT NOT NULL,
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    PRIMARY KEY (owner_id, lower_name)
);
"""


def pending(repo_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM repo_transfer WHERE repo_id = ?", (repo_id,))


def team_ids_of(row: Row) -> list[int]:
    return [int(team_id) for team_id in json.loads(row["team_ids"])]


def put_pending(repo_id: int, doer_id: int, recipient_id: int, team_ids: list[int], now: int) -> None:
    forge().db.execute(
        "INSERT INTO repo_transfer (repo_id, doer_id, recipient_id, team_ids, created) VALUES (?, ?, ?, ?, ?)",
        (repo_id, doer_id, recipient_id, json.dumps(team_ids), now),
    )


def drop_pending(repo_id: int) -> None:
    forge().db.execute("DELETE FROM repo_transfer WHERE repo_id = ?", (repo_id,))


def drop_pending_between(doer_id: int, recipient_id: int) -> None:
    """Cancel every pending transfer ``doer_id`` offered to ``recipient_id`` (what a block undoes)."""
    forge().db.execute("DELETE FROM repo_transfer WHERE doer_id = ? AND recipient_id = ?", (doer_id, recipient_id))


def put_redirect(owner_id: int, name: str, repo_id: int) -> None:
    forge().db.execute(
        "INSERT INTO repo_redirect (owner_id, lower_name, repo_id) VALUES (?, ?, ?)"
        " ON CONFLICT (owner_id, lower_name) DO UPDATE SET repo_id = excluded.repo_id",
        (owner_id, name.lower(), repo_id),
    )


def drop_redirect(owner_id: int, name: str) -> None:
    forge().db.execute("DELETE FROM repo_redirect WHERE owner_id = ? AND lower_name = ?", (owner_id, name.lower()))


def redirect_target(owner_id: int, name: str) -> int | None:
    value = forge().db.scalar(
        "SELECT repo_id FROM repo_redirect WHERE owner_id = ? AND lower_name = ?", (owner_id, name.lower())
    )
    return value if isinstance(value, int) else None
