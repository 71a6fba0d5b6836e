"""Typed errors of the three wire surfaces; each carries its wire code, one handler renders each format.

Families subclass these in their own ``errors.py`` (for example ``RepoNotFound(NotFound)``) so a
handler raises a named condition and never builds a response by hand.
"""

from __future__ import annotations

__all__ = [
    "ApiError",
    "BadRequest",
    "Conflict",
    "ConnectError",
    "Forbidden",
    "Locked",
    "NotFound",
    "NotImplementedApi",
    "PayloadTooLarge",
    "TwirpError",
    "Unauthorized",
    "Unprocessable",
]


class ApiError(Exception):
    """A REST error: rendered as Gitea's ``{"message", "url"}`` body with ``status``."""

    status = 500
    default_message = "internal error"

    def __init__(self, message: str | None = None, *, status: int | None = None) -> None:
        self.message = message or self.default_message
        if status is not None:
            self.status = status
        super().__init__(self.message)


class BadRequest(ApiError):
    status = 400
    default_message = "bad request"


class Unauthorized(ApiError):
    status = 401
    default_message = "token is required"


class BasicAuthRequired(Unauthorized):
    """Token management needs the account's password in basic auth (a token, even as the password, is not enough)."""

    default_message = "auth required"


class Forbidden(ApiError):
    status = 403
    default_message = "forbidden"


class NotFound(ApiError):
    status = 404
    default_message = "not found"


class Conflict(ApiError):
    status = 409
    default_message = "already exists"


class PayloadTooLarge(ApiError):
    status = 413
    default_message = "request body too large"


class Unprocessable(ApiError):
    status = 422
    default_message = "unprocessable entity"


class Locked(ApiError):
    status = 423
    default_message = "locked"


class NotImplementedApi(ApiError):
    status = 501
    default_message = "not implemented"


TWIRP_STATUS = {
    "canceled": 408,
    "invalid_argument": 400,
    "malformed": 400,
    "deadline_exceeded": 408,
    "not_found": 404,
    "bad_route": 404,
    "already_exists": 409,
    "permission_denied": 403,
    "unauthenticated": 401,
    "resource_exhausted": 429,
    "failed_precondition": 412,
    "aborted": 409,
    "out_of_range": 400,
    "unimplemented": 501,
    "internal": 500,
    "unavailable": 503,
    "data_loss": 500,
    "unknown": 500,
}


class TwirpError(Exception):
    """An artifact-protocol error: rendered as Twirp JSON ``{"code", "msg"}`` with the code's status."""

    def __init__(self, code: str, msg: str, *, status: int | None = None) -> None:
        if code not in TWIRP_STATUS:
            raise ValueError(f"unknown twirp code {code!r}")
        self.code = code
        self.msg = msg
        self._status = status
        super().__init__(f"{code}: {msg}")

    @property
    def status(self) -> int:
        """The code's status, unless the error names its own (413 for a body over a limit, never retried)."""
        return self._status or TWIRP_STATUS[self.code]


CONNECT_STATUS = {
    "canceled": 499,
    "unknown": 500,
    "invalid_argument": 400,
    "deadline_exceeded": 504,
    "not_found": 404,
    "already_exists": 409,
    "permission_denied": 403,
    "resource_exhausted": 429,
    "failed_precondition": 400,
    "aborted": 409,
    "out_of_range": 400,
    "unimplemented": 501,
    "internal": 500,
    "unavailable": 503,
    "data_loss": 500,
    "unauthenticated": 401,
}


class ConnectError(Exception):
    """A runner-protocol error: rendered as Connect's ``{"code", "message"}`` with the code's status."""

    def __init__(self, code: str, message: str, *, status: int | None = None) -> None:
        if code not in CONNECT_STATUS:
            raise ValueError(f"unknown connect code {code!r}")
        self.code = code
        self.message = message
        self._status = status
        super().__init__(f"{code}: {message}")

    @property
    def status(self) -> int:
        """The code's status, unless the error names its own (413 for a body over a limit, never retried)."""
        return self._status or CONNECT_STATUS[self.code]
