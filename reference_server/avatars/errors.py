"""Named error conditions of the avatars family."""

from __future__ import annotations

from ..errors import NotFound, Unprocessable

__all__ = ["AvatarNotFound", "NotAnImage"]


class NotAnImage(Unprocessable):
    """Valid base64 that is no accepted picture (Gitea answers 500; the reference refuses it as a client error)."""

    default_message = "not a valid image"


class AvatarNotFound(NotFound):
    default_message = "avatar not found"
