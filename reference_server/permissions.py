"""Who may do what, for every family: on repositories, organizations, accounts and issue assignments.

The answers come from the tables of several families (collaborations, organization teams, assignments) and
from the credentials of the request (a job token's repository, a deploy or LFS transfer token bound to one
repository). This module sits below every family that asks: it reads their stores and the repository lookup
only, so asking a permission question never means importing another family's models.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import g

from .access import Need, OrgNeed, UserNeed
from .assignees import store as assignees_store
from .auth import ALL_SCOPES, Principal, current_principal, optional_principal
from .collaborators import store as collaborators_store
from .collaborators.errors import NotRepoAdmin
from .errors import Forbidden
from .orgs import store as orgs_store
from .orgs.errors import NotOrgOwner, OrgNotFound
from .repos.errors import RepoNotFound, RepoPermissionDenied
from .repos.models import Repo, get_repo
from .users.errors import UserNotFound
from .users.models import User, find_account

if TYPE_CHECKING:
    from .deploy_tokens.models import DeployToken

__all__ = [
    "ACCESS_LEVELS",
    "Need",
    "Permission",
    "RepoBinding",
    "access_mode",
    "bind_request",
    "can_be_assigned",
    "collaborator_access",
    "current_binding",
    "current_deploy_token",
    "current_org",
    "current_repo",
    "current_user",
    "enforce_path_targets",
    "get_org",
    "git_permission",
    "is_org_member",
    "is_org_owner",
    "is_visible_to",
    "permission",
    "rank",
    "require_org",
    "require_org_owner",
    "require_repo",
    "require_repo_admin",
    "require_self_or_admin",
    "require_user",
    "team_permission_on",
]

ACCESS_LEVELS = ("none", "read", "write", "admin", "owner")
"""Gitea's access modes, lowest first."""


@dataclass(frozen=True)
class Permission:
    """What a caller may do with a repository."""

    can_read: bool
    can_write: bool
    is_admin: bool
    is_owner: bool = field(default=False, compare=False)


def rank(access: str) -> int:
    """The order of access levels, ``none`` lowest and ``owner`` highest."""
    return ACCESS_LEVELS.index(access) if access in ACCESS_LEVELS else 0


# -- organizations -------------------------------------------------------------------------------


def is_org_owner(user_id: int, org_id: int) -> bool:
    """Whether the user is in the organization's Owners team."""
    return orgs_store.is_owner(org_id, user_id)


def is_org_member(user_id: int, org_id: int) -> bool:
    """Whether the user is in at least one team of the organization (owners included)."""
    return orgs_store.is_member(org_id, user_id)


def can_create_org_repo(user_id: int, org_id: int) -> bool:
    """Gitea's ``CanCreateOrgRepo``: an owner, or a member of a team allowed to create repositories."""
    return is_org_owner(user_id, org_id) or any(
        row["can_create_org_repo"] for row in orgs_store.teams_of_member(org_id, user_id)
    )


def require_org_owner(org: User, principal: Principal) -> None:
    """Site admins and owners pass; others get 403 ``Must be an organization owner``."""
    if not principal.is_admin and not is_org_owner(principal.user_id, org.id):
        raise NotOrgOwner("Must be an organization owner")


def get_org(name: str, viewer: Principal | None) -> User:
    """The organization with this name as the viewer may see it; 404 when missing, not an org or invisible."""
    account = find_account(name)
    if account is None or not account.is_org or not is_visible_to(account, viewer):
        raise OrgNotFound(f"organization does not exist [name: {name}]")
    return account


def require_org(name: str, need: OrgNeed) -> User:
    """The organization if the caller has the standing ``need`` in it (site admins have every standing):
    404 when it cannot see it, else 403 ``Must be an organization owner`` (Gitea's ``reqOrgOwnership``, member
    or not) or ``Must be an organization member`` (``reqOrgMembership``)."""
    principal = optional_principal()
    org = get_org(name, principal)
    if need == "visible":
        return org
    if need == "owner":
        require_org_owner(org, current_principal())
    elif principal is None or not (principal.is_admin or is_org_member(principal.user_id, org.id)):
        raise NotOrgOwner("Must be an organization member")
    return org


def _team_mode(team_id: int, access: str) -> str:
    """What a team grants on one repository it covers, read from its code unit."""
    if access in ("admin", "owner"):
        return "admin"
    modes = {row["unit"]: row["access"] for row in orgs_store.units_of(team_id)}
    code = modes.get("repo.code", "none")
    if code != "none":
        return str(code)
    return "read" if any(mode != "none" for mode in modes.values()) else "none"


