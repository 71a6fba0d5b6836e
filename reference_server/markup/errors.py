"""Named error conditions of markup rendering; Gitea answers them as plain text, not its JSON error body."""

from __future__ import annotations

from ..errors import Unprocessable

__all__ = ["MarkupRefused", "UnknownMode", "UnsupportedFile"]


class MarkupRefused(Unprocessable):
    """A refusal rendered as ``text/plain`` (Gitea's ``ctx.HTTPError`` on the markup routes)."""

    default_message = "cannot render"


class UnknownMode(MarkupRefused):
    default_message = "Unknown mode"


class UnsupportedFile(MarkupRefused):
    default_message = "unsupported file to render"
