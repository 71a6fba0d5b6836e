"""Collaborations: a user's read, write or admin access to one repository, and Gitea's access modes.

Only repository admins manage collaborators (Gitea's ``reqAdmin``); the access they give feeds
``repos.models.permission`` through :func:`collaborator_access`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..users import models as users
from . import store
from .errors import CollaboratorNotFound, InvalidCollaborator, NotRepoAdmin, PermissionQueryDenied, UnknownUser

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "COLLABORATOR_ACCESS",
    "access_mode",
    "collaborator_access",
    "is_collaborator",
    "list_collaborators",
    "permission_to_api",
    "put_collaborator",
    "remove_collaborator",
    "require_repo_admin",
]

COLLABORATOR_ACCESS = ("read", "write", "admin")


def collaborator_access(user_id: int, repo: Repo) -> str:
    """The access a collaboration gives the user on the repository: none, read, write or admin."""
    return store.access_of(repo.id, user_id) or "none"


def require_repo_admin(repo: Repo, principal: Principal) -> None:
    """Gitea's ``reqAdmin``: the owner, an owner of the organization, an admin collaborator or a site admin."""
    from ..repos.models import permission

    if not permission(principal, repo).is_admin:
        raise NotRepoAdmin()


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
    with forge().db.transaction():
        store.put(repo.id, account.id, access, now_seconds())


def remove_collaborator(repo: Repo, name: str) -> None:
    """Remove the collaboration (nothing to do when there is none); 422 for an unknown user."""
    account = _account(name)
    with forge().db.transaction():
        store.delete(repo.id, account.id)


def access_mode(user: users.User, repo: Repo) -> str:
    """Gitea's access mode of a user on a repository: admin (site admin), owner, the granted
    collaboration or team access, read on a repository the user may see, else none."""
    from ..orgs.models import is_org_owner, rank, team_permission_on
    from ..repos.models import permission

    if user.is_admin:
        return "admin"
    if user.id == repo.owner_id or (repo.owner_is_org and is_org_owner(user.id, repo.owner_id)):
        return "owner"
    granted = max(collaborator_access(user.id, repo), team_permission_on(user.id, repo), key=rank)
    if granted != "none":
        return granted
    viewer = Principal(user_id=user.id, username=user.name, is_admin=False, scopes=frozenset({"all"}))
    return "read" if permission(viewer, repo).can_read else "none"


def permission_to_api(repo: Repo, name: str, principal: Principal) -> dict[str, Any]:
    """Gitea's ``RepoCollaboratorPermission`` of the named user: site admins and repository admins ask
    about anybody, others only about themselves (403); an unknown user is 404 here."""
    from ..repos.models import permission

    own = principal.username.lower() == name.lower()
    if not (principal.is_admin or own or permission(principal, repo).is_admin):
        raise PermissionQueryDenied()
    account = users.find_account(name)
    if account is None:
        raise CollaboratorNotFound(f"user does not exist [name: {name}]")
    mode = access_mode(account, repo)
    return {"permission": mode, "role_name": mode, "user": users.user_to_api(account)}
