"""Named errors of repository transfers (Gitea's answers of ``repo.Transfer`` and its accept/reject)."""

from __future__ import annotations

from ..errors import Conflict, Forbidden, NotFound, Unprocessable

__all__ = [
    "NewOwnerNotFound",
    "NoPendingTransfer",
    "NotTransferRecipient",
    "RepoExistsAtNewOwner",
    "TeamOfAnotherOrg",
    "TeamsNeedAnOrganization",
    "TransferInProgress",
    "UnknownTeam",
]


class NewOwnerNotFound(NotFound):
    default_message = "The new owner does not exist or cannot be found"


class TeamsNeedAnOrganization(Unprocessable):
    default_message = "Teams can only be added to organization-owned repositories"


class UnknownTeam(Unprocessable):
    """``team N not found``."""


class TeamOfAnotherOrg(Forbidden):
    """``team N belongs not to org M``."""


class TransferInProgress(Conflict):
    default_message = "repository is already being transferred"


class RepoExistsAtNewOwner(Unprocessable):
    """The new owner has a repository of that name (the repository itself when it is already theirs)."""


class NoPendingTransfer(NotFound):
    default_message = "The target couldn't be found."


class NotTransferRecipient(Forbidden):
    default_message = "user does not have permissions to do this"
