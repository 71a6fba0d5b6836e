"""The wiki's refusals, with Gitea's messages."""

from __future__ import annotations

from ..errors import BadRequest, NotFound

__all__ = ["WikiBadRequest", "WikiNotFound"]


class WikiNotFound(NotFound):
    """No wiki yet, or no such page (Gitea answers its empty not-found body)."""

    default_message = "The target couldn't be found."


class WikiBadRequest(BadRequest):
    """An empty title, a reserved name, a page that exists already, content that is not base64."""
