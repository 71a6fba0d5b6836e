"""Reviews of pull requests, their code comments (with the diff hunk they refer to) and replies to them.

A review is a ``review`` row; each code comment is a ``code`` row of the issues family's ``comment``
table carrying the review's id, the path, the line (positive: new side, negative: old side, as Gitea)
and the diff hunk; a submitted review also leaves a ``review`` entry in the timeline.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..events import IssueActionEvent
from ..issues import models as issues
from ..issues.comments import (
    Comment,
    CommentType,
    add_event,
    count_of_type,
    review_comments,
)
from ..issues.errors import InvalidIssueOption
from ..permissions import permission
from ..protections.merging import governing_protection, is_official_reviewer
from ..repos import models as repos
from ..repos.commit_gate import require_unarchived
from . import store
from .diff import cut_diff_around_line
from .errors import InvalidPullOption, NotAReviewComment, PullNotFound, ReviewNotFound
from .models import Pull, diff_base, get_pull, head_commit

__all__ = [
    "Review",
    "ReviewType",
    "count_code_comments",
    "create_review",
    "get_review",
    "hidden_review_ids",
    "list_reviews",
    "reply_to_comment",
    "review_type_for",
    "visible_review_comments",
]


class ReviewType(enum.IntEnum):
    """Gitea's review types, numbered as Gitea numbers them."""

    PENDING = 0
    APPROVE = 1
    COMMENT = 2
    REJECT = 3
    REQUEST = 4


API_STATE = {
    ReviewType.PENDING: "PENDING",
    ReviewType.APPROVE: "APPROVED",
    ReviewType.COMMENT: "COMMENT",
    ReviewType.REJECT: "REQUEST_CHANGES",
    ReviewType.REQUEST: "REQUEST_REVIEW",
}


@dataclass(frozen=True)
class Review:
    id: int
    issue_id: int
    reviewer_id: int
    type: ReviewType
    content: str
    commit_id: str
    official: bool
    stale: bool
    dismissed: bool
    created: int
    updated: int

    @classmethod
    def from_row(cls, row: Row) -> Review:
        return cls(
            id=row["id"],
            issue_id=row["issue_id"],
            reviewer_id=row["reviewer_id"],
            type=ReviewType(row["type"]),
            content=row["content"],
            commit_id=row["commit_id"],
            official=bool(row["official"]),
            stale=bool(row["stale"]),
            dismissed=bool(row["dismissed"]),
            created=row["created"],
            updated=row["updated"],
        )


@dataclass(frozen=True)
class _PlannedComment:
    body: str
    path: str
    line: int
    patch: str


def count_code_comments(issue_id: int) -> int:
    """The pull's code comments, those of pending reviews left out (Gitea's ``review_comments``)."""
    pending = store.pending_review_ids(issue_id, exclude_reviewer=0)
    hidden = sum(len(review_comments(review_id)) for review_id in pending)
    return count_of_type(issue_id, CommentType.CODE) - hidden


def review_type_for(pull: Pull, event: object, body: str, has_comments: bool, principal: Principal) -> ReviewType:
    """Gitea's rules: no approving or rejecting one's own pull; REQUEST_CHANGES needs a body, COMMENT a
    body or a comment; any other event (or none) leaves the review pending."""
    name = event.upper() if isinstance(event, str) else ""
    has_body = bool(body.strip())
    if name in ("APPROVE", "APPROVED"):
        if pull.issue.poster_id == principal.user_id:
            raise InvalidPullOption("approve your own pull is not allowed")
        return ReviewType.APPROVE
    if name == "REQUEST_CHANGES":
        if pull.issue.poster_id == principal.user_id:
            raise InvalidPullOption("reject your own pull is not allowed")
        if not has_body:
            raise InvalidPullOption(f"review event {name} requires a body")
        return ReviewType.REJECT
    if name == "COMMENT":
        if not has_body and not has_comments:
            raise InvalidPullOption(f"review event {name} requires a body or a comment")
        return ReviewType.COMMENT
    return ReviewType.PENDING