def team_permission_on(user_id: int, repo: Repo) -> str:
    """The best access the user's teams give on an organization's repository: none, read, write or admin."""
    if not repo.owner_is_org:
        return "none"
    best = "none"
    for row in orgs_store.teams_reaching_repo(repo.owner_id, user_id, repo.id):
        mode = _team_mode(row["id"], row["access"])
        if rank(mode) > rank(best):
            best = mode
    return best


# -- accounts ------------------------------------------------------------------------------------


def is_visible_to(account: User, viewer: Principal | None) -> bool:
    """Public accounts are seen by all, limited ones by signed-in callers, private ones by themselves,
    their organization's members and site admins (Gitea's ``IsUserVisibleToViewer``)."""
    if account.visibility == "public":
        return True
    if viewer is None:
        return False
    if account.visibility == "limited" or viewer.is_admin or viewer.user_id == account.id:
        return True
    if account.is_org:
        return is_org_member(viewer.user_id, account.id)
    return False


def require_self_or_admin(principal: Principal, user: User) -> None:
    """Token routes act for the user themself, or any user for a site admin (403 otherwise)."""
    if not principal.is_admin and principal.user_id != user.id:
        raise Forbidden("doer should be the site admin or be same as the contextUser")


# -- repositories --------------------------------------------------------------------------------


def collaborator_access(user_id: int, repo: Repo) -> str:
    """The access a collaboration gives the user on the repository: none, read, write or admin."""
    return collaborators_store.access_of(repo.id, user_id) or "none"


def _owner_visible(principal: Principal | None, repo: Repo) -> bool:
    """A public repository is only as visible as its owner: a limited owner hides it from anonymous
    callers, a private one from everybody but itself and (for an organization) its members."""
    if repo.owner_visibility == "public":
        return True
    if principal is None:
        return False
    if repo.owner_visibility == "limited" or principal.user_id == repo.owner_id:
        return True
    if repo.owner_is_org:
        return is_org_member(principal.user_id, repo.owner_id)
    return False


def _granted_access(user_id: int, repo: Repo) -> str:
    """The best of what the user is given on the repository: ``owner`` as an owner of the owning
    organization, else the higher of its collaboration and its teams' access (none/read/write/admin)."""
    if repo.owner_is_org and is_org_owner(user_id, repo.owner_id):
        return "owner"
    return max(collaborator_access(user_id, repo), team_permission_on(user_id, repo), key=rank)


def permission(principal: Principal | None, repo: Repo) -> Permission:
    """Site admins, the owner and owners of the owning organization have everything; collaborators and
    members of the organization's teams that cover the repository get their read, write or admin access
    (even when the owner is hidden from them); anyone who may see the owner reads a public repository; a
    ``public-only`` token never sees a private one; a running task's job token reads and writes its own
    repository only. ``is_owner`` (Gitea's ``reqOwner``) is the owner, an owner of the organization or a
    site admin, never an admin collaborator."""
    if principal is not None and repo.private and "public-only" in principal.scopes:
        return Permission(False, False, False)
    public = not repo.private and _owner_visible(principal, repo)
    if principal is not None and principal.task_id is not None:
        if principal.task_repo_id == repo.id:
            return Permission(True, True, False)
        return Permission(public, False, False)
    if principal is not None:
        if principal.is_admin or principal.user_id == repo.owner_id:
            return Permission(True, True, True, is_owner=True)
        granted = _granted_access(principal.user_id, repo)
        if granted == "owner":
            return Permission(True, True, True, is_owner=True)
        if granted != "none":
            return Permission(True, granted in ("write", "admin"), granted == "admin")
    return Permission(public, False, False)


def require_repo(owner: str, name: str, need: Need = "read") -> Repo:
    """The repository if the caller may ``need`` it: 404 when missing or invisible, 403 when only readable."""
    try:
        repo = get_repo(owner, name)
    except RepoNotFound:
        raise RepoNotFound(f"repository does not exist [owner: {owner}, name: {name}]") from None
    allowed = permission(optional_principal(), repo)
    if not allowed.can_read:
        raise RepoNotFound(f"repository does not exist [owner: {owner}, name: {name}]")
    if need == "write" and not allowed.can_write:
        raise RepoPermissionDenied("user should have a permission to write to a repo")
    if need == "admin" and not allowed.is_admin:
        raise RepoPermissionDenied("user should be the owner of the repo")
    if need == "owner" and not allowed.is_owner:
        raise RepoPermissionDenied("user should be the owner of the repo")
    return repo


def require_user(name: str, need: UserNeed) -> User:
    """The account named ``name`` if the caller may act on it as ``need`` says: 404 ``user does not exist``
    when it does not exist, the caller cannot see it, or (for ``self``) it is an organization; 403 when it is
    another user's (site admins act for everybody)."""
    account = find_account(name)
    principal = optional_principal()
    hidden = need == "visible" and account is not None and not is_visible_to(account, principal)
    if account is None or hidden or (need == "self" and account.is_org):
        raise UserNotFound(f"user does not exist [name: {name}]")
    if need == "self":
        require_self_or_admin(current_principal(), account)
    return account


