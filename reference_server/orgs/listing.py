"""Organizations seen from outside one: every organization the caller may see (``GET /orgs``) and what a user
may do in an organization (``GET /users/{username}/orgs/{org}/permissions``)."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import ALL_SCOPES, Principal, optional_principal
from ..endpoints import API, Endpoint
from ..permissions import current_user, is_visible_to, rank
from ..rest import json_response, page_params, paged_response
from ..users import models as users
from ..users.errors import UserNotFound
from . import store
from .presenters import org_to_api

__all__ = ["ENDPOINTS"]

EVERY_ORG = 1_000_000


def org_get_all() -> Response:
    """Every organization the caller may see (public ones to anonymous callers), by name, paged."""
    viewer = optional_principal()
    found, _ = users.search_accounts(is_org=True, keyword="", limit=EVERY_ORG, offset=0)
    visible = sorted((org for org in found if is_visible_to(org, viewer)), key=lambda org: org.name.lower())
    page = page_params()
    chunk = visible[page.offset : page.offset + page.limit]
    return paged_response([org_to_api(org) for org in chunk], page, len(visible))


def org_get_user_permissions(username: str, org: str) -> Response:
    """Gitea's ``OrganizationPermissions`` of the user from its teams' access (404 when the organization is
    missing or hidden from the user)."""
    user = current_user()
    account = users.find_account(org)
    as_viewer = Principal(user.id, user.name, user.is_admin, ALL_SCOPES)
    if account is None or not account.is_org or not is_visible_to(account, as_viewer):
        raise UserNotFound(f"user does not exist [name: {org}]")
    teams = store.teams_of_member(account.id, user.id)
    level = max((rank("owner" if row["access"] == "owner" else row["access"]) for row in teams), default=0)
    return json_response(
        {
            "can_read": level >= rank("read"),
            "can_write": level >= rank("write"),
            "is_admin": level >= rank("admin"),
            "is_owner": level >= rank("owner"),
            "can_create_repository": level >= rank("owner") or any(row["can_create_org_repo"] for row in teams),
        }
    )


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/orgs",
        "orgGetAll",
        org_get_all,
        "organization",
        token("organization", anonymous_read=True),
        returns="[organization]",
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/orgs/<org>/permissions",
        "orgGetUserPermissions",
        org_get_user_permissions,
        "organization",
        token("organization", "user", user="exists"),
        returns="organization_permissions",
        errors=(403, 404),
    ),
)
