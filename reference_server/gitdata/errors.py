"""Named error conditions of the Git data API, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import BadRequest, Forbidden, NotFound, Unprocessable

__all__ = [
    "ArchivePathNotFound",
    "ArchiveRefNotFound",
    "BadObject",
    "GitDataNotFound",
    "GitHooksDisabled",
    "InvalidArchivePath",
    "InvalidRefOrSha",
    "NoSigningKey",
    "UnknownArchiveFormat",
]


class BadObject(BadRequest):
    """Gitea answers an unknown tree or blob with 400, not 404 (its handlers map every lookup error to 400)."""

    default_message = "sha not provided"


class GitDataNotFound(NotFound):
    default_message = "Not Found"


class UnknownArchiveFormat(BadRequest):
    default_message = "unknown format"


class ArchiveRefNotFound(NotFound):
    default_message = "unrecognized repository reference"


class InvalidRefOrSha(Unprocessable):
    default_message = "no valid ref or sha"


class GitHooksDisabled(Forbidden):
    """Gitea's default ``DISABLE_GIT_HOOKS = true``: nobody may edit server-side Git hooks."""

    default_message = "must be allowed to edit Git hooks"


class NoSigningKey(NotFound):
    """The reference signs no commits, so it has no signing key to publish (Gitea's answer without one)."""

    default_message = "no signing key"


class InvalidArchivePath(BadRequest):
    default_message = "invalid path"


class ArchivePathNotFound(NotFound):
    default_message = "path does not exist"
