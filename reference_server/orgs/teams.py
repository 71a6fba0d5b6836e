"""Teams of an organization: creation and edits with Gitea's units rules, members and repositories.

Who may do what follows Gitea's route guards: a team is seen by site admins, the organization's owners
and the team's own members (another member of the organization gets 403, anybody else 404); changing a
team or its members needs an owner (404 otherwise, as Gitea answers on the team routes); adding a
repository to a team needs admin access to that repository.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..errors import Unprocessable
from ..permissions import is_org_member, is_org_owner, is_visible_to, permission, rank
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..users import models as users
from ..users.errors import UserNotFound
from . import store
from .errors import (
    LastOwner,
    NotTeamMember,
    OwnerTeamProtected,
    RepoAdminRequired,
    TeamAlreadyExists,
    TeamNotFound,
)
from .models import REPO_UNITS, Team, unit_modes_for

__all__ = [
    "add_member",
    "add_repo",
    "create_team",
    "delete_team",
    "edit_team",
    "get_team_for",
    "get_visible_team",
    "list_team_members",
    "list_team_repos",
    "list_teams",
    "list_teams_of_user",
    "remove_member",
    "remove_repo",
    "team_member",
    "team_repo",
]

MAX_TEAM_NAME = 255
_TEAM_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
TEAM_PERMISSIONS = ("read", "write", "admin")
TEAM_VISIBILITIES = ("public", "limited", "private")
UNIT_MODES = ("none", "read", "write", "admin")


# -- lookups and guards --------------------------------------------------------------------------


def _team_by_id(team_id: int) -> Team:
    row = store.team_by_id(team_id)
    if row is None:
        raise TeamNotFound(f"team does not exist [id: {team_id}]")
    return Team.from_row(row)


def get_team_for(team_id: int, principal: Principal, *, owner: bool = False) -> Team:
    """The team if the caller may use it: site admins and owners always; team members unless ``owner`` is
    needed (then 404); other members of the organization 403; anybody else 404."""
    team = _team_by_id(team_id)
    if principal.is_admin or is_org_owner(principal.user_id, team.org_id):
        return team
    if store.is_team_member(team.id, principal.user_id):
        if owner:
            raise TeamNotFound(f"team does not exist [id: {team_id}]")
        return team
    if is_org_member(principal.user_id, team.org_id):
        raise NotTeamMember("Must be a team member")
    raise TeamNotFound(f"team does not exist [id: {team_id}]")


def _listed_filter(org_id: int, principal: Principal) -> tuple[int | None, tuple[str, ...]]:
    """Gitea's ``ApplyTeamListFilter``: site admins and owners see every team (None); anybody else the teams it
    is in and those of the visibilities its standing allows (limited and public to members, public otherwise)."""
    if principal.is_admin or is_org_owner(principal.user_id, org_id):
        return None, ()
    if is_org_member(principal.user_id, org_id):
        return principal.user_id, ("limited", "public")
    return principal.user_id, ("public",)


def get_visible_team(team_id: int, principal: Principal) -> Team:
    """The team to read: as :func:`get_team_for`, and besides a team whose visibility lets the caller list it
    (limited to members of the organization, public to anyone who may see the organization)."""
    team = _team_by_id(team_id)
    member_id, visibilities = _listed_filter(team.org_id, principal)
    visible = member_id is not None and team.visibility in visibilities
    if visible and is_visible_to(users.get_user(team.org_id), principal):
        return team
    return get_team_for(team_id, principal)


def _user_named(name: str) -> users.User:
    """A user (never an organization) by name; 404 otherwise."""
    account = users.find_account(name)
    if account is None or account.is_org:
        raise UserNotFound(f"user does not exist [name: {name}]")
    return account


# -- options -------------------------------------------------------------------------------------


def _validate_name(name: object) -> str:
    if not isinstance(name, str) or not name:
        raise Unprocessable("[Name]: Required")
    if len(name) > MAX_TEAM_NAME:
        raise Unprocessable(f"[Name]: MaxSize({MAX_TEAM_NAME})")
    if not _TEAM_NAME.match(name):
        raise Unprocessable("[Name]: AlphaDashDot")
    return name


def _validate_permission(value: object) -> str:
    """``read``, ``write`` or ``admin``; absent or empty means none (then the units decide)."""
    if value is None or value == "":
        return "none"
    if value not in TEAM_PERMISSIONS:
        raise Unprocessable("[Permission]: In")
    return str(value)


def _units_map(value: object) -> dict[str, str]:
    """``units_map``: known unit keys with none/read/write/admin (unknown keys are ignored, as Gitea does)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Unprocessable("[UnitsMap]: must be an object of unit names to permissions")
    result: dict[str, str] = {}
    for unit, mode in value.items():
        if mode not in UNIT_MODES:
            raise Unprocessable(f"[UnitsMap]: unknown permission {mode!r} for {unit}")
        if unit in REPO_UNITS:
            result[unit] = "read" if unit in ("repo.ext_wiki", "repo.ext_issues") and mode != "none" else mode
    return result


