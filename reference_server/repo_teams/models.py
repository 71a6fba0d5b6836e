"""A repository's teams: which teams of its organization cover it, adding and removing one.

Gitea's rules (``routers/api/v1/repo/teams.go``, ``services/repository/team``): a user's repository has no
teams (405); teams are named, case-insensitively, within the owning organization; only site admins, the
organization's owners and, when the organization lets them (``repo_admin_change_team_access``), the
repository's admins change them; a team that includes every repository (Owners always) covers the
repository already, so adding it is 422 and removing it changes nothing (204); a team given the repository
makes its members watch it, and members who lose their access by a removal stop watching it.
"""

from __future__ import annotations

from ..auth import ALL_SCOPES, Principal
from ..context import forge
from ..orgs import store as orgs_store
from ..orgs.errors import TeamNotFound
from ..orgs.models import Team
from ..permissions import is_org_owner, permission
from ..repos.models import Repo
from ..stars import models as stars
from ..users.models import get_user
from .errors import CannotChangeTeamAccess, NotOrgRepository, TeamAlreadyAdded, TeamNotAdded

__all__ = ["add_team", "check_team", "list_teams", "remove_team"]


def _org_repo(repo: Repo) -> Repo:
    if not repo.owner_is_org:
        raise NotOrgRepository()
    return repo


def _team(repo: Repo, name: str) -> Team:
    row = orgs_store.team_by_name(repo.owner_id, name)
    if row is None:
        raise TeamNotFound(f"team does not exist [org_id {repo.owner_id}, team_id 0, name: {name}]")
    return Team.from_row(row)


def _covers(team: Team, repo: Repo) -> bool:
    return team.includes_all_repositories or orgs_store.has_team_repo(team.id, repo.id)


def _require_change_right(repo: Repo, principal: Principal) -> None:
    """Site admins, organization owners, or repository admins where the organization allows it."""
    if principal.is_admin or is_org_owner(principal.user_id, repo.owner_id):
        return
    if get_user(repo.owner_id).repo_admin_change_team_access and permission(principal, repo).is_admin:
        return
    raise CannotChangeTeamAccess()


def list_teams(repo: Repo) -> list[Team]:
    """The organization's teams covering the repository: Owners first, then by name."""
    _org_repo(repo)
    return [Team.from_row(row) for row in orgs_store.teams_of_repo(repo.owner_id, repo.id)]


def check_team(repo: Repo, name: str) -> Team:
    """The team when it covers the repository; 404 when it does not or does not exist."""
    team = _team(_org_repo(repo), name)
    if not _covers(team, repo):
        raise TeamNotFound("The target couldn't be found.")
    return team


def add_team(repo: Repo, name: str, principal: Principal) -> None:
    """Give a team the repository; its members watch it."""
    _require_change_right(_org_repo(repo), principal)
    team = _team(repo, name)
    if _covers(team, repo):
        raise TeamAlreadyAdded(f"team '{team.name}' is already added to repo")
    with forge().db.transaction():
        orgs_store.add_team_repo(team.id, repo.id)
        stars.watch_for_team(team.id, repo)


def _reads(user_id: int, repo: Repo) -> bool:
    user = get_user(user_id)
    return permission(Principal(user.id, user.name, user.is_admin, ALL_SCOPES), repo).can_read


def remove_team(repo: Repo, name: str, principal: Principal) -> None:
    """Take the repository from a team (a team including every repository keeps it, as Gitea ignores that);
    members left without access stop watching it."""
    _require_change_right(_org_repo(repo), principal)
    team = _team(repo, name)
    if not _covers(team, repo):
        raise TeamNotAdded(f"team '{team.name}' was not added to repo")
    if team.includes_all_repositories:
        return
    with forge().db.transaction():
        orgs_store.remove_team_repo(team.id, repo.id)
        for user_id in orgs_store.team_member_ids(team.id):
            if not _reads(user_id, repo):
                stars.unwatch_in_transaction(user_id, repo)
