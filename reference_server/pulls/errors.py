"""Named error conditions of the pulls family (Gitea's messages where Gitea has one)."""

from __future__ import annotations

from ..errors import BadRequest, Conflict, NotFound, Unprocessable

__all__ = [
    "InvalidPullOption",
    "NotAReviewComment",
    "PullAlreadyExists",
    "PullBranchNotFound",
    "PullNotFound",
    "ReviewNotFound",
    "UpdateConflict",
]


class PullNotFound(NotFound):
    default_message = "pull request does not exist"


class PullBranchNotFound(NotFound):
    default_message = "branch does not exist"


class ReviewNotFound(NotFound):
    default_message = "review does not exist"


class PullAlreadyExists(Conflict):
    default_message = "pull request already exists for these targets"


class UpdateConflict(Conflict):
    default_message = "merge failed because of conflict"


class InvalidPullOption(Unprocessable):
    default_message = "invalid pull request option"


class NotAReviewComment(BadRequest):
    default_message = "comment is not a review comment"
