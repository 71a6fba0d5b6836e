"""Named errors of follows, blocks and OAuth2 applications, with Gitea's statuses and messages."""

from __future__ import annotations

from ..errors import BadRequest, NotFound

__all__ = ["CannotBlock", "CannotUnblock", "InvalidOAuth2Application", "OAuth2AppNotFound", "RelationNotFound"]


class RelationNotFound(NotFound):
    """A follow or block asked about that does not exist (Gitea's bare 404)."""

    default_message = "The target couldn't be found."


class CannotBlock(BadRequest):
    """Gitea's ``ErrCanNotBlock`` / ``ErrBlockOrganization``, answered 400."""

    default_message = "cannot block the user"


class CannotUnblock(BadRequest):
    """Gitea's ``ErrCanNotUnblock``, answered 400."""

    default_message = "cannot unblock the user"


class OAuth2AppNotFound(NotFound):
    default_message = "OAuth2 application does not exist"


class InvalidOAuth2Application(BadRequest):
    """Gitea answers a refused redirect URI 400 ``error creating oauth2 application``."""

    default_message = "error creating oauth2 application"
