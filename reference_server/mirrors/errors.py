"""The push mirrors' refusals, with Gitea's messages."""

from __future__ import annotations

from ..errors import BadRequest, NotFound, Unauthorized

__all__ = ["MirrorAddressRefused", "MirrorBadRequest", "MirrorNotFound"]


class MirrorBadRequest(BadRequest):
    """A bad interval or address, or a sync that failed (Gitea: 400)."""


class MirrorAddressRefused(Unauthorized):
    """A local path or a disallowed host (Gitea's IsMigrateURLAllowed answers 401 ``Permission denied``)."""

    default_message = "Permission denied"


class MirrorNotFound(NotFound):
    """No push mirror of that remote name."""

    default_message = "The target couldn't be found."
