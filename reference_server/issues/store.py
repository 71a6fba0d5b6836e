"""Issues storage: one ``issue`` table for issues and pull requests (one per-repository index shared by
both, as Gitea), the ``comment`` table whose ``type`` holds Gitea's comment type numbers (so a timeline
is one query), assignees, and the per-repository index counter.

Times are integer Unix seconds. ``comment.line`` follows Gitea: a positive number is a line of the new
file, a negative one a line of the old file; ``review_id`` ties a code comment to its review.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..context import forge
from ..db import Database, Row

__all__ = ["SCHEMA", "upgrade"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS issue_index (
    repo_id INTEGER PRIMARY KEY,
    max_index INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS issue (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    poster_id INTEGER NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    is_pull INTEGER NOT NULL DEFAULT 0,
    is_closed INTEGER NOT NULL DEFAULT 0,
    is_locked INTEGER NOT NULL DEFAULT 0,
    pin_order INTEGER NOT NULL DEFAULT 0,
    num_comments INTEGER NOT NULL DEFAULT 0,
    content_version INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0,
    UNIQUE (repo_id, idx)
);
CREATE INDEX IF NOT EXISTS issue_repo_state ON issue (repo_id, is_pull, is_closed, idx);
CREATE TABLE IF NOT EXISTS issue_assignee (
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    assignee_id INTEGER NOT NULL,
    PRIMARY KEY (issue_id, assignee_id)
);
CREATE TABLE IF NOT EXISTS comment (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    type INTEGER NOT NULL,
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    poster_id INTEGER NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    review_id INTEGER NOT NULL DEFAULT 0,
    tree_path TEXT NOT NULL DEFAULT '',
    line INTEGER NOT NULL DEFAULT 0,
    commit_sha TEXT NOT NULL DEFAULT '',
    patch TEXT NOT NULL DEFAULT '',
    assignee_id INTEGER NOT NULL DEFAULT 0,
    removed_assignee INTEGER NOT NULL DEFAULT 0,
    old_title TEXT NOT NULL DEFAULT '',
    new_title TEXT NOT NULL DEFAULT '',
    old_ref TEXT NOT NULL DEFAULT '',
    new_ref TEXT NOT NULL DEFAULT '',
    dependent_issue_id INTEGER NOT NULL DEFAULT 0,
    old_milestone_id INTEGER NOT NULL DEFAULT 0,
    milestone_id INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS comment_issue ON comment (issue_id, id);
CREATE INDEX IF NOT EXISTS comment_review ON comment (review_id, id);
CREATE TABLE IF NOT EXISTS issue_deadline (
    issue_id INTEGER PRIMARY KEY,
    deadline INTEGER NOT NULL
);
"""


ISSUE_ADDED_COLUMNS = {"content_version": "INTEGER NOT NULL DEFAULT 0"}
"""Columns added after the first release of the ``issue`` table: ``upgrade`` adds them to existing databases."""


def upgrade(db: Database) -> None:
    """Give an existing ``issue`` table the columns of :data:`ISSUE_ADDED_COLUMNS` (Gitea's content version)."""
    present = {row["name"] for row in db.all("PRAGMA table_info(issue)")}
    for name, declaration in ISSUE_ADDED_COLUMNS.items():
        if name not in present:
            db.execute(f"ALTER TABLE issue ADD COLUMN {name} {declaration}")


COMMENT_FIELDS = (
    "review_id",
    "tree_path",
    "line",
    "commit_sha",
    "patch",
    "assignee_id",
    "removed_assignee",
    "old_title",
    "new_title",
    "old_ref",
    "new_ref",
    "dependent_issue_id",
    "old_milestone_id",
    "milestone_id",
)


def next_index(repo_id: int) -> int:
    """Take the repository's next issue/pull index (never reused); call inside a transaction."""
    db = forge().db
    db.execute(
        "INSERT INTO issue_index (repo_id, max_index) VALUES (?, 1) "
        "ON CONFLICT (repo_id) DO UPDATE SET max_index = max_index + 1",
        (repo_id,),
    )
    value = db.scalar("SELECT max_index FROM issue_index WHERE repo_id = ?", (repo_id,))
    return int(value if isinstance(value, int) else 0)


def insert_issue(
    *, repo_id: int, index: int, poster_id: int, title: str, body: str, is_pull: bool, closed: bool, now: int
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO issue (repo_id, idx, poster_id, title, body, is_pull, is_closed, created, updated, closed) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (repo_id, index, poster_id, title, body, int(is_pull), int(closed), now, now, now if closed else 0),
    )
    return int(cursor.lastrowid or 0)


def issue_by_index(repo_id: int, index: int) -> Row | None:
    return forge().db.one("SELECT * FROM issue WHERE repo_id = ? AND idx = ?", (repo_id, index))


