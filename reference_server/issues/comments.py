"""Comments and the timeline: plain comments, the events every state change records (Gitea's comment
types, so a timeline is one query), code comments of pull request reviews, and their API shapes."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..events import IssueActionEvent
from ..repos import models as repos
from ..timefmt import iso
from . import store
from .errors import CommentNotFound, InvalidIssueOption, IssueLockedForCaller, IssuePermissionDenied

if TYPE_CHECKING:
    from .models import Issue

__all__ = [
    "Comment",
    "CommentType",
    "add_comment",
    "add_event",
    "comment_to_api",
    "count_of_type",
    "delete_comment",
    "edit_comment",
    "get_comment",
    "list_comments",
    "review_comments",
    "review_entry",
    "timeline",
    "timeline_to_api",
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
    if issue.is_locked and not repos.permission(principal, repo).can_write:
        raise IssueLockedForCaller("You cannot comment on a locked issue.")
    with forge().db.transaction():
        comment_id = add_event(issue.id, CommentType.COMMENT, principal.user_id, content=text)
        forge().events.publish(IssueActionEvent(repo.id, issue.id, principal.user_id, "commented", comment_id))
    return _load(comment_id)


def _load(comment_id: int) -> Comment:
    row = store.comment_by_id(comment_id)
    if row is None:
        raise CommentNotFound(f"comment does not exist [id: {comment_id}]")
    return Comment.from_row(row)


def get_comment(repo: repos.Repo, comment_id: int) -> tuple[Comment, Issue]:
    """A comment of one of the repository's issues or pulls, with its issue; 404 for any other."""
    from .models import get_issue_by_id

    row = store.comment_by_id(comment_id)
    if row is not None:
        issue = get_issue_by_id(row["issue_id"])
        if issue.repo_id == repo.id:
            return Comment.from_row(row), issue
    raise CommentNotFound(f"comment does not exist [id: {comment_id}]")


def _require_poster_or_writer(repo: repos.Repo, comment: Comment, principal: Principal) -> None:
    if comment.poster_id != principal.user_id and not repos.permission(principal, repo).can_write:
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
    """Remove a comment (its poster, or a writer) and refresh the issue's comment count."""
    _require_poster_or_writer(repo, comment, principal)
    with forge().db.transaction():
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


def count_of_type(issue_id: int, comment_type: CommentType) -> int:
    """How many comments of one type an issue has (code comments of a pull request, for example)."""
    return store.count_of_type(issue_id, int(comment_type))


# -- API shape -------------------------------------------------------------------------------------


def _urls(repo: repos.Repo, issue: Issue, comment: Comment) -> dict[str, str]:
    from .models import issue_web_path

    page = forge().url(issue_web_path(repo, issue))
    return {
        "html_url": f"{page}#issuecomment-{comment.id}",
        "pull_request_url": page if issue.is_pull else "",
        "issue_url": "" if issue.is_pull else page,
    }


def comment_to_api(repo: repos.Repo, issue: Issue, comment: Comment) -> dict[str, Any]:
    """Gitea's ``Comment``."""
    from .models import poster_to_api

    return {
        "id": comment.id,
        **_urls(repo, issue, comment),
        "user": poster_to_api(comment.poster_id),
        "original_author": "",
        "original_author_id": 0,
        "body": comment.content,
        "assets": [],
        "created_at": iso(comment.created),
        "updated_at": iso(comment.updated),
    }


def _dependent_issue(comment: Comment) -> dict[str, Any] | None:
    """The other issue of an ``add_dependency``/``remove_dependency`` entry, when it still exists and the
    caller may read its repository (null otherwise)."""
    from ..errors import NotFound
    from .models import get_issue_by_id, repo_permission
    from .routes import issue_api

    if not comment.dependent_issue_id:
        return None
    try:
        other = get_issue_by_id(comment.dependent_issue_id)
        other_repo = repos.get_repo_by_id(other.repo_id)
    except NotFound:
        return None
    return issue_api(other_repo, other) if repo_permission(other_repo).can_read else None


def timeline_to_api(repo: repos.Repo, issue: Issue, comment: Comment) -> dict[str, Any]:
    """Gitea's ``TimelineComment``: ``type`` is the comment type's name."""
    from .models import poster_to_api

    return {
        "id": comment.id,
        "type": comment.type.api_name,
        **_urls(repo, issue, comment),
        "user": poster_to_api(comment.poster_id),
        "body": comment.content,
        "created_at": iso(comment.created),
        "updated_at": iso(comment.updated),
        "old_project_id": 0,
        "project_id": 0,
        "old_milestone": None,
        "milestone": None,
        "tracked_time": None,
        "old_title": comment.old_title,
        "new_title": comment.new_title,
        "old_ref": comment.old_ref,
        "new_ref": comment.new_ref,
        "ref_issue": None,
        "ref_comment": None,
        "ref_action": "",
        "ref_commit_sha": comment.commit_sha if comment.type == CommentType.COMMIT_REF else "",
        "review_id": comment.review_id,
        "label": None,
        "assignee": poster_to_api(comment.assignee_id) if comment.assignee_id else None,
        "assignee_team": None,
        "removed_assignee": comment.removed_assignee,
        "resolve_doer": None,
        "dependent_issue": _dependent_issue(comment),
    }
