"""Tables and SQL of notification threads, issue subscriptions (watches), mentions and stopwatches."""

from __future__ import annotations

from collections.abc import Sequence

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS notification (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL REFERENCES repos(id) ON DELETE CASCADE,
    status INTEGER NOT NULL,
    source INTEGER NOT NULL,
    issue_id INTEGER NOT NULL DEFAULT 0,
    comment_id INTEGER NOT NULL DEFAULT 0,
    release_id INTEGER NOT NULL DEFAULT 0,
    updated_by INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS notification_user ON notification (user_id, updated);
CREATE INDEX IF NOT EXISTS notification_issue ON notification (issue_id);
CREATE TABLE IF NOT EXISTS issue_watch (
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    is_watching INTEGER NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (issue_id, user_id)
);
CREATE TABLE IF NOT EXISTS issue_mention (
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    PRIMARY KEY (issue_id, user_id)
);
CREATE TABLE IF NOT EXISTS stopwatch (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    UNIQUE (issue_id, user_id)
);
CREATE INDEX IF NOT EXISTS stopwatch_user ON stopwatch (user_id, id);
"""

# -- notification threads ----------------------------------------------------------------------------


LIVE = "(issue_id = 0 OR issue_id IN (SELECT id FROM issue))"
"""A thread whose issue was deleted is gone with it (Gitea deletes them together)."""


def thread(thread_id: int) -> Row | None:
    return forge().db.one(f"SELECT * FROM notification WHERE id = ? AND {LIVE}", (thread_id,))  # noqa: S608


def thread_of(user_id: int, *, issue_id: int = 0, release_id: int = 0) -> Row | None:
    """The user's thread about one issue (or one release)."""
    return forge().db.one(
        "SELECT * FROM notification WHERE user_id = ? AND issue_id = ? AND release_id = ?",
        (user_id, issue_id, release_id),
    )


def insert_thread(
    user_id: int,
    repo_id: int,
    source: int,
    status: int,
    now: int,
    *,
    issue_id: int,
    comment_id: int,
    release_id: int,
    updated_by: int,
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO notification (user_id, repo_id, status, source, issue_id, comment_id, release_id, updated_by,"
        " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (user_id, repo_id, status, source, issue_id, comment_id, release_id, updated_by, now, now),
    )
    return int(cursor.lastrowid or 0)


def update_thread(thread_id: int, *, status: int, comment_id: int, updated_by: int, now: int) -> None:
    forge().db.execute(
        "UPDATE notification SET status = ?, comment_id = ?, updated_by = ?, updated = ? WHERE id = ?",
        (status, comment_id, updated_by, now, thread_id),
    )


def set_status(thread_id: int, status: int, now: int) -> None:
    forge().db.execute("UPDATE notification SET status = ?, updated = ? WHERE id = ?", (status, now, thread_id))


def threads_of(
    user_id: int,
    *,
    repo_id: int | None = None,
    statuses: Sequence[int] = (),
    sources: Sequence[int] = (),
    since: int | None = None,
    before: int | None = None,
) -> list[Row]:
    """The user's threads matching every filter given, most recently updated first."""
    clauses = ["user_id = ?", LIVE]
    params: list[object] = [user_id]
    if repo_id is not None:
        clauses.append("repo_id = ?")
        params.append(repo_id)
    for column, values in (("status", statuses), ("source", sources)):
        if values:
            clauses.append(f"{column} IN ({', '.join('?' for _ in values)})")
            params.extend(values)
    if since is not None:
        clauses.append("updated >= ?")
        params.append(since)
    if before is not None:
        clauses.append("updated <= ?")
        params.append(before)
    sql = f"SELECT * FROM notification WHERE {' AND '.join(clauses)} ORDER BY updated DESC, id DESC"  # noqa: S608
    return forge().db.all(sql, params)


# -- issue watches and mentions ----------------------------------------------------------------------


def watch_row(issue_id: int, user_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM issue_watch WHERE issue_id = ? AND user_id = ?", (issue_id, user_id))


def set_watch(issue_id: int, user_id: int, watching: bool, now: int) -> None:
    forge().db.execute(
        "INSERT INTO issue_watch (issue_id, user_id, is_watching, created, updated) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (issue_id, user_id) DO UPDATE SET is_watching = excluded.is_watching, updated = excluded.updated",
        (issue_id, user_id, int(watching), now, now),
    )


def watcher_ids(issue_id: int, watching: bool) -> list[int]:
    rows = forge().db.all(
        "SELECT user_id FROM issue_watch WHERE issue_id = ? AND is_watching = ? ORDER BY created, user_id",
        (issue_id, int(watching)),
    )
    return [int(row["user_id"]) for row in rows]


def commenter_ids(issue_id: int, comment_types: Sequence[int]) -> list[int]:
    """The distinct posters of the issue's comments of the given types, first comment first."""
    marks = ", ".join("?" for _ in comment_types)
    rows = forge().db.all(
        f"SELECT poster_id FROM comment WHERE issue_id = ? AND type IN ({marks})"  # noqa: S608
        " GROUP BY poster_id ORDER BY MIN(id)",
        (issue_id, *comment_types),
    )
    return [int(row["poster_id"]) for row in rows]


def last_comment_id(issue_id: int, comment_type: int) -> int:
    value = forge().db.scalar(
        "SELECT id FROM comment WHERE issue_id = ? AND type = ? ORDER BY created DESC, id DESC LIMIT 1",
        (issue_id, comment_type),
    )
    return value if isinstance(value, int) else 0


def add_mention(issue_id: int, user_id: int) -> None:
    forge().db.execute("INSERT OR IGNORE INTO issue_mention (issue_id, user_id) VALUES (?, ?)", (issue_id, user_id))


def mentioned_issue_ids(user_id: int) -> list[int]:
    rows = forge().db.all("SELECT issue_id FROM issue_mention WHERE user_id = ?", (user_id,))
    return [int(row["issue_id"]) for row in rows]


# -- stopwatches -------------------------------------------------------------------------------------


def stopwatch(issue_id: int, user_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM stopwatch WHERE issue_id = ? AND user_id = ?", (issue_id, user_id))


def stopwatches_of(user_id: int) -> list[Row]:
    return forge().db.all("SELECT * FROM stopwatch WHERE user_id = ? ORDER BY id", (user_id,))


def insert_stopwatch(issue_id: int, user_id: int, now: int) -> None:
    forge().db.execute("INSERT INTO stopwatch (issue_id, user_id, created) VALUES (?, ?, ?)", (issue_id, user_id, now))


def delete_stopwatch(stopwatch_id: int) -> None:
    forge().db.execute("DELETE FROM stopwatch WHERE id = ?", (stopwatch_id,))
