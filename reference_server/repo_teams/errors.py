"""Named errors of a repository's teams (Gitea's answers of ``routers/api/v1/repo/teams.go``)."""

from __future__ import annotations

from ..errors import ApiError, Forbidden, Unprocessable

__all__ = ["CannotChangeTeamAccess", "NotOrgRepository", "TeamAlreadyAdded", "TeamNotAdded"]


class NotOrgRepository(ApiError):
    """The repository belongs to a user: Gitea answers 405 on every team route of it."""

    status = 405
    default_message = "repo is not owned by an organization"


class CannotChangeTeamAccess(Forbidden):
    """A repository admin who is no organization owner, while the organization keeps team access to owners."""

    default_message = "Must have permission to manage team repository access"


class TeamAlreadyAdded(Unprocessable):
    """``PUT`` of a team that already covers the repository (the Owners team always does)."""


class TeamNotAdded(Unprocessable):
    """``DELETE`` of a team that does not cover the repository."""