def issue_by_id(issue_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM issue WHERE id = ?", (issue_id,))


def _filters(
    repo_id: int, state: str, is_pull: bool | None, keyword: str, ids: Sequence[int] | None
) -> tuple[str, list[Any]]:
    clauses = ["repo_id = ?"]
    params: list[Any] = [repo_id]
    if state != "all":
        clauses.append("is_closed = ?")
        params.append(int(state == "closed"))
    if is_pull is not None:
        clauses.append("is_pull = ?")
        params.append(int(is_pull))
    if keyword:
        escaped = keyword.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        clauses.append("(title LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\')")
        params += [f"%{escaped}%", f"%{escaped}%"]
    if ids is not None:
        clauses.append(f"id IN ({', '.join('?' for _ in ids) or 'NULL'})")
        params += list(ids)
    return " AND ".join(clauses), params


def issue_rows(
    repo_id: int,
    *,
    state: str,
    is_pull: bool | None,
    keyword: str,
    ids: Sequence[int] | None,
    limit: int,
    offset: int,
) -> tuple[list[Row], int]:
    """One page of a repository's issues, newest first, and how many match."""
    where, params = _filters(repo_id, state, is_pull, keyword, ids)
    db = forge().db
    rows = db.all(
        f"SELECT * FROM issue WHERE {where} ORDER BY idx DESC LIMIT ? OFFSET ?",  # noqa: S608
        (*params, limit, offset),
    )
    total = db.scalar(f"SELECT COUNT(*) FROM issue WHERE {where}", params)  # noqa: S608
    return rows, int(total if isinstance(total, int) else 0)


def update_issue(issue_id: int, fields: dict[str, Any], now: int) -> None:
    """Write some of ``title``, ``body``, ``content_version``, ``is_closed``, ``closed``, ``is_locked`` of one issue."""
    allowed = ("title", "body", "content_version", "is_closed", "closed", "is_locked")
    names = [name for name in allowed if name in fields]
    assignments = "".join(f"{name} = ?, " for name in names)
    forge().db.execute(
        f"UPDATE issue SET {assignments}updated = ? WHERE id = ?",  # noqa: S608
        (*(fields[name] for name in names), now, issue_id),
    )


def touch_issue(issue_id: int, now: int) -> None:
    forge().db.execute("UPDATE issue SET updated = ? WHERE id = ?", (now, issue_id))


def count_comments(issue_id: int, comment_type: int) -> None:
    """Refresh the issue's cached count of plain comments."""
    forge().db.execute(
        "UPDATE issue SET num_comments = (SELECT COUNT(*) FROM comment WHERE issue_id = ? AND type = ?) WHERE id = ?",
        (issue_id, comment_type, issue_id),
    )


def delete_issues_of_repo(repo_id: int) -> None:
    db = forge().db
    db.execute("DELETE FROM issue_deadline WHERE issue_id IN (SELECT id FROM issue WHERE repo_id = ?)", (repo_id,))
    db.execute("DELETE FROM comment WHERE issue_id IN (SELECT id FROM issue WHERE repo_id = ?)", (repo_id,))
    db.execute("DELETE FROM issue_assignee WHERE issue_id IN (SELECT id FROM issue WHERE repo_id = ?)", (repo_id,))
    db.execute("DELETE FROM issue WHERE repo_id = ?", (repo_id,))
    db.execute("DELETE FROM issue_index WHERE repo_id = ?", (repo_id,))


def delete_issue(issue_id: int) -> None:
    """Remove one issue with its comments, assignments and deadline (its index is never reused)."""
    db = forge().db
    for table in ("comment", "issue_assignee", "issue_deadline"):
        db.execute(f"DELETE FROM {table} WHERE issue_id = ?", (issue_id,))  # noqa: S608 - fixed tables
    db.execute("DELETE FROM issue WHERE id = ?", (issue_id,))


def deadline_of(issue_id: int) -> int:
    """The issue's deadline in Unix seconds, 0 without one."""
    value = forge().db.scalar("SELECT deadline FROM issue_deadline WHERE issue_id = ?", (issue_id,))
    return value if isinstance(value, int) else 0


def set_deadline(issue_id: int, deadline: int) -> None:
    """Set (0: remove) the issue's deadline."""
    db = forge().db
    if deadline:
        db.execute(
            "INSERT INTO issue_deadline (issue_id, deadline) VALUES (?, ?) "
            "ON CONFLICT (issue_id) DO UPDATE SET deadline = excluded.deadline",
            (issue_id, deadline),
        )
    else:
        db.execute("DELETE FROM issue_deadline WHERE issue_id = ?", (issue_id,))


# -- assignees -------------------------------------------------------------------------------------


def assignee_ids(issue_id: int) -> list[int]:
    rows = forge().db.all("SELECT assignee_id FROM issue_assignee WHERE issue_id = ? ORDER BY rowid", (issue_id,))
    return [int(row["assignee_id"]) for row in rows]


def add_assignee(issue_id: int, user_id: int) -> None:
    forge().db.execute(
        "INSERT OR IGNORE INTO issue_assignee (issue_id, assignee_id) VALUES (?, ?)", (issue_id, user_id)
    )


def remove_assignee(issue_id: int, user_id: int) -> None:
    forge().db.execute("DELETE FROM issue_assignee WHERE issue_id = ? AND assignee_id = ?", (issue_id, user_id))


def issues_assigned_to(repo_id: int, user_id: int) -> list[int]:
    rows = forge().db.all(
        "SELECT a.issue_id FROM issue_assignee a JOIN issue i ON i.id = a.issue_id "
        "WHERE i.repo_id = ? AND a.assignee_id = ?",
        (repo_id, user_id),
    )
    return [int(row["issue_id"]) for row in rows]


# -- comments --------------------------------------------------------------------------------------


def insert_comment(
    *, comment_type: int, issue_id: int, poster_id: int, content: str, now: int, extra: dict[str, Any]
) -> int:
    names = [name for name in COMMENT_FIELDS if name in extra]
    columns = "".join(f", {name}" for name in names)
    marks = "".join(", ?" for _ in names)
    cursor = forge().db.execute(
        f"INSERT INTO comment (type, issue_id, poster_id, content, created, updated{columns}) "  # noqa: S608
        f"VALUES (?, ?, ?, ?, ?, ?{marks})",
        (comment_type, issue_id, poster_id, content, now, now, *(extra[name] for name in names)),
    )
    return int(cursor.lastrowid or 0)


def comment_by_id(comment_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM comment WHERE id = ?", (comment_id,))


def comment_rows(
    issue_id: int, types: Sequence[int] | None, limit: int, offset: int, *, hidden_reviews: Sequence[int] = ()
) -> tuple[list[Row], int]:
    """A page of an issue's comments (of some types, or all; none of the ``hidden_reviews``), oldest first,
    and how many there are."""
    where = "issue_id = ?"
    params: list[Any] = [issue_id]
    if types is not None:
        where += f" AND type IN ({', '.join('?' for _ in types)})"
        params += list(types)
    if hidden_reviews:
        where += f" AND review_id NOT IN ({', '.join('?' for _ in hidden_reviews)})"
        params += list(hidden_reviews)
    db = forge().db
    rows = db.all(
        f"SELECT * FROM comment WHERE {where} ORDER BY id LIMIT ? OFFSET ?",  # noqa: S608
        (*params, limit, offset),
    )
    total = db.scalar(f"SELECT COUNT(*) FROM comment WHERE {where}", params)  # noqa: S608
    return rows, int(total if isinstance(total, int) else 0)


def comments_of_review(review_id: int, comment_type: int) -> list[Row]:
    return forge().db.all(
        "SELECT * FROM comment WHERE review_id = ? AND type = ? ORDER BY id", (review_id, comment_type)
    )


def repo_comment_rows(
    repo_id: int,
    comment_type: int,
    *,
    is_pull: bool | None,
    since: int | None,
    before: int | None,
    limit: int,
    offset: int,
) -> tuple[list[Row], int]:
    """A page of the repository's comments of one type (of issues or pulls only, or both), updated within
    [since, before], oldest first, and how many match."""
    clauses = ["i.repo_id = ?", "c.type = ?"]
    params: list[Any] = [repo_id, comment_type]
    for clause, value in (
        ("i.is_pull = ?", None if is_pull is None else int(is_pull)),
        ("c.updated >= ?", since),
        ("c.updated <= ?", before),
    ):
        if value is not None:
            clauses.append(clause)
            params.append(value)
    where = " AND ".join(clauses)
    db = forge().db
    rows = db.all(
        f"SELECT c.* FROM comment c JOIN issue i ON i.id = c.issue_id WHERE {where} "  # noqa: S608
        "ORDER BY c.created, c.id LIMIT ? OFFSET ?",
        (*params, limit, offset),
    )
    total = db.scalar(f"SELECT COUNT(*) FROM comment c JOIN issue i ON i.id = c.issue_id WHERE {where}", params)  # noqa: S608
    return rows, int(total if isinstance(total, int) else 0)


def count_of_type(issue_id: int, comment_type: int) -> int:
    value = forge().db.scalar("SELECT COUNT(*) FROM comment WHERE issue_id = ? AND type = ?", (issue_id, comment_type))
    return int(value if isinstance(value, int) else 0)


def update_comment_content(comment_id: int, content: str, now: int) -> None:
    forge().db.execute("UPDATE comment SET content = ?, updated = ? WHERE id = ?", (content, now, comment_id))


def delete_comment(comment_id: int) -> None:
    forge().db.execute("DELETE FROM comment WHERE id = ?", (comment_id,))


def count_open(repo_id: int, *, pulls: bool) -> int:
    """The repository's open issues (or open pull requests), Gitea's ``NumOpenIssues``/``NumOpenPulls``."""
    value = forge().db.scalar(
        "SELECT COUNT(*) FROM issue WHERE repo_id = ? AND is_pull = ? AND is_closed = 0", (repo_id, int(pulls))
    )
    return value if isinstance(value, int) else 0


def unassign_on_owner(assignee_id: int, owner_id: int) -> None:
    """Drop the account's assignments on every issue of the repositories of ``owner_id`` (what a block undoes)."""
    forge().db.execute(
        "DELETE FROM issue_assignee WHERE assignee_id = ? AND issue_id IN"
        " (SELECT i.id FROM issue i JOIN repos r ON r.id = i.repo_id WHERE r.owner_id = ?)",
        (assignee_id, owner_id),
    )
