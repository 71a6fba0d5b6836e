"""Named error conditions of the Git data API, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import BadRequest, NotFound

__all__ = ["ArchiveRefNotFound", "BadObject", "GitDataNotFound", "UnknownArchiveFormat"]


class BadObject(BadRequest):
    """Gitea answers an unknown tree or blob with 400, not 404 (its handlers map every lookup error to 400)."""

    default_message = "sha not provided"


class GitDataNotFound(NotFound):
    default_message = "Not Found"


class UnknownArchiveFormat(BadRequest):
    default_message = "unknown format"


class ArchiveRefNotFound(NotFound):
    default_message = "unrecognized repository reference"