def enforce_path_targets(
    repo: Need | None, org: OrgNeed | None, user: UserNeed | None, path_values: Mapping[str, Any] | None
) -> None:
    """Check a route's declared permission on the repository (``<owner>/<repo>``), organization (``<org>``) or
    account (``<username>``) its path names, before the view runs, and keep what was found for the view
    (:func:`current_repo`, :func:`current_org`, :func:`current_user`)."""
    values = path_values or {}
    if repo is not None:
        g.target_repo = require_repo(values["owner"], values["repo"], repo)
    if org is not None:
        g.target_org = require_org(values["org"], org)
    if user is not None:
        g.target_user = require_user(values["username"], user)


def current_repo() -> Repo:
    """The repository the route's path names, already checked against its declared permission."""
    found: Repo | None = g.get("target_repo")
    if found is None:
        raise LookupError("this route declares no permission on a repository")
    return found


def current_org() -> User:
    """The organization the route's path names, already checked against its declared standing."""
    found: User | None = g.get("target_org")
    if found is None:
        raise LookupError("this route declares no standing in an organization")
    return found


def current_user() -> User:
    """The account the route's path names, already checked against its declared need."""
    found: User | None = g.get("target_user")
    if found is None:
        raise LookupError("this route declares no need on an account")
    return found


def require_repo_admin(repo: Repo, principal: Principal) -> None:
    """Gitea's ``reqAdmin``: the owner, an owner of the organization, an admin collaborator or a site admin."""
    if not permission(principal, repo).is_admin:
        raise NotRepoAdmin()


def access_mode(user: User, repo: Repo) -> str:
    """Gitea's access mode of a user on a repository: admin (site admin), owner, the granted
    collaboration or team access, read on a repository the user may see, else none."""
    if user.is_admin:
        return "admin"
    if user.id == repo.owner_id or (repo.owner_is_org and is_org_owner(user.id, repo.owner_id)):
        return "owner"
    granted = max(collaborator_access(user.id, repo), team_permission_on(user.id, repo), key=rank)
    if granted != "none":
        return granted
    viewer = Principal(user_id=user.id, username=user.name, is_admin=False, scopes=frozenset({"all"}))
    return "read" if permission(viewer, repo).can_read else "none"


def can_be_assigned(user: User, repo: Repo) -> bool:
    """Gitea's ``CanBeAssigned``: an active user (not an organization, not a built-in account) with write
    access to the code, issues or pull requests of the repository."""
    if user.is_org or user.id <= 0 or not user.active:
        return False
    as_principal = Principal(user.id, user.name, user.is_admin, ALL_SCOPES)
    if permission(as_principal, repo).can_write:
        return True
    return repo.owner_is_org and assignees_store.team_writes_issues_or_pulls(repo.owner_id, user.id, repo.id)


# -- credentials bound to one repository (Git and LFS requests) ----------------------------------


@dataclass(frozen=True)
class RepoBinding:
    """A credential of the current request that is valid for one repository only: a deploy token, or an LFS
    transfer token (which also keeps its user's own permission as an upper bound)."""

    repo_id: int
    writable: bool
    deploy_token: DeployToken | None = None


def bind_request(binding: RepoBinding) -> None:
    """Limit the current request's credential to ``binding`` (called while credentials are resolved)."""
    g.repo_binding = binding


def current_binding() -> RepoBinding | None:
    """The repository the current request's credential is bound to, if it is bound."""
    binding: RepoBinding | None = g.get("repo_binding")
    return binding


def current_deploy_token() -> DeployToken | None:
    """The deploy token the current Git or LFS request authenticated with (directly or through an LFS
    transfer token issued to it), if any."""
    binding = current_binding()
    return binding.deploy_token if binding is not None else None


def git_permission(principal: Principal | None, repo: Repo) -> Permission:
    """What the current Git or LFS caller may do with ``repo``. A bound credential gives nothing beyond what an
    anonymous caller has on other repositories; a deploy token reads (and unless read-only writes) its own;
    an LFS transfer token keeps its user's permission, without write for a download token."""
    binding = current_binding()
    if binding is None:
        return permission(principal, repo)
    if binding.repo_id != repo.id:
        return Permission(permission(None, repo).can_read, False, False)
    if binding.deploy_token is not None:
        return Permission(True, binding.writable, False)
    own = permission(principal, repo)
    return Permission(own.can_read, own.can_write and binding.writable, False)
