"""Tables and SQL of badges: the definitions (one per slug) and which user holds which badge."""

from __future__ import annotations

from collections.abc import Iterable

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS badge (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    slug TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    image_url TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS user_badge (
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    badge_id INTEGER NOT NULL REFERENCES badge(id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, badge_id)
);
CREATE INDEX IF NOT EXISTS user_badge_badge ON user_badge (badge_id);
"""


def upsert_badge(slug: str, description: str, image_url: str) -> None:
    """Define the badge ``slug``, or change the description and image of the existing one."""
    forge().db.execute(
        "INSERT INTO badge (slug, description, image_url) VALUES (?, ?, ?) ON CONFLICT (slug) DO UPDATE SET"
        " description = excluded.description, image_url = excluded.image_url",
        (slug, description, image_url),
    )


def badge_by_slug(slug: str) -> Row | None:
    return forge().db.one("SELECT * FROM badge WHERE slug = ?", (slug,))


def delete_badge(slug: str) -> int:
    """Forget a definition (and every assignment of it); answers how many were deleted."""
    return forge().db.execute("DELETE FROM badge WHERE slug = ?", (slug,)).rowcount


def all_badges() -> list[Row]:
    return forge().db.all("SELECT * FROM badge ORDER BY id")


def badges_of_user(user_id: int) -> list[Row]:
    """The user's badges in the order they were defined."""
    return forge().db.all(
        "SELECT b.* FROM badge b JOIN user_badge ub ON ub.badge_id = b.id WHERE ub.user_id = ? ORDER BY b.id",
        (user_id,),
    )


def assign(user_id: int, badge_ids: Iterable[int]) -> None:
    for badge_id in badge_ids:
        forge().db.execute(
            "INSERT INTO user_badge (user_id, badge_id) VALUES (?, ?) ON CONFLICT DO NOTHING", (user_id, badge_id)
        )


def unassign(user_id: int, slugs: Iterable[str]) -> None:
    for slug in slugs:
        forge().db.execute(
            "DELETE FROM user_badge WHERE user_id = ? AND badge_id IN (SELECT id FROM badge WHERE slug = ?)",
            (user_id, slug),
        )
