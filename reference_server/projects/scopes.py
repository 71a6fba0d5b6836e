"""Whose boards a route reaches and what the caller may do there: one ``Scope`` for the three owners.

Token scopes follow Gitea's development line: ``issue`` for repository boards and for ``/user/projects``,
``organization`` for ``/orgs/{org}/projects``; ``/users/{username}/projects`` (only listed by Gitea, the
full set being the reference's choice) is in the ``user`` category like every ``/users/{username}`` route.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..auth import Principal, current_principal, optional_principal
from ..errors import NotFound
from ..orgs import store as orgs_store
from ..permissions import current_org, current_repo, current_user, is_org_owner, permission
from ..repos import models as repos
from ..repos.errors import RepoArchived
from ..users import models as users
from .errors import ProjectPermissionDenied

__all__ = ["Kind", "Scope", "org_scope", "repo_scope", "self_scope", "user_scope"]

Kind = Literal["individual", "repository", "organization"]
KIND_NUMBERS: dict[str, int] = {"individual": 1, "repository": 2, "organization": 3}
WRITE_ACCESS = frozenset({"write", "admin", "owner"})


@dataclass(frozen=True)
class Scope:
    """The owner of the boards a route addresses: a repository, or an account (user or organization)."""

    kind: Kind
    owner: users.User
    repo: repos.Repo | None
    can_write: bool

    @property
    def owner_id(self) -> int:
        """Boards of a repository have no owner id of their own (as Gitea stores them)."""
        return 0 if self.repo is not None else self.owner.id

    @property
    def repo_id(self) -> int:
        return self.repo.id if self.repo is not None else 0

    def require_write(self) -> Principal:
        """The caller, if it may change this scope's boards: 403 otherwise, except on an organization's
        boards, which answer 404 to a non-writer as Gitea's ``reqProjectsUnitAccess`` does; 423 on an
        archived repository."""
        principal = current_principal()
        if not self.can_write and self.kind == "organization":
            raise NotFound("not found")
        if not self.can_write:
            raise ProjectPermissionDenied()
        if self.repo is not None and self.repo.archived:
            raise RepoArchived("repo is archived")
        return principal


def repo_scope(owner: str, name: str) -> Scope:
    """A repository's boards: its readers read (404 for others), its writers change them."""
    repo = current_repo()
    account = users.get_user(repo.owner_id)
    can_write = permission(optional_principal(), repo).can_write
    return Scope("repository", account, repo, can_write)


def _org_writer(principal: Principal | None, org: users.User) -> bool:
    """Owners, and members of a team with write access (or write on the projects unit), change boards."""
    if principal is None:
        return False
    if principal.is_admin or is_org_owner(principal.user_id, org.id):
        return True
    rows, _ = orgs_store.teams_page_of_user(principal.user_id, 1_000_000, 0)
    for row in rows:
        if row["org_id"] != org.id:
            continue
        if row["access"] in WRITE_ACCESS:
            return True
        units = {unit["unit"]: unit["access"] for unit in orgs_store.units_of(row["id"])}
        if units.get("repo.projects") in WRITE_ACCESS:
            return True
    return False


def _account_scope(account: users.User, viewer: Principal | None) -> Scope:
    if account.is_org:
        return Scope("organization", account, None, _org_writer(viewer, account))
    own = viewer is not None and (viewer.is_admin or viewer.user_id == account.id)
    return Scope("individual", account, None, own)


def org_scope(name: str) -> Scope:
    """An organization's boards: whoever sees the organization reads them (404 otherwise)."""
    return _account_scope(current_org(), optional_principal())


def user_scope(name: str) -> Scope:
    """``/users/{username}/projects``: a user's own boards (an organization's, given an organization's
    name, as Gitea lists them); whoever sees the account reads, the user (or a site admin) changes."""
    return _account_scope(current_user(), optional_principal())


def self_scope() -> Scope:
    """``/user/projects``: the caller's own boards (401 for an anonymous client)."""
    principal = current_principal()
    return Scope("individual", users.get_user(principal.user_id), None, True)


def can_read_repo(principal: Principal | None, repo: repos.Repo) -> bool:
    """Whether the caller reads the repository (so may see its issues on a board)."""
    return permission(principal, repo).can_read
