"""Named error conditions of the LFS family; LFS routes render them as ``{"message"}`` in the LFS media type."""

from __future__ import annotations

from typing import Any

from ..errors import ApiError, BadRequest, Conflict, Forbidden, NotFound, Unauthorized, Unprocessable

__all__ = [
    "LfsAccessDenied",
    "LfsBadRequest",
    "LfsError",
    "LfsLockConflict",
    "LfsLockNotFound",
    "LfsNotAcceptable",
    "LfsNotFound",
    "LfsNotLockOwner",
    "LfsScopeDenied",
    "LfsTooLarge",
    "LfsUnprocessable",
]


class LfsError(ApiError):
    """Marker base: any error raised under ``/info/lfs/`` is rendered in the LFS format."""


class LfsAccessDenied(Unauthorized, LfsError):
    """Missing or insufficient credentials: Gitea answers 401 with an ``LFS-Authenticate`` challenge."""

    default_message = "Unauthorized"


class LfsScopeDenied(Forbidden, LfsError):
    default_message = "token does not have the repository scope this operation needs"


class LfsNotFound(NotFound, LfsError):
    default_message = "Not Found"


class LfsLockNotFound(NotFound, LfsError):
    default_message = "unable to get lock"


class LfsBadRequest(BadRequest, LfsError):
    default_message = "Bad Request"


class LfsUnprocessable(Unprocessable, LfsError):
    default_message = "Unprocessable Entity"


class LfsTooLarge(LfsError):
    """An object above the server's limit (the batch answers 422 per object; an upload 413)."""

    status = 413
    default_message = "Request Entity Too Large"


class LfsNotAcceptable(LfsError):
    """The client does not accept ``application/vnd.git-lfs+json`` (Gitea: 415)."""

    status = 415
    default_message = "Unsupported Media Type"


class LfsLockConflict(Conflict, LfsError):
    """The path is locked already; the answer carries the existing lock."""

    default_message = "already created lock"

    def __init__(self, message: str | None = None, *, lock: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.lock = lock


class LfsNotLockOwner(Forbidden, LfsError):
    default_message = "user doesn't own lock and force flag is not set"
