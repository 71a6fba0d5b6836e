"""Named error conditions of the issues family (Gitea's messages where Gitea has one)."""

from __future__ import annotations

from ..errors import BadRequest, Forbidden, NotFound, Unprocessable

__all__ = [
    "AssigneeNotFound",
    "CommentNotFound",
    "InvalidIssueOption",
    "IssueAlreadyChanged",
    "IssueLockedForCaller",
    "IssueNotFound",
    "IssuePermissionDenied",
]


class IssueNotFound(NotFound):
    default_message = "issue does not exist"


class CommentNotFound(NotFound):
    default_message = "comment does not exist"


class IssueLockedForCaller(Forbidden):
    default_message = "You cannot comment on a locked issue."


class IssuePermissionDenied(Forbidden):
    default_message = "user should have permission to write to issues"


class AssigneeNotFound(Unprocessable):
    default_message = "Assignee does not exist"


class InvalidIssueOption(Unprocessable):
    default_message = "invalid issue option"


class IssueAlreadyChanged(BadRequest):
    """A body edit naming a ``content_version`` that is no longer the issue's (Gitea answers 400)."""

    default_message = "the issue is already changed"
