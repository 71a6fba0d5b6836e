"""Named error conditions of the issues family (Gitea's messages where Gitea has one)."""

from __future__ import annotations

from ..errors import Conflict, Forbidden, NotFound, Unprocessable

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


class IssueAlreadyChanged(Conflict):
    """A body edit naming a ``content_version`` that is no longer the issue's (Gitea 1.27 answers 409 since
    go-gitea/gitea#37035, which added ``content_version`` to the edit options; before it the API said 400)."""

    default_message = "the issue is already changed"
