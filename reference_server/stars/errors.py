"""Named errors of stars and watches."""

from __future__ import annotations

from ..errors import NotFound

__all__ = ["NotStarring", "NotWatching"]


class NotStarring(NotFound):
    """``GET /user/starred/{owner}/{repo}`` of a repository the caller has not starred (Gitea's bare 404)."""

    default_message = "The target couldn't be found."


class NotWatching(NotFound):
    """``GET /repos/{owner}/{repo}/subscription`` of a repository the caller does not watch."""

    default_message = "The target couldn't be found."
