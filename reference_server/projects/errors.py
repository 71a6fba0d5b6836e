"""Named error conditions of the projects family (Gitea's development-line messages where it has one)."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = [
    "ColumnNotFound",
    "InvalidProjectOption",
    "IssueNotOnBoard",
    "IssueOutOfReach",
    "ProjectClosed",
    "ProjectNotFound",
    "ProjectPermissionDenied",
]


class ProjectNotFound(NotFound):
    default_message = "project does not exist"


class ColumnNotFound(NotFound):
    default_message = "project column does not exist"


class ProjectClosed(Forbidden):
    default_message = "project is closed"


class ProjectPermissionDenied(Forbidden):
    default_message = "user should have permission to write to the projects"


class InvalidProjectOption(Unprocessable):
    default_message = "invalid project option"


class IssueOutOfReach(Unprocessable):
    default_message = "the issue cannot be placed on this project"


class IssueNotOnBoard(Unprocessable):
    default_message = "issue is not in the project"
