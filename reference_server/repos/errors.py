"""Named error conditions of the repositories family, with Gitea's status codes."""

from __future__ import annotations

from ..errors import Conflict, Forbidden, NotFound, Unprocessable

__all__ = [
    "BranchAlreadyExists",
    "BranchNotFound",
    "ConcurrentChange",
    "ContentNotFound",
    "FileAlreadyExists",
    "InvalidPath",
    "RepoAlreadyExists",
    "RepoNotFound",
    "RepoPermissionDenied",
    "ShaMismatch",
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
