"""Named error conditions of the pulls family (Gitea's messages where Gitea has one)."""

from __future__ import annotations

from ..errors import ApiError, BadRequest, Conflict, NotFound, Unprocessable

__all__ = [
    "InvalidPullOption",
    "MergeNotAllowed",
    "NotAReviewComment",
    "PullAlreadyExists",
    "PullAlreadyMerged",
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


class PullAlreadyMerged(ApiError):
    """Gitea answers 412 Precondition Failed to a state change of a merged pull request."""

    status = 412
    default_message = "cannot change state of this pull request, it was already merged"


class MergeNotAllowed(ApiError):
    """Gitea answers 405 Method Not Allowed when a pull request cannot be merged (already merged, no permission)."""

    status = 405
    default_message = "User not allowed to merge PR"
