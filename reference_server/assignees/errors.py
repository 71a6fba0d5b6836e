"""Named error conditions of the assignees family (Gitea's messages where Gitea has one)."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = ["AssignPermissionDenied", "AssigneeNotAllowed", "AssigneeUnknown", "InvalidAssignees", "NotAssignable"]


class NotAssignable(NotFound):
    """The check routes' answer for a user who cannot be assigned (or does not exist)."""

    default_message = "not found"


class AssignPermissionDenied(Forbidden):
    """Gitea answers an empty 403; the reference says why."""

    default_message = "user should have permission to write to issues or pull requests"


class AssigneeNotAllowed(Forbidden):
    """Gitea's ``ErrUserDoesNotHaveAccessToRepo`` (403 through ``APIErrorAuto``)."""

    default_message = "user doesn't have access to repo"


class AssigneeUnknown(Unprocessable):
    default_message = "user does not exist"


class InvalidAssignees(Unprocessable):
    default_message = "[Assignees]: must be a list of user names"
