"""Tables and SQL of organization membership (the organizations themselves are rows of ``accounts``)."""

from __future__ import annotations

from ..context import forge

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS org_members (
    org_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    is_owner INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    PRIMARY KEY (org_id, user_id)
);
CREATE INDEX IF NOT EXISTS org_members_user ON org_members(user_id);
"""


def add_member(org_id: int, user_id: int, *, owner: bool, now: int) -> None:
    forge().db.execute(
        "INSERT INTO org_members (org_id, user_id, is_owner, created) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (org_id, user_id) DO UPDATE SET is_owner = MAX(is_owner, excluded.is_owner)",
        (org_id, user_id, int(owner), now),
    )


def membership(org_id: int, user_id: int) -> bool | None:
    """None when not a member, else whether an owner."""
    value = forge().db.scalar("SELECT is_owner FROM org_members WHERE org_id = ? AND user_id = ?", (org_id, user_id))
    return None if value is None else bool(value)


def orgs_of_member(user_id: int) -> list[int]:
    rows = forge().db.all("SELECT org_id FROM org_members WHERE user_id = ? ORDER BY org_id", (user_id,))
    return [int(row["org_id"]) for row in rows]


def remove_member_everywhere(user_id: int) -> None:
    forge().db.execute("DELETE FROM org_members WHERE user_id = ?", (user_id,))


def remove_all_members(org_id: int) -> None:
    forge().db.execute("DELETE FROM org_members WHERE org_id = ?", (org_id,))
