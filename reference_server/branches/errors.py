"""Named error conditions of the branches family, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import Conflict, Forbidden, NotFound, Unprocessable

__all__ = [
    "BranchExists",
    "BranchMissing",
    "BranchMoved",
    "BranchRefused",
    "InvalidBranchName",
    "NotFastForward",
    "OldCommitMismatch",
    "RenameTargetExists",
    "SourceRefMissing",
]


class BranchMissing(NotFound):
    default_message = "Branch doesn't exist."


class SourceRefMissing(NotFound):
    default_message = "The old branch does not exist"


class BranchExists(Conflict):
    default_message = "The branch already exists."


class BranchMoved(Conflict):
    default_message = "the branch moved while it was being changed; retry"


class BranchRefused(Forbidden):
    default_message = "the branch cannot be changed"


class InvalidBranchName(Unprocessable):
    default_message = "invalid branch name"


class RenameTargetExists(Unprocessable):
    default_message = "Cannot rename a branch using the same name or rename to a branch that already exists."


class OldCommitMismatch(Unprocessable):
    default_message = "branch commit does not match"


class NotFastForward(Unprocessable):
    default_message = "the new commit is not a fast-forward of the branch; force is needed"