def _units(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(unit, str) for unit in value):
        raise Unprocessable("[Units]: must be a list of unit names")
    return [unit for unit in value if unit in REPO_UNITS]


def _min_mode(units_map: Mapping[str, str]) -> str:
    """Gitea's ``MinUnitAccessMode``: the lowest mode above none, the external units left out."""
    modes = [mode for unit, mode in units_map.items() if unit not in ("repo.ext_wiki", "repo.ext_issues")]
    above_none = [mode for mode in modes if mode != "none"]
    return min(above_none, key=rank) if above_none else "none"


def _resolve_units(access: str, options: Mapping[str, Any], *, required: bool) -> tuple[str, dict[str, str] | None]:
    """The team's access level and its units (None: keep the stored ones) from permission, units_map, units."""
    units_map = _units_map(options.get("units_map"))
    units = _units(options.get("units"))
    if access != "admin" and units_map:
        access = _min_mode(units_map)
    if access == "admin":
        return access, unit_modes_for("admin")
    if units_map:
        return access, units_map
    if units:
        return access, {unit: access for unit in units}
    if required:
        raise Unprocessable("units permission should not be empty")
    return access, None


def _visibility(value: object, current: str) -> str:
    """``public``, ``limited`` or ``private``; absent keeps ``current`` (``private`` for a new team), 422 otherwise."""
    if value is None:
        return current
    if value not in TEAM_VISIBILITIES:
        raise Unprocessable("[Visibility]: In")
    return str(value)


def _flag(options: Mapping[str, Any], key: str) -> bool | None:
    value = options.get(key)
    if value is None:
        return None
    return optional_flag(options, key)


# -- teams ---------------------------------------------------------------------------------------


def list_teams(org: users.User, principal: Principal, limit: int, offset: int) -> tuple[list[Team], int]:
    """The organization's teams the caller may list (:func:`_listed_filter`), by name."""
    member_id, visibilities = _listed_filter(org.id, principal)
    rows, total = store.teams_page(org.id, limit, offset, member_id=member_id, visibilities=visibilities)
    return [Team.from_row(row) for row in rows], total


def search_teams(
    org: users.User, principal: Principal, keyword: str, *, include_desc: bool, limit: int, offset: int
) -> tuple[list[Team], int]:
    """Gitea's team search: name (and description) holding the keyword, by name, among the teams the caller
    may list (:func:`_listed_filter`)."""
    member_id, visibilities = _listed_filter(org.id, principal)
    rows, total = store.search_teams(
        org.id,
        keyword.strip(),
        include_desc=include_desc,
        member_id=member_id,
        visibilities=visibilities,
        limit=limit,
        offset=offset,
    )
    return [Team.from_row(row) for row in rows], total


def list_teams_of_user(user_id: int, limit: int, offset: int) -> tuple[list[Team], int]:
    """Every team the user is in, across organizations."""
    rows, total = store.teams_page_of_user(user_id, limit, offset)
    return [Team.from_row(row) for row in rows], total


def create_team(org: users.User, options: Mapping[str, Any]) -> Team:
    """A new team from ``CreateTeamOption``; 422 on a bad or taken name, a bad permission or no units."""
    name = _validate_name(options.get("name"))
    description = optional_text(options, "description", 255)
    access, units = _resolve_units(_validate_permission(options.get("permission")), options, required=True)
    visibility = _visibility(options.get("visibility"), "private")
    now = now_seconds()
    with forge().db.transaction():
        if store.team_by_name(org.id, name) is not None:
            raise TeamAlreadyExists(f"team already exists [org_id: {org.id}, name: {name}]")
        team_id = store.insert_team(
            org_id=org.id,
            name=name,
            description=description,
            access=access,
            includes_all=bool(_flag(options, "includes_all_repositories")),
            can_create=bool(_flag(options, "can_create_org_repo")),
            visibility=visibility,
            now=now,
        )
        store.replace_units(team_id, units or {})
    return _team_by_id(team_id)


