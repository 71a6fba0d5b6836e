"""Named error conditions of the organizations family."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = [
    "LastOwner",
    "NotOrgOwner",
    "NotTeamMember",
    "OrgHasRepositories",
    "OrgNotFound",
    "OwnerTeamProtected",
    "RepoAdminRequired",
    "TeamAlreadyExists",
    "TeamNotFound",
]


class OrgNotFound(NotFound):
    default_message = "organization does not exist"


class NotOrgOwner(Forbidden):
    default_message = "Must be an organization owner"


class OrgHasRepositories(Unprocessable):
    default_message = "organization still has ownership of repositories"


class TeamNotFound(NotFound):
    default_message = "team does not exist"


class TeamAlreadyExists(Unprocessable):
    default_message = "team already exists"


class NotTeamMember(Forbidden):
    default_message = "Must be a team member"


class LastOwner(Unprocessable):
    default_message = "user is the last member of owner team"


class OwnerTeamProtected(Unprocessable):
    default_message = "the Owners team cannot be deleted or renamed"


class RepoAdminRequired(Forbidden):
    default_message = "Must have admin-level access to the repository"
