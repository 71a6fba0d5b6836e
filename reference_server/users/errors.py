"""Named error conditions of the users family, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import BadRequest, NotFound, Unprocessable

__all__ = [
    "AccessTokenNotFound",
    "InvalidScope",
    "NameReserved",
    "TokenNameTaken",
    "UserAlreadyExists",
    "UserHasRepositories",
    "UserNotFound",
]


class UserNotFound(NotFound):
    default_message = "user does not exist"


class UserAlreadyExists(Unprocessable):
    default_message = "user already exists"


class NameReserved(Unprocessable):
    default_message = "name is reserved"


class UserHasRepositories(Unprocessable):
    default_message = "user still has ownership of repositories"


class InvalidScope(BadRequest):
    default_message = "invalid access token scope provided"


class TokenNameTaken(BadRequest):
    default_message = "access token name has been used already"


class AccessTokenNotFound(NotFound):
    default_message = "access token does not exist"
