"""Named error conditions of the statuses family, with Gitea's status codes and messages."""

from __future__ import annotations

from ..errors import BadRequest, NotFound

__all__ = ["InvalidStatusOption", "StatusCommitNotFound"]


class StatusCommitNotFound(NotFound):
    default_message = "object does not exist"


class InvalidStatusOption(BadRequest):
    default_message = "invalid commit status option"
