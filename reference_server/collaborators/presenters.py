"""Gitea's ``RepoCollaboratorPermission``: who may ask about whose access, and the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..auth import Principal
from ..permissions import access_mode, permission
from ..users import models as users
from ..users.presenters import user_to_api
from .errors import CollaboratorNotFound, PermissionQueryDenied

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = ["permission_to_api"]


def permission_to_api(repo: Repo, name: str, principal: Principal) -> dict[str, Any]:
    """Gitea's ``RepoCollaboratorPermission`` of the named user: site admins and repository admins ask
    about anybody, others only about themselves (403); an unknown user is 404 here."""
    own = principal.username.lower() == name.lower()
    if not (principal.is_admin or own or permission(principal, repo).is_admin):
        raise PermissionQueryDenied()
    account = users.find_account(name)
    if account is None:
        raise CollaboratorNotFound(f"user does not exist [name: {name}]")
    mode = access_mode(account, repo)
    return {"permission": mode, "role_name": mode, "user": user_to_api(account)}
