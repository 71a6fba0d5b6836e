"""Named error conditions of the commits family, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import BadRequest, Conflict, NotFound, Unprocessable

__all__ = ["CommitNotFound", "EmptyRepository", "InvalidCommitQuery", "InvalidCompare"]


class CommitNotFound(NotFound):
    default_message = "object does not exist"


class EmptyRepository(Conflict):
    default_message = "Git Repository is empty."


class InvalidCommitQuery(Unprocessable):
    default_message = "invalid commit query"


class InvalidCompare(BadRequest):
    default_message = "invalid compare router"
