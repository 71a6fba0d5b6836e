"""Comments and the timeline: plain comments, the events every state change records (Gitea's comment
types, so a timeline is one query) and code comments of pull request reviews; below the issues themselves
(:mod:`.models`), their API shapes in :mod:`.presenters`."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..events import CommentDeletedEvent, IssueActionEvent
from ..permissions import permission
from ..repos import models as repos
from ..users.relations import refuse_if_blocked
from . import store
from .errors import CommentNotFound, InvalidIssueOption, IssueLockedForCaller, IssuePermissionDenied

if TYPE_CHECKING:
    from .models import Issue

__all__ = [
    "Comment",
    "CommentType",
    "add_comment",
    "add_event",
    "count_of_type",
    "delete_comment",
    "delete_review_entries",
    "edit_comment",
    "list_comments",
    "review_comments",
    "review_entry",
    "timeline",
]


class CommentType(enum.IntEnum):
    """Gitea's comment types (``models/issues/comment.go``), numbered as Gitea numbers them."""

    COMMENT = 0
    REOPEN = 1
    CLOSE = 2
    ISSUE_REF = 3
    COMMIT_REF = 4
    COMMENT_REF = 5
    PULL_REF = 6
    LABEL = 7
    MILESTONE = 8
    ASSIGNEES = 9
    CHANGE_TITLE = 10
    DELETE_BRANCH = 11
    START_TRACKING = 12
    STOP_TRACKING = 13
    ADD_TIME_MANUAL = 14
    CANCEL_TRACKING = 15
    ADDED_DEADLINE = 16
    MODIFIED_DEADLINE = 17
    REMOVED_DEADLINE = 18
    ADD_DEPENDENCY = 19
    REMOVE_DEPENDENCY = 20
    CODE = 21
    REVIEW = 22
    LOCK = 23
    UNLOCK = 24
    CHANGE_TARGET_BRANCH = 25
    DELETE_TIME_MANUAL = 26
    REVIEW_REQUEST = 27
    MERGE_PULL = 28
    PULL_PUSH = 29
    PROJECT = 30
    PROJECT_BOARD = 31
    DISMISS_REVIEW = 32
    CHANGE_ISSUE_REF = 33
    PULL_SCHEDULED_MERGE = 34
    PULL_CANCEL_SCHEDULED_MERGE = 35
    PIN = 36
    UNPIN = 37
    CHANGE_TIME_ESTIMATE = 38

    @property
    def api_name(self) -> str:
        """The ``type`` Gitea's ``TimelineComment`` carries (``lock``, ``close``, ``add_dependency``...)."""
        return self.name.lower()


EDITABLE_TYPES = (CommentType.COMMENT, CommentType.CODE, CommentType.REVIEW)


@dataclass(frozen=True)
class Comment:
    """A row of the ``comment`` table: a plain comment, a timeline event or a review's code comment."""

    id: int
    type: CommentType
    issue_id: int
    poster_id: int
    content: str
    review_id: int
    tree_path: str
    line: int
    commit_sha: str
    patch: str
    assignee_id: int
    removed_assignee: bool
    old_title: str
    new_title: str
    old_ref: str
    new_ref: str
    created: int
    updated: int
    dependent_issue_id: int = 0
    old_milestone_id: int = 0
    milestone_id: int = 0

    @classmethod
    def from_row(cls, row: Row) -> Comment:
        return cls(
            id=row["id"],
            type=CommentType(row["type"]),
            issue_id=row["issue_id"],
            poster_id=row["poster_id"],
            content=row["content"],
            review_id=row["review_id"],
            tree_path=row["tree_path"],
            line=row["line"],
            commit_sha=row["commit_sha"],
            patch=row["patch"],
            assignee_id=row["assignee_id"],
            removed_assignee=bool(row["removed_assignee"]),
            old_title=row["old_title"],
            new_title=row["new_title"],
            old_ref=row["old_ref"],
            new_ref=row["new_ref"],
            created=row["created"],
            updated=row["updated"],
            dependent_issue_id=row["dependent_issue_id"],
            old_milestone_id=row["old_milestone_id"],
            milestone_id=row["milestone_id"],
        )


