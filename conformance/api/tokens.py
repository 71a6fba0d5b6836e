"""Access tokens: ``/users/{username}/tokens`` (basic auth) and the token's own ``/token``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["TokensApi"]


class TokensApi(ApiArea):
    """Token operations; the client must carry basic auth for the ``/users/{u}/tokens`` routes."""

    def create(self, username: str, name: str, scopes: Sequence[str] | None) -> requests.Response:
        """``POST /users/{username}/tokens``; ``scopes=None`` leaves the field out."""
        body: dict[str, Any] = {"name": name}
        if scopes is not None:
            body["scopes"] = list(scopes)
        return self.http.post(f"users/{quote_path(username)}/tokens", json=body)

    def list(self, username: str) -> requests.Response:
        """``GET /users/{username}/tokens``."""
        return self.http.get(f"users/{quote_path(username)}/tokens")

    def delete(self, username: str, token_id_or_name: str | int) -> requests.Response:
        """``DELETE /users/{username}/tokens/{token}`` (id or name)."""
        return self.http.delete(f"users/{quote_path(username)}/tokens/{quote_path(str(token_id_or_name))}")