def edit_team(team: Team, options: Mapping[str, Any]) -> Team:
    """Apply ``EditTeamOption`` as Gitea does: the Owners team keeps its access, and
    ``includes_all_repositories`` only changes together with ``permission``."""
    name = _validate_name(options.get("name"))
    if team.is_owner_team and name != team.name:
        raise OwnerTeamProtected("the Owners team cannot be renamed")
    description = team.description
    if options.get("description") is not None:
        description = optional_text(options, "description", 255)
    access, includes_all = team.access, team.includes_all_repositories
    units: dict[str, str] | None = None
    permission = options.get("permission")
    if not team.is_owner_team:
        if permission not in (None, ""):
            access = _validate_permission(permission)
            flag = _flag(options, "includes_all_repositories")
            includes_all = includes_all if flag is None else flag
        access, units = _resolve_units(access, options, required=False)
    visibility = _visibility(options.get("visibility"), team.visibility)
    can_create = team.can_create_org_repo
    flag = _flag(options, "can_create_org_repo")
    if flag is not None:
        can_create = team.is_owner_team or flag
    with forge().db.transaction():
        other = store.team_by_name(team.org_id, name)
        if other is not None and other["id"] != team.id:
            raise TeamAlreadyExists(f"team already exists [org_id: {team.org_id}, name: {name}]")
        store.update_team(
            team.id,
            name=name,
            description=description,
            access=access,
            includes_all=includes_all,
            can_create=can_create,
            visibility=visibility,
            now=now_seconds(),
        )
        if units is not None:
            store.replace_units(team.id, units)
    return _team_by_id(team.id)


def delete_team(team: Team) -> None:
    """Delete a team (never the Owners team); members left in no team leave the organization."""
    if team.is_owner_team:
        raise OwnerTeamProtected("the Owners team cannot be deleted")
    with forge().db.transaction():
        members = store.team_member_ids(team.id)
        store.delete_team(team.id)
        for user_id in members:
            store.drop_org_user_without_team(team.org_id, user_id)


# -- members -------------------------------------------------------------------------------------


def list_team_members(team: Team, limit: int, offset: int) -> tuple[list[users.User], int]:
    ids, total = store.team_members_page(team.id, limit, offset)
    return [users.get_user(user_id) for user_id in ids], total


def team_member(team: Team, name: str) -> users.User:
    """The named user when in the team; 404 otherwise."""
    user = _user_named(name)
    if not store.is_team_member(team.id, user.id):
        raise UserNotFound(f"user is not a member of the team [name: {name}]")
    return user


def add_member(team: Team, name: str) -> None:
    """Put a user in the team; the user joins the organization with it."""
    user = _user_named(name)
    now = now_seconds()
    with forge().db.transaction():
        store.add_team_member(team.id, user.id, now)
        store.ensure_org_user(team.org_id, user.id, now)


def remove_member(team: Team, name: str) -> None:
    """Take a user out of the team (the last owner stays, 422); in no team any more, it leaves the organization."""
    user = _user_named(name)
    with forge().db.transaction():
        if team.is_owner_team and store.is_team_member(team.id, user.id) and store.count_owners(team.org_id) <= 1:
            raise LastOwner(f"user is the last member of owner team [uid: {user.id}]")
        store.remove_team_member(team.id, user.id)
        store.drop_org_user_without_team(team.org_id, user.id)


# -- repositories --------------------------------------------------------------------------------


def list_team_repos(team: Team, limit: int, offset: int) -> tuple[list[repos.Repo], int]:
    """The team's repositories by name (every repository of the organization when it includes all)."""
    if team.includes_all_repositories:
        every = sorted(repos.repos_of_owner(team.org_id), key=lambda repo: repo.name.lower())
        return every[offset : offset + limit], len(every)
    ids, total = store.team_repo_ids(team.id, limit, offset)
    return [repos.get_repo_by_id(repo_id) for repo_id in ids], total


def _org_repo(team: Team, name: str) -> repos.Repo:
    """The team's organization's repository of that name (the ``{org}`` of the path is not consulted, as in Gitea)."""
    org = users.get_user(team.org_id)
    try:
        return repos.get_repo(org.name, name)
    except RepoNotFound:
        raise RepoNotFound(f"repository does not exist [owner: {org.name}, name: {name}]") from None


def team_repo(team: Team, name: str) -> repos.Repo:
    """The repository when the team covers it; 404 otherwise."""
    repo = _org_repo(team, name)
    if not (team.includes_all_repositories or store.has_team_repo(team.id, repo.id)):
        raise RepoNotFound(f"repository is not a repository of the team [name: {name}]")
    return repo


def _require_repo_admin(repo: repos.Repo, principal: Principal) -> None:
    if not permission(principal, repo).is_admin:
        raise RepoAdminRequired("Must have admin-level access to the repository")


def add_repo(team: Team, name: str, principal: Principal) -> None:
    """Give the team a repository of its organization (admin access to the repository needed)."""
    repo = _org_repo(team, name)
    _require_repo_admin(repo, principal)
    with forge().db.transaction():
        store.add_team_repo(team.id, repo.id)


def remove_repo(team: Team, name: str, principal: Principal) -> None:
    """Take a repository from the team; a team that includes all repositories keeps them (422)."""
    repo = _org_repo(team, name)
    _require_repo_admin(repo, principal)
    if team.includes_all_repositories:
        raise Unprocessable("the team includes all repositories of the organization; edit it to list repositories")
    with forge().db.transaction():
        store.remove_team_repo(team.id, repo.id)