def _position(value: object, name: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidPullOption(f"[{name}]: must be a non-negative line number")
    return value


def _plan_comments(repo: repos.Repo, pull: Pull, raw: object, commit_id: str) -> list[_PlannedComment]:
    """Check every comment before anything is written: a body, a changed path and a line on one side."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidPullOption("[Comments]: must be a list")
    base = diff_base(repo, pull)
    changed = {change.path for change in repo.git.changed_paths(base, commit_id)}
    changed |= {change.old_path for change in repo.git.changed_paths(base, commit_id)}
    planned: list[_PlannedComment] = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise InvalidPullOption("[Comments]: every comment must be an object")
        body, path = item.get("body"), item.get("path")
        if not isinstance(body, str) or not body.strip():
            raise InvalidPullOption("[Comments.Body]: Required")
        if not isinstance(path, str) or path not in changed:
            raise InvalidPullOption(f"path is not changed by the pull request: {path!r}")
        new_line = _position(item.get("new_position"), "NewLineNum")
        old_line = _position(item.get("old_position"), "OldLineNum")
        if not new_line and not old_line:
            raise InvalidPullOption("[Comments]: new_position or old_position is required")
        line = -old_line if old_line else new_line
        diff = repo.git.diff_text(base, commit_id, paths=[path])
        patch = cut_diff_around_line(diff, abs(line), old=line < 0)
        planned.append(_PlannedComment(body, path, line, patch))
    return planned


def create_review(repo: repos.Repo, pull: Pull, options: Mapping[str, Any], principal: Principal) -> Review:
    """A ``CreatePullReviewOptions``: the review and all its code comments in one transaction, or nothing."""
    body = options.get("body") or ""
    if not isinstance(body, str):
        raise InvalidPullOption("[Body]: must be a string")
    raw_comments = options.get("comments")
    has_comments = isinstance(raw_comments, list) and bool(raw_comments)
    review_type = review_type_for(pull, options.get("event"), body, has_comments, principal)
    if pull.issue.is_closed or pull.has_merged:
        raise InvalidPullOption("can't submit review for a closed or merged PR")
    commit_id = options.get("commit_id") or head_commit(repo, pull)
    if not isinstance(commit_id, str) or repo.git.rev_parse(commit_id) is None:
        raise InvalidPullOption(f"[CommitID]: unknown commit {commit_id!r}")
    commit_id = repo.git.rev_parse(commit_id) or commit_id
    planned = _plan_comments(repo, pull, raw_comments, commit_id)
    decisive = review_type in (ReviewType.APPROVE, ReviewType.REJECT)
    official = decisive and is_official_reviewer(
        governing_protection(repo, pull.base_branch), principal.user_id, can_write=permission(principal, repo).can_write
    )
    now = now_seconds()
    with forge().db.transaction():
        if decisive:
            store.clear_official(pull.issue.id, principal.user_id)
        review_id = store.insert_review(
            issue_id=pull.issue.id,
            reviewer_id=principal.user_id,
            review_type=int(review_type),
            content=body,
            commit_id=commit_id,
            official=official,
            now=now,
        )
        for comment in planned:
            add_event(
                pull.issue.id,
                CommentType.CODE,
                principal.user_id,
                content=comment.body,
                review_id=review_id,
                tree_path=comment.path,
                line=comment.line,
                commit_sha=commit_id,
                patch=comment.patch,
            )
        if review_type != ReviewType.PENDING:
            entry = add_event(pull.issue.id, CommentType.REVIEW, principal.user_id, content=body, review_id=review_id)
            event = IssueActionEvent(repo.id, pull.issue.id, principal.user_id, "reviewed", entry)
            forge().events.publish(event)
    return _load(review_id)


def _load(review_id: int) -> Review:
    row = store.review_by_id(review_id)
    if row is None:
        raise ReviewNotFound(f"review does not exist [id: {review_id}]")
    return Review.from_row(row)


def _visible(review: Review, principal: Principal | None) -> bool:
    """A pending review is seen only by its reviewer and site admins (Gitea)."""
    if review.type != ReviewType.PENDING:
        return True
    return principal is not None and (principal.is_admin or principal.user_id == review.reviewer_id)


def get_review(pull: Pull, review_id: int, principal: Principal | None) -> Review:
    """A review of this pull request; 404 for another pull's review or someone else's pending one."""
    row = store.review_by_id(review_id)
    if row is None:
        raise ReviewNotFound(f"review does not exist [id: {review_id}]")
    review = Review.from_row(row)
    if review.issue_id != pull.issue.id or not _visible(review, principal):
        raise ReviewNotFound(f"review does not exist [id: {review_id}]")
    return review


def list_reviews(pull: Pull, principal: Principal | None, limit: int, offset: int) -> tuple[list[Review], int]:
    viewer = principal.user_id if principal is not None else 0
    rows, total = store.review_rows(pull.issue.id, viewer, limit, offset)
    return [Review.from_row(row) for row in rows], total


def hidden_review_ids(issue_id: int, principal: Principal | None) -> list[int]:
    """The pending reviews of a pull that the caller may not see (everybody else's; site admins see all)."""
    if principal is not None and principal.is_admin:
        return []
    viewer = principal.user_id if principal is not None else 0
    return store.pending_review_ids(issue_id, exclude_reviewer=viewer)


def visible_review_comments(review: Review) -> list[Comment]:
    return review_comments(review.id)


def reply_to_comment(repo: repos.Repo, index: int, comment_id: int, body: object, principal: Principal) -> Comment:
    """Answer a review's code comment: a new code comment in the same review, on the same path and line.

    An archived repository is 423 before anything else (Gitea's ``mustNotBeArchived``); an empty body is
    422; a comment of another repository or an unknown one 404; a plain comment 400 (on an issue: it does
    not belong to a pull request); a pull request other than ``index`` 404.
    """
    require_unarchived(repo)
    if not isinstance(body, str) or not body.strip():
        raise InvalidIssueOption("[Body]: Required")
    parent, issue = issues.get_comment(repo, comment_id)
    if not issue.is_pull:
        raise NotAReviewComment("comment does not belong to a pull request")
    if parent.type != CommentType.CODE:
        raise NotAReviewComment("comment is not a review comment")
    if issue.index != index:
        raise PullNotFound(f"comment {comment_id} does not belong to pull request {index}")
    pull = get_pull(repo, index)
    get_review(pull, parent.review_id, principal)
    reply_id = add_event(
        issue.id,
        CommentType.CODE,
        principal.user_id,
        content=body,
        review_id=parent.review_id,
        tree_path=parent.tree_path,
        line=parent.line,
        commit_sha=parent.commit_sha,
        patch=parent.patch,
    )
    reply, _issue = issues.get_comment(repo, reply_id)
    return reply
