"""User badges: the site administrator's ``/admin/users/{username}/badges`` and the reference's definition hook."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["BadgesApi"]

DEFINITIONS = "-/reference/badges"


class BadgesApi(ApiArea):
    """Badge operations; the client must be a site administrator's."""

    def _path(self, username: str) -> str:
        return f"admin/users/{quote_path(username)}/badges"

    def user_badges(self, username: str) -> requests.Response:
        """``GET /admin/users/{username}/badges``."""
        return self.http.get(self._path(username))

    def add_user_badges(self, username: str, slugs: Sequence[str]) -> requests.Response:
        """``POST /admin/users/{username}/badges`` with ``{"badge_slugs": [...]}``."""
        return self.http.post(self._path(username), json={"badge_slugs": list(slugs)})

    def remove_user_badges(self, username: str, slugs: Sequence[str]) -> requests.Response:
        """``DELETE /admin/users/{username}/badges`` with ``{"badge_slugs": [...]}``."""
        return self.http.delete(self._path(username), json={"badge_slugs": list(slugs)})

    def definitions(self) -> requests.Response:
        """Reference only: ``GET /-/reference/badges`` (404 on a forge without the hook)."""
        return self.http.get(DEFINITIONS)

    def define(self, slug: str, description: str, image_url: str) -> requests.Response:
        """Reference only: ``PUT /-/reference/badges/{slug}``."""
        body: dict[str, Any] = {"description": description, "image_url": image_url}
        return self.http.put(f"{DEFINITIONS}/{quote_path(slug)}", json=body)

    def forget(self, slug: str) -> requests.Response:
        """Reference only: ``DELETE /-/reference/badges/{slug}``."""
        return self.http.delete(f"{DEFINITIONS}/{quote_path(slug)}")
