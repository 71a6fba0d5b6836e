"""Collaborations: a user's read, write or admin access to one repository, and Gitea's access modes.

Only repository admins manage collaborators (Gitea's ``reqAdmin``); the access they give feeds
:func:`..permissions.permission` through :func:`..permissions.collaborator_access`; Gitea's
``RepoCollaboratorPermission`` is :mod:`.presenters`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..context import forge, now_seconds
from ..users import models as users
from ..users.relations import BlockedUser, is_blocked
from . import store
from .errors import CollaboratorNotFound, InvalidCollaborator, UnknownUser

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "COLLABORATOR_ACCESS",
    "is_collaborator",
    "list_collaborators",
    "put_collaborator",
    "remove_collaborator",
]

COLLABORATOR_ACCESS = ("read", "write", "admin")


def _account(name: str) -> users.User:
    """The named account for the collaborator routes; 422 when there is none, as Gitea answers."""
    account = users.find_account(name)
    if account is None:
        raise UnknownUser(f"user does not exist [name: {name}]")
    return account


def list_collaborators(repo: Repo, limit: int, offset: int) -> tuple[list[users.User], int]:
    """One page of the repository's collaborators by name, and their number."""
    ids, total = store.page(repo.id, limit, offset)
    return [users.get_user(user_id) for user_id in ids], total


def is_collaborator(repo: Repo, name: str) -> None:
    """Nothing when the named user collaborates on the repository; 404 when not, 422 when unknown."""
    account = _account(name)
    if store.access_of(repo.id, account.id) is None:
        raise CollaboratorNotFound(f"user is not a collaborator [name: {name}]")


def _validate_access(options: Mapping[str, Any]) -> str:
    value = options.get("permission")
    if value is None:
        return "write"
    if value not in COLLABORATOR_ACCESS:
        raise InvalidCollaborator(f"[Permission]: must be one of {', '.join(COLLABORATOR_ACCESS)}")
    return str(value)


def put_collaborator(repo: Repo, name: str, options: Mapping[str, Any]) -> None:
    """Add the user, or change its access (``write`` when the body names none); organizations and
    inactive accounts cannot collaborate (422)."""
    account = _account(name)
    access = _validate_access(options)
    if account.is_org:
        raise InvalidCollaborator(f"an organization cannot be a collaborator [name: {account.name}]")
    if account.id < 0 or not account.active:
        raise InvalidCollaborator("collaborator's account is inactive")
    if is_blocked(account, repo.owner_id) or is_blocked(users.get_user(repo.owner_id), account.id):
        raise BlockedUser()
    with forge().db.transaction():
        store.put(repo.id, account.id, access, now_seconds())


def remove_collaborator(repo: Repo, name: str) -> None:
    """Remove the collaboration (nothing to do when there is none); 422 for an unknown user."""
    account = _account(name)
    with forge().db.transaction():
        store.delete(repo.id, account.id)
