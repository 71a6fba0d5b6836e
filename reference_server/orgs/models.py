"""Organizations: creation with an Owners team, membership through teams, profile edits (shapes: :mod:`.presenters`).

Membership follows Gitea: a user belongs to an organization while in at least one of its teams, and the
owners are the members of the Owners team (created with the organization, holding its creator).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..db import Row
from ..errors import Forbidden, Unprocessable
from ..events import AccountDeletedEvent
from ..permissions import get_org, is_org_member, is_org_owner, is_visible_to
from ..repos.models import repos_of_owner
from ..users import models as users
from ..users import store as users_store
from ..users.errors import UserAlreadyExists
from . import store
from .errors import LastOwner, OrgHasRepositories, OrgNotFound

__all__ = [
    "OWNER_TEAM_NAME",
    "REPO_UNITS",
    "Team",
    "create_org",
    "delete_org",
    "edit_org",
    "find_team",
    "get_org",
    "is_public_member",
    "leave_all_orgs",
    "list_members",
    "list_orgs_of_user",
    "list_public_members",
    "orgs_of_member",
    "remove_member",
    "set_membership_public",
    "unit_modes_for",
]

OWNER_TEAM_NAME = "Owners"
REPO_UNITS = (
    "repo.code",
    "repo.issues",
    "repo.pulls",
    "repo.releases",
    "repo.wiki",
    "repo.ext_wiki",
    "repo.ext_issues",
    "repo.projects",
    "repo.packages",
    "repo.actions",
)
READ_ONLY_UNITS = frozenset({"repo.ext_wiki", "repo.ext_issues"})
_WEBSITE_SCHEMES = ("http://", "https://")


@dataclass(frozen=True)
class Team:
    """A team of an organization: its access level (``read``/``write``/``admin``, or ``owner`` for Owners)."""

    id: int
    org_id: int
    name: str
    description: str
    access: str
    includes_all_repositories: bool
    can_create_org_repo: bool
    visibility: str = "private"

    @property
    def is_owner_team(self) -> bool:
        return self.access == "owner"

    @classmethod
    def from_row(cls, row: Row) -> Team:
        return cls(
            id=row["id"],
            org_id=row["org_id"],
            name=row["name"],
            description=row["description"],
            access=row["access"],
            includes_all_repositories=bool(row["includes_all_repositories"]),
            can_create_org_repo=bool(row["can_create_org_repo"]),
            visibility=row["visibility"],
        )


def unit_modes_for(access: str) -> dict[str, str]:
    """Every unit at ``access``, the external tracker and wiki only ever at ``read`` (Gitea's admin units)."""
    return {unit: ("read" if unit in READ_ONLY_UNITS else access) for unit in REPO_UNITS}


# -- membership ----------------------------------------------------------------------------------


def is_public_member(user_id: int, org_id: int) -> bool:
    """Whether the user shows its membership of the organization publicly."""
    return store.is_public_member(org_id, user_id)


def orgs_of_member(user_id: int) -> list[int]:
    """Ids of the organizations the user belongs to."""
    return store.orgs_of_member(user_id)


def leave_all_orgs(user_id: int) -> None:
    """Drop every team and organization membership of the user (a purged user leaves its organizations)."""
    store.remove_member_everywhere(user_id)


def find_team(org_id: int, name: str) -> Team | None:
    """The organization's team with this name (case-insensitive), or None (for team allowlists)."""
    row = store.team_by_name(org_id, name)
    return None if row is None else Team.from_row(row)


def list_members(org: users.User, viewer: Principal | None, limit: int, offset: int) -> tuple[list[users.User], int]:
    """Members by name; callers outside the organization (and anonymous ones) see public members only."""
    public_only = viewer is None or not (viewer.is_admin or is_org_member(viewer.user_id, org.id))
    ids, total = store.members_page(org.id, limit, offset, public_only=public_only)
    return [users.get_user(user_id) for user_id in ids], total


def list_public_members(org: users.User, limit: int, offset: int) -> tuple[list[users.User], int]:
    """The members who show their membership publicly."""
    ids, total = store.members_page(org.id, limit, offset, public_only=True)
    return [users.get_user(user_id) for user_id in ids], total


def remove_member(org: users.User, member: users.User) -> None:
    """Take the user out of every team of the organization; the last owner stays (422)."""
    with forge().db.transaction():
        if is_org_owner(member.id, org.id) and store.count_owners(org.id) <= 1:
            raise LastOwner(f"user is the last member of owner team [uid: {member.id}]")
        store.remove_from_org(org.id, member.id)


def set_membership_public(org: users.User, member: users.User, doer: Principal, public: bool) -> None:
    """Publicize or conceal one's own membership (403 for another member's, 404 for a non-member)."""
    if member.id != doer.user_id:
        action = "publicize" if public else "conceal"
        raise Forbidden(f"Cannot {action} another member")
    if not is_org_member(member.id, org.id):
        raise OrgNotFound("user is not a member of the organization")
    with forge().db.transaction():
        store.set_public(org.id, member.id, public)


def list_orgs_of_user(
    user: users.User, viewer: Principal | None, limit: int, offset: int
) -> tuple[list[users.User], int]:
    """The user's organizations: all for the user or a site admin, else public memberships the viewer may see."""
    own = viewer is not None and (viewer.is_admin or viewer.user_id == user.id)
    ids, _ = store.orgs_page_of_member(user.id, 1_000_000, 0, public_only=not own)
    visible = [org for org in (users.get_user(org_id) for org_id in ids) if own or is_visible_to(org, viewer)]
    return visible[offset : offset + limit], len(visible)


# -- organizations -------------------------------------------------------------------------------


def create_org(options: Mapping[str, Any], creator: Principal) -> users.User:
    """Create an organization from ``CreateOrgOption`` with its Owners team holding the creator."""
    creator_account = users.get_user(creator.user_id)
    allowed = creator_account.is_admin or users_store.limits_of(creator_account.id)["allow_create_organization"]
    if creator_account.id < 0 or creator_account.restricted or not allowed:
        raise Forbidden("user is not allowed to create organizations")
    name = users.validate_account_name(options.get("username"), "UserName")
    now = now_seconds()
    values = users.account_values(
        name,
        is_org=True,
        now=now,
        email=users.validate_email(options.get("email"), required=False),
        full_name=optional_text(options, "full_name", 100),
        description=optional_text(options, "description", 255),
        website=optional_text(options, "website", 255),
        location=optional_text(options, "location", 50),
        visibility=users.validate_visibility(options.get("visibility")),
        repo_admin_change_team_access=optional_flag(options, "repo_admin_change_team_access"),
    )
    with forge().db.transaction():
        try:
            org_id = users_store.insert_account(values)
        except sqlite3.IntegrityError as exc:
            raise UserAlreadyExists(f"user already exists [name: {name}]") from exc
        store.delete_redirect(name.lower())
        team_id = store.insert_team(
            org_id=org_id,
            name=OWNER_TEAM_NAME,
            description="",
            access="owner",
            includes_all=True,
            can_create=True,
            now=now,
        )
        store.replace_units(team_id, unit_modes_for("owner"))
        store.add_team_member(team_id, creator.user_id, now)
        store.ensure_org_user(org_id, creator.user_id, now)
    return users.get_user(org_id)


def delete_org(org: users.User) -> None:
    """Delete an organization (its owner or a site admin, checked by the route); 422 while it still owns
    repositories."""
    if repos_of_owner(org.id):
        raise OrgHasRepositories(f"organization still has ownership of repositories [uid: {org.id}]")
    with forge().db.transaction():
        forge().events.publish(AccountDeletedEvent(org.id, is_org=True))
        store.remove_org_data(org.id)
        users_store.delete_account(org.id)


def _edit_text(options: Mapping[str, Any], key: str, max_length: int) -> str:
    try:
        return optional_text(options, key, max_length)
    except Unprocessable:
        field = "".join(part.capitalize() for part in key.split("_"))
        raise Unprocessable(f"[{field}]: MaxSize({max_length})") from None


def edit_org(org: users.User, options: Mapping[str, Any]) -> users.User:
    """Apply ``EditOrgOption`` as Gitea does: the four texts are always set (absent means empty),
    visibility, e-mail and ``repo_admin_change_team_access`` only when given."""
    website = _edit_text(options, "website", 255)
    if website and (not website.startswith(_WEBSITE_SCHEMES) or not website.split("://", 1)[1]):
        raise Unprocessable("[Website]: ValidUrl")
    visibility = options.get("visibility")
    email = options.get("email")
    flag = options.get("repo_admin_change_team_access")
    profile = store.OrgProfile(
        full_name=_edit_text(options, "full_name", 100),
        description=_edit_text(options, "description", 255),
        website=website,
        location=_edit_text(options, "location", 50),
        visibility=None if visibility in (None, "") else users.validate_visibility(visibility),
        email=None if email in (None, "") else users.validate_email(email),
        repo_admin_change_team_access=None if flag is None else optional_flag(options, "repo_admin_change_team_access"),
    )
    with forge().db.transaction():
        store.update_org_profile(org.id, profile, now_seconds())
    return users.get_user(org.id)
