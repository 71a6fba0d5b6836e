"""Named error conditions of the forks family, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import BadRequest, Conflict, Forbidden, NotFound, Unprocessable

__all__ = [
    "ForkExists",
    "InvalidCloneAddress",
    "MergeConflict",
    "MigrationFailed",
    "NotAFork",
    "NotAMirror",
    "OwnerNotAllowed",
    "SyncNotPossible",
    "UpstreamBranchMissing",
]


class ForkExists(Conflict):
    default_message = "The repository with the same name already exists."


class NotAFork(BadRequest):
    default_message = "repository is not a fork"


class NotAMirror(BadRequest):
    default_message = "Repository is not a mirror"


class SyncNotPossible(BadRequest):
    default_message = "the fork cannot be synced with its base"


class MergeConflict(Conflict):
    default_message = "merge failed because of conflict"


class UpstreamBranchMissing(NotFound):
    default_message = "branch does not exist"


class InvalidCloneAddress(Unprocessable):
    default_message = "Invalid clone address"


class MigrationFailed(Unprocessable):
    default_message = "Migration failed"


class OwnerNotAllowed(Forbidden):
    default_message = "Given user is not allowed to create repository in organization."
