"""Named errors of the badges family."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = ["BadgeFileError", "BadgeNotDefined", "BadgeNotFound", "InvalidBadge"]


class BadgeNotDefined(Unprocessable):
    """A slug to assign names no badge. Gitea answers 500 here; the reference answers 422 (a client error)."""

    default_message = "badge does not exist"


class InvalidBadge(Unprocessable):
    default_message = "invalid badge"


class BadgeNotFound(NotFound):
    default_message = "badge does not exist"


class BadgeFileError(ValueError):
    """The ``--badges`` file cannot be read as a list of badge definitions."""