def add_event(issue_id: int, comment_type: CommentType, doer_id: int, *, content: str = "", **extra: Any) -> int:
    """Record one timeline entry (or code comment) of an issue and return its id; joins the caller's transaction."""
    now = now_seconds()
    with forge().db.transaction():
        comment_id = store.insert_comment(
            comment_type=int(comment_type), issue_id=issue_id, poster_id=doer_id, content=content, now=now, extra=extra
        )
        store.touch_issue(issue_id, now)
        if comment_type == CommentType.COMMENT:
            store.count_comments(issue_id, int(CommentType.COMMENT))
    return comment_id


def _body(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidIssueOption("[Body]: Required")
    return value


def add_comment(repo: repos.Repo, issue: Issue, principal: Principal, body: object) -> Comment:
    """A plain comment by a reader; a locked issue takes comments only from writers (403 otherwise)."""
    text = _body(body)
    if issue.is_locked and not permission(principal, repo).can_write:
        raise IssueLockedForCaller("You cannot comment on a locked issue.")
    refuse_if_blocked(principal.user_id, issue.poster_id, repo.owner_id)
    with forge().db.transaction():
        comment_id = add_event(issue.id, CommentType.COMMENT, principal.user_id, content=text)
        forge().events.publish(IssueActionEvent(repo.id, issue.id, principal.user_id, "commented", comment_id))
    return _load(comment_id)


def _load(comment_id: int) -> Comment:
    row = store.comment_by_id(comment_id)
    if row is None:
        raise CommentNotFound(f"comment does not exist [id: {comment_id}]")
    return Comment.from_row(row)


def _require_poster_or_writer(repo: repos.Repo, comment: Comment, principal: Principal) -> None:
    if comment.poster_id != principal.user_id and not permission(principal, repo).can_write:
        raise IssuePermissionDenied("user should be the poster of the comment or have permission to write to issues")


def edit_comment(repo: repos.Repo, comment: Comment, principal: Principal, body: object) -> Comment:
    """Change a comment's text (its poster, or a writer)."""
    text = _body(body)
    _require_poster_or_writer(repo, comment, principal)
    with forge().db.transaction():
        now = now_seconds()
        store.update_comment_content(comment.id, text, now)
        store.touch_issue(comment.issue_id, now)
    return _load(comment.id)


def delete_comment(repo: repos.Repo, comment: Comment, principal: Principal) -> None:
    """Remove a comment (its poster, or a writer) with its reactions and files, and refresh the issue's
    comment count."""
    _require_poster_or_writer(repo, comment, principal)
    with forge().db.transaction():
        forge().events.publish(CommentDeletedEvent(repo.id, comment.issue_id, comment.id))
        store.delete_comment(comment.id)
        store.count_comments(comment.issue_id, int(CommentType.COMMENT))


def list_comments(issue: Issue, limit: int, offset: int) -> tuple[list[Comment], int]:
    """A page of the issue's plain comments, oldest first."""
    rows, total = store.comment_rows(issue.id, [int(CommentType.COMMENT)], limit, offset)
    return [Comment.from_row(row) for row in rows], total


def timeline(issue: Issue, limit: int, offset: int, *, hidden_reviews: Sequence[int] = ()) -> tuple[list[Comment], int]:
    """A page of everything that happened to the issue, oldest first, without the code comments of
    ``hidden_reviews`` (pending reviews of other people, which only their reviewer sees)."""
    rows, total = store.comment_rows(issue.id, None, limit, offset, hidden_reviews=hidden_reviews)
    return [Comment.from_row(row) for row in rows], total


def review_comments(review_id: int) -> list[Comment]:
    """The code comments of one review (its replies included), oldest first."""
    return [Comment.from_row(row) for row in store.comments_of_review(review_id, int(CommentType.CODE))]


def review_entry(review_id: int) -> Comment | None:
    """The timeline entry a submitted review left (None while it is pending)."""
    rows = store.comments_of_review(review_id, int(CommentType.REVIEW))
    return Comment.from_row(rows[0]) if rows else None


def delete_review_entries(review_id: int) -> None:
    """Remove what a review left on an issue: its code comments, its timeline entry and its dismissals."""
    with forge().db.transaction():
        for comment_type in (CommentType.CODE, CommentType.REVIEW, CommentType.DISMISS_REVIEW):
            for row in store.comments_of_review(review_id, int(comment_type)):
                store.delete_comment(int(row["id"]))


def count_of_type(issue_id: int, comment_type: CommentType) -> int:
    """How many comments of one type an issue has (code comments of a pull request, for example)."""
    return store.count_of_type(issue_id, int(comment_type))
