"""Named error conditions of the repositories family, with Gitea's status codes."""

from __future__ import annotations

from ..errors import BadRequest, Conflict, Forbidden, Locked, NotFound, Unprocessable

__all__ = [
    "BranchAlreadyExists",
    "BranchNotFound",
    "ConcurrentChange",
    "ContentNotFound",
    "FileAlreadyExists",
    "FilePathConflict",
    "InvalidBodyParameter",
    "InvalidPath",
    "PatchDoesNotApply",
    "RepoAlreadyExists",
    "RepoArchived",
    "RepoNotFound",
    "RepoPermissionDenied",
    "ShaMismatch",
    "ShaRequired",
    "UnknownInclude",
]


class RepoNotFound(NotFound):
    default_message = "repository does not exist"


class RepoAlreadyExists(Conflict):
    default_message = "The repository with the same name already exists."


class RepoPermissionDenied(Forbidden):
    default_message = "user should have a permission to write to a repo"


class BranchNotFound(NotFound):
    default_message = "branch does not exist"


class ContentNotFound(NotFound):
    default_message = "file does not exist"


class BranchAlreadyExists(Unprocessable):
    default_message = "branch already exists"


class FileAlreadyExists(Unprocessable):
    default_message = "repository file already exists"


class ShaMismatch(Unprocessable):
    default_message = "sha does not match"


class InvalidPath(Unprocessable):
    default_message = "path is not valid"


class ConcurrentChange(Conflict):
    default_message = "the branch moved while the change was committed; retry"


class ShaRequired(Unprocessable):
    default_message = "a SHA or commit ID must be proved when updating a file"


class FilePathConflict(Unprocessable):
    """A file stands where a directory is needed, or a directory where a file is written."""

    default_message = "path is invalid"


class PatchDoesNotApply(Unprocessable):
    default_message = "the patch does not apply"


class RepoArchived(Locked):
    default_message = "repo is archived"


class UnknownInclude(BadRequest):
    default_message = "unknown include option"


class InvalidBodyParameter(BadRequest):
    default_message = "invalid body parameter"
