"""Named error conditions of the issues family (Gitea's messages where Gitea has one)."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = [
    "AssigneeNotFound",
    "CommentNotFound",
    "InvalidIssueOption",
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
