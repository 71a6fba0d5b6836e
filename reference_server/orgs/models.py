"""Organizations: creation with the creator as owner, membership checks, and Gitea's ``Organization``."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..context import forge
from ..errors import Forbidden
from ..events import AccountDeletedEvent
from ..users import models as users
from ..users import store as users_store
from ..users.errors import UserAlreadyExists
from . import store
from .errors import NotOrgOwner, OrgHasRepositories, OrgNotFound

__all__ = [
    "create_org",
    "delete_org",
    "get_org",
    "is_org_member",
    "is_org_owner",
    "leave_all_orgs",
    "org_to_api",
    "orgs_of_member",
]


def is_org_owner(user_id: int, org_id: int) -> bool:
    """Whether the user is an owner of the organization."""
    return store.membership(org_id, user_id) is True


def is_org_member(user_id: int, org_id: int) -> bool:
    """Whether the user belongs to the organization (owners included)."""
    return store.membership(org_id, user_id) is not None


def orgs_of_member(user_id: int) -> list[int]:
    """Ids of the organizations the user belongs to."""
    return store.orgs_of_member(user_id)


def leave_all_orgs(user_id: int) -> None:
    """Drop every membership of the user (a purged user leaves its organizations)."""
    store.remove_member_everywhere(user_id)


def get_org(name: str, viewer: Principal | None) -> users.User:
    """The organization with this name as the viewer may see it; 404 when missing, not an org or invisible."""
    account = users.find_account(name)
    if account is None or not account.is_org or not users.is_visible_to(account, viewer):
        raise OrgNotFound(f"organization does not exist [name: {name}]")
    return account


def create_org(options: Mapping[str, Any], creator: Principal) -> users.User:
    """Create an organization from ``CreateOrgOption``; the creator becomes its owner."""
    creator_account = users.get_user(creator.user_id)
    if creator_account.id < 0 or creator_account.restricted:
        raise Forbidden("user is not allowed to create organizations")
    name = users.validate_account_name(options.get("username"), "UserName")
    values = users.account_values(
        name,
        is_org=True,
        now=int(forge().now()),
        email=users.validate_email(options.get("email"), required=False),
        full_name=users.optional_text(options, "full_name", 100),
        description=users.optional_text(options, "description", 255),
        website=users.optional_text(options, "website", 255),
        location=users.optional_text(options, "location", 50),
        visibility=users.validate_visibility(options.get("visibility")),
        repo_admin_change_team_access=users.optional_flag(options, "repo_admin_change_team_access"),
    )
    with forge().db.transaction():
        try:
            org_id = users_store.insert_account(values)
        except sqlite3.IntegrityError as exc:
            raise UserAlreadyExists(f"user already exists [name: {name}]") from exc
        store.add_member(org_id, creator.user_id, owner=True, now=values["created"])
    return users.get_user(org_id)


def require_owner(org: users.User, principal: Principal) -> None:
    """Site admins and owners pass; others get 403 ``Must be an organization owner``."""
    if not principal.is_admin and not is_org_owner(principal.user_id, org.id):
        raise NotOrgOwner("Must be an organization owner")


def delete_org(name: str, principal: Principal) -> None:
    """Delete an organization (owner or site admin); 422 while it still owns repositories."""
    from ..repos.models import repos_of_owner

    org = get_org(name, principal)
    require_owner(org, principal)
    if repos_of_owner(org.id):
        raise OrgHasRepositories(f"organization still has ownership of repositories [uid: {org.id}]")
    with forge().db.transaction():
        forge().events.publish(AccountDeletedEvent(org.id, is_org=True))
        store.remove_all_members(org.id)
        users_store.delete_account(org.id)


def org_to_api(org: users.User) -> dict[str, Any]:
    """Gitea's ``Organization``."""
    return {
        "id": org.id,
        "name": org.name,
        "full_name": org.full_name,
        "email": org.email,
        "avatar_url": users.avatar_url(org),
        "description": org.description,
        "website": org.website,
        "location": org.location,
        "visibility": org.visibility,
        "repo_admin_change_team_access": org.repo_admin_change_team_access,
        "username": org.name,
    }
