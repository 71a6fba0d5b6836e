"""Named error conditions of the organizations family."""

from __future__ import annotations

from ..errors import Forbidden, NotFound, Unprocessable

__all__ = ["NotOrgOwner", "OrgHasRepositories", "OrgNotFound"]


class OrgNotFound(NotFound):
    default_message = "organization does not exist"


class NotOrgOwner(Forbidden):
    default_message = "Must be an organization owner"


class OrgHasRepositories(Unprocessable):
    default_message = "organization still has ownership of repositories"
