"""The calling token's own route, ``/token`` (Gitea 1.27): introspect it, delete it."""

from __future__ import annotations

import requests

from .base import ApiArea

__all__ = ["TokenSelfApi"]


class TokenSelfApi(ApiArea):
    """Operations on the token the client authenticates with (it must be in the Authorization header)."""

    def current(self) -> requests.Response:
        """``GET /token``: the ``CurrentAccessToken`` of the presenting token."""
        return self.http.get("token")

    def delete_current(self) -> requests.Response:
        """``DELETE /token``: delete the presenting token (204)."""
        return self.http.delete("token")
