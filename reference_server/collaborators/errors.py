"""Named error conditions of the collaborators family."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = ["CollaboratorNotFound", "InvalidCollaborator", "NotRepoAdmin", "PermissionQueryDenied", "UnknownUser"]


class UnknownUser(Unprocessable):
    """Gitea answers 422 when the named collaborator does not exist (404 on the permission route)."""

    default_message = "user does not exist"


class InvalidCollaborator(Unprocessable):
    default_message = "this account cannot be a collaborator"


class CollaboratorNotFound(NotFound):
    default_message = "not found"


class NotRepoAdmin(Forbidden):
    default_message = "user should be an owner or a collaborator with admin write of a repository"


class PermissionQueryDenied(Forbidden):
    default_message = (
        "Only admins can query all permissions, repo admins can query all repo permissions,"
        " collaborators can query only their own"
    )
