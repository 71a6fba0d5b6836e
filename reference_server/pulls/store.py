"""Pull requests storage: the ``pull_request`` row beside each pull's ``issue`` row, and ``review`` rows.

Code comments and the review entries of the timeline are rows of the issues family's ``comment`` table
(written through its models); ``review.type`` holds Gitea's review type numbers.
"""

from __future__ import annotations

from typing import Any

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS pull_request (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id INTEGER NOT NULL UNIQUE REFERENCES issue (id) ON DELETE CASCADE,
    base_repo_id INTEGER NOT NULL,
    head_repo_id INTEGER NOT NULL,
    base_branch TEXT NOT NULL,
    head_branch TEXT NOT NULL,
    merge_base TEXT NOT NULL DEFAULT '',
    has_merged INTEGER NOT NULL DEFAULT 0,
    merged_commit TEXT NOT NULL DEFAULT '',
    merger_id INTEGER NOT NULL DEFAULT 0,
    merged INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS pull_request_head ON pull_request (head_repo_id, head_branch);
CREATE TABLE IF NOT EXISTS review (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
    reviewer_id INTEGER NOT NULL,
    type INTEGER NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    commit_id TEXT NOT NULL DEFAULT '',
    official INTEGER NOT NULL DEFAULT 0,
    stale INTEGER NOT NULL DEFAULT 0,
    dismissed INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS review_issue ON review (issue_id, id);
CREATE TABLE IF NOT EXISTS pull_auto_merge (
    pull_id INTEGER PRIMARY KEY REFERENCES pull_request (id) ON DELETE CASCADE,
    doer_id INTEGER NOT NULL,
    merge_style TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    delete_branch INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS review_resolution (
    comment_id INTEGER PRIMARY KEY REFERENCES comment (id) ON DELETE CASCADE,
    resolver_id INTEGER NOT NULL
);
"""


def insert_pull(*, issue_id: int, repo_id: int, base_branch: str, head_branch: str, merge_base: str) -> int:
    cursor = forge().db.execute(
        "INSERT INTO pull_request (issue_id, base_repo_id, head_repo_id, base_branch, head_branch, merge_base) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (issue_id, repo_id, repo_id, base_branch, head_branch, merge_base),
    )
    return int(cursor.lastrowid or 0)


def pull_by_issue(issue_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM pull_request WHERE issue_id = ?", (issue_id,))


def open_pull_for(repo_id: int, head_branch: str, base_branch: str) -> Row | None:
    """The open, unmerged pull request of ``head_branch`` into ``base_branch`` of a repository, if any."""
    return forge().db.one(
        "SELECT p.*, i.idx AS issue_index FROM pull_request p JOIN issue i ON i.id = p.issue_id "
        "WHERE p.base_repo_id = ? AND p.head_repo_id = ? AND p.head_branch = ? AND p.base_branch = ? "
        "AND p.has_merged = 0 AND i.is_closed = 0",
        (repo_id, repo_id, head_branch, base_branch),
    )


def pulls_with_head(repo_id: int, head_branch: str) -> list[Row]:
    """Unmerged pull requests (with their index) whose head is this branch."""
    return forge().db.all(
        "SELECT p.*, i.idx AS issue_index FROM pull_request p JOIN issue i ON i.id = p.issue_id "
        "WHERE p.head_repo_id = ? AND p.head_branch = ? AND p.has_merged = 0",
        (repo_id, head_branch),
    )


def update_pull(pull_id: int, fields: dict[str, Any]) -> None:
    """Write some of ``base_branch``, ``merge_base``, ``has_merged``, ``merged_commit``, ``merger_id``, ``merged``."""
    allowed = ("base_branch", "merge_base", "has_merged", "merged_commit", "merger_id", "merged")
    names = [name for name in allowed if name in fields]
    if not names:
        return
    assignments = ", ".join(f"{name} = ?" for name in names)
    forge().db.execute(
        f"UPDATE pull_request SET {assignments} WHERE id = ?",  # noqa: S608
        (*(fields[name] for name in names), pull_id),
    )


# -- reviews ---------------------------------------------------------------------------------------


def insert_review(
    *, issue_id: int, reviewer_id: int, review_type: int, content: str, commit_id: str, official: bool, now: int
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO review (issue_id, reviewer_id, type, content, commit_id, official, created, updated) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (issue_id, reviewer_id, review_type, content, commit_id, int(official), now, now),
    )
    return int(cursor.lastrowid or 0)


def review_by_id(review_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM review WHERE id = ?", (review_id,))


def review_rows(issue_id: int, viewer_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    """A page of a pull's reviews oldest first; pending ones only for their reviewer (``viewer_id``)."""
    where = "issue_id = ? AND (type <> 0 OR reviewer_id = ?)"
    db = forge().db
    rows = db.all(
        f"SELECT * FROM review WHERE {where} ORDER BY id LIMIT ? OFFSET ?",  # noqa: S608
        (issue_id, viewer_id, limit, offset),
    )
    total = db.scalar(f"SELECT COUNT(*) FROM review WHERE {where}", (issue_id, viewer_id))  # noqa: S608
    return rows, int(total if isinstance(total, int) else 0)


def pending_review_ids(issue_id: int, *, exclude_reviewer: int) -> list[int]:
    """The pull's pending reviews, except those of ``exclude_reviewer`` (0: none excepted)."""
    rows = forge().db.all(
        "SELECT id FROM review WHERE issue_id = ? AND type = 0 AND reviewer_id <> ? ORDER BY id",
        (issue_id, exclude_reviewer),
    )
    return [int(row["id"]) for row in rows]


def clear_official(issue_id: int, reviewer_id: int) -> None:
    """Only a reviewer's latest approval or rejection is official (Gitea clears the earlier ones)."""
    forge().db.execute("UPDATE review SET official = 0 WHERE issue_id = ? AND reviewer_id = ?", (issue_id, reviewer_id))


def count_official(issue_id: int, review_type: int, *, fresh_only: bool) -> int:
    """Official, undismissed reviews of a type (``fresh_only``: stale ones left out)."""
    where = "issue_id = ? AND type = ? AND official = 1 AND dismissed = 0" + (" AND stale = 0" if fresh_only else "")
    count = forge().db.scalar(f"SELECT COUNT(*) FROM review WHERE {where}", (issue_id, review_type))  # noqa: S608
    return int(count if isinstance(count, int) else 0)


def mark_stale(issue_id: int) -> None:
    forge().db.execute("UPDATE review SET stale = 1 WHERE issue_id = ?", (issue_id,))


def mark_fresh(issue_id: int, commit_id: str) -> None:
    forge().db.execute("UPDATE review SET stale = 0 WHERE issue_id = ? AND commit_id = ?", (issue_id, commit_id))


def undismissed_of_type(issue_id: int, review_type: int) -> list[Row]:
    return forge().db.all(
        "SELECT * FROM review WHERE issue_id = ? AND type = ? AND dismissed = 0 ORDER BY id", (issue_id, review_type)
    )


def set_dismissed(review_id: int, dismissed: bool, now: int) -> None:
    forge().db.execute("UPDATE review SET dismissed = ?, updated = ? WHERE id = ?", (int(dismissed), now, review_id))


def latest_decision(issue_id: int, reviewer_id: int) -> Row | None:
    """A reviewer's latest approval, rejection or review request (Gitea's ``GetReviewByIssueIDAndUserID``)."""
    return forge().db.one(
        "SELECT * FROM review WHERE issue_id = ? AND reviewer_id = ? AND type IN (1, 3, 4) ORDER BY id DESC LIMIT 1",
        (issue_id, reviewer_id),
    )


def requested_reviewer_ids(issue_id: int) -> list[int]:
    """Reviewers whose latest undismissed approval, rejection or request is a request, by review id."""
    rows = forge().db.all(
        "SELECT reviewer_id, type FROM review WHERE id IN (SELECT MAX(id) FROM review WHERE issue_id = ? "
        "AND type IN (1, 3, 4) AND dismissed = 0 GROUP BY reviewer_id) ORDER BY id",
        (issue_id,),
    )
    return [int(row["reviewer_id"]) for row in rows if int(row["type"]) == 4]


def update_review(review_id: int, fields: dict[str, Any], now: int) -> None:
    """Write some of ``type``, ``content``, ``commit_id``, ``official``, ``stale`` (and the update time)."""
    allowed = ("type", "content", "commit_id", "official", "stale")
    names = [name for name in allowed if name in fields]
    assignments = ", ".join([*(f"{name} = ?" for name in names), "updated = ?"])
    forge().db.execute(
        f"UPDATE review SET {assignments} WHERE id = ?",  # noqa: S608
        (*(fields[name] for name in names), now, review_id),
    )


def set_official(review_id: int) -> None:
    forge().db.execute("UPDATE review SET official = 1 WHERE id = ?", (review_id,))


def delete_review(review_id: int) -> None:
    forge().db.execute("DELETE FROM review WHERE id = ?", (review_id,))


def reviews_of(issue_id: int, reviewer_id: int) -> list[Row]:
    return forge().db.all(
        "SELECT * FROM review WHERE issue_id = ? AND reviewer_id = ? AND dismissed = 0 ORDER BY id",
        (issue_id, reviewer_id),
    )


def resolver_of(comment_id: int) -> int:
    value = forge().db.scalar("SELECT resolver_id FROM review_resolution WHERE comment_id = ?", (comment_id,))
    return int(value) if isinstance(value, int) else 0


def set_resolver(comment_id: int, resolver_id: int) -> None:
    """Mark a code comment's conversation resolved by ``resolver_id`` (0: unresolved)."""
    db = forge().db
    db.execute("DELETE FROM review_resolution WHERE comment_id = ?", (comment_id,))
    if resolver_id:
        db.execute("INSERT INTO review_resolution (comment_id, resolver_id) VALUES (?, ?)", (comment_id, resolver_id))


def pull_for_branches(repo_id: int, head_repo_id: int, base_branch: str, head_branch: str) -> Row | None:
    """The first pull request (any state) of ``head_branch`` into ``base_branch``, with its index."""
    return forge().db.one(
        "SELECT p.*, i.idx AS issue_index FROM pull_request p JOIN issue i ON i.id = p.issue_id "
        "WHERE p.base_repo_id = ? AND p.head_repo_id = ? AND p.base_branch = ? AND p.head_branch = ? ORDER BY p.id",
        (repo_id, head_repo_id, base_branch, head_branch),
    )


def pull_for_merge_commit(repo_id: int, sha: str) -> Row | None:
    return forge().db.one(
        "SELECT p.*, i.idx AS issue_index FROM pull_request p JOIN issue i ON i.id = p.issue_id "
        "WHERE p.base_repo_id = ? AND p.merged_commit = ? AND p.has_merged = 1",
        (repo_id, sha),
    )


def scheduled_merge(pull_id: int) -> Row | None:
    return forge().db.one("SELECT * FROM pull_auto_merge WHERE pull_id = ?", (pull_id,))


def schedule_merge(pull_id: int, doer_id: int, style: str, message: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO pull_auto_merge (pull_id, doer_id, merge_style, message, created) VALUES (?, ?, ?, ?, ?)",
        (pull_id, doer_id, style, message, now),
    )


def unschedule_merge(pull_id: int) -> None:
    forge().db.execute("DELETE FROM pull_auto_merge WHERE pull_id = ?", (pull_id,))


def scheduled_pulls(repo_id: int) -> list[Row]:
    """The repository's open pull requests scheduled to merge, with their index."""
    return forge().db.all(
        "SELECT p.*, i.idx AS issue_index FROM pull_request p JOIN issue i ON i.id = p.issue_id "
        "JOIN pull_auto_merge a ON a.pull_id = p.id WHERE p.base_repo_id = ? AND p.has_merged = 0 AND i.is_closed = 0",
        (repo_id,),
    )
