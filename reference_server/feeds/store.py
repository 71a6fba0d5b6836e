"""Table and SQL of activity feeds: one row per action (not one per receiver as Gitea stores them);
who sees a row is decided by :class:`FeedQuery` when a feed is read."""

from __future__ import annotations

from dataclasses import dataclass

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA", "FeedQuery"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS feed_action (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    op_type TEXT NOT NULL,
    act_user_id INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    comment_id INTEGER NOT NULL DEFAULT 0,
    ref_name TEXT NOT NULL DEFAULT '',
    is_private INTEGER NOT NULL DEFAULT 0,
    content TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS feed_action_by_repo ON feed_action (repo_id, created);
CREATE INDEX IF NOT EXISTS feed_action_by_actor ON feed_action (act_user_id, created);
"""


@dataclass(frozen=True)
class FeedQuery:
    """Which rows a feed shows; every set field narrows it.

    ``receiver``: actions performed by the account or in repositories it owns. ``performed_by``: actions
    of that account only. ``owner_id``: actions in repositories of that owner. ``repo_ids``: only these
    repositories (an empty tuple shows nothing). ``since``/``until``: Unix seconds, both inclusive.
    ``hide_private_actors_from``: leave out actors who hide their activity, unless the actor is this
    viewer (-1 for an anonymous viewer; None for a site admin, who sees everything).
    """

    receiver: int | None = None
    performed_by: int | None = None
    owner_id: int | None = None
    repo_ids: tuple[int, ...] | None = None
    include_private: bool = True
    since: int | None = None
    until: int | None = None
    hide_private_actors_from: int | None = None

    def where(self) -> tuple[str, list[object]]:
        """The SQL condition and its parameters."""
        parts: list[str] = []
        params: list[object] = []
        if self.receiver is not None:
            parts.append("(a.act_user_id = ? OR a.repo_id IN (SELECT id FROM repos WHERE owner_id = ?))")
            params += [self.receiver, self.receiver]
        if self.performed_by is not None:
            parts.append("a.act_user_id = ?")
            params.append(self.performed_by)
        if self.owner_id is not None:
            parts.append("a.repo_id IN (SELECT id FROM repos WHERE owner_id = ?)")
            params.append(self.owner_id)
        if self.repo_ids is not None:
            parts.append(f"a.repo_id IN ({','.join('?' * len(self.repo_ids)) or 'NULL'})")
            params += list(self.repo_ids)
        if not self.include_private:
            parts.append("a.is_private = 0")
        if self.since is not None:
            parts.append("a.created >= ?")
            params.append(self.since)
        if self.until is not None:
            parts.append("a.created <= ?")
            params.append(self.until)
        if self.hide_private_actors_from is not None:
            hidden = "SELECT user_id FROM user_settings WHERE hide_activity = 1"
            parts.append(f"(a.act_user_id = ? OR a.act_user_id NOT IN ({hidden}))")
            params.append(self.hide_private_actors_from)
        return " AND ".join(parts) or "1 = 1", params


def insert_action(
    *,
    op_type: str,
    act_user_id: int,
    repo_id: int,
    comment_id: int,
    ref_name: str,
    is_private: bool,
    content: str,
    now: int,
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO feed_action (op_type, act_user_id, repo_id, comment_id, ref_name, is_private, content, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (op_type, act_user_id, repo_id, comment_id, ref_name, int(is_private), content, now),
    )
    return int(cursor.lastrowid or 0)


def repo_ids_matching(query: FeedQuery) -> list[int]:
    """The distinct repositories of the rows the query matches (to check which the viewer may read)."""
    where, params = query.where()
    rows = forge().db.all(f"SELECT DISTINCT a.repo_id FROM feed_action a WHERE {where}", tuple(params))  # noqa: S608
    return [int(row["repo_id"]) for row in rows]


def actions_page(query: FeedQuery, limit: int, offset: int) -> tuple[list[Row], int]:
    """A page of matching rows, newest first, and how many match in all."""
    where, params = query.where()
    rows = forge().db.all(
        f"SELECT a.* FROM feed_action a WHERE {where} ORDER BY a.created DESC, a.id DESC LIMIT ? OFFSET ?",  # noqa: S608
        (*params, limit, offset),
    )
    total = forge().db.scalar(f"SELECT COUNT(*) FROM feed_action a WHERE {where}", tuple(params))  # noqa: S608
    return rows, total if isinstance(total, int) else 0


def delete_actions_of_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM feed_action WHERE repo_id = ?", (repo_id,))


def delete_actions_of_actor(user_id: int) -> None:
    forge().db.execute("DELETE FROM feed_action WHERE act_user_id = ?", (user_id,))


HEATMAP_BUCKET = 900
"""Gitea groups a heatmap by quarter hours (``created_unix / 900 * 900``)."""


def heatmap_counts(query: FeedQuery) -> list[tuple[int, int]]:
    """The matching rows counted per quarter hour, oldest first: ``(bucket start, count)``."""
    where, params = query.where()
    rows = forge().db.all(
        f"SELECT (a.created / {HEATMAP_BUCKET}) * {HEATMAP_BUCKET} AS bucket, COUNT(*) AS n FROM feed_action a"  # noqa: S608
        f" WHERE {where} GROUP BY bucket ORDER BY bucket",
        tuple(params),
    )
    return [(int(row["bucket"]), int(row["n"])) for row in rows]
