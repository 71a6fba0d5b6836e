"""Avatars: upload (base64) and delete for the caller, a repository and an organization; fetch a picture."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["AvatarsApi"]


class AvatarsApi(ApiArea):
    """``/user/avatar``, ``/repos/{owner}/{repo}/avatar``, ``/orgs/{org}/avatar``."""

    @staticmethod
    def _path(target: tuple[str, ...]) -> str:
        """``()`` is the caller, ``(org,)`` an organization, ``(owner, repo)`` a repository."""
        if not target:
            return "user/avatar"
        if len(target) == 1:
            return f"orgs/{quote_path(target[0])}/avatar"
        return f"repos/{quote_path(target[0])}/{quote_path(target[1])}/avatar"

    def upload(self, target: tuple[str, ...], body: Any) -> requests.Response:
        """``POST .../avatar`` with the body as given (``{"image": base64}``): 204."""
        return self.http.post(self._path(target), json=body)

    def delete(self, target: tuple[str, ...]) -> requests.Response:
        """``DELETE .../avatar``: 204, back to the default avatar."""
        return self.http.delete(self._path(target))

    def fetch(self, url: str) -> requests.Response:
        """``GET`` an ``avatar_url`` (outside the API root; no credentials needed)."""
        return self.http.with_auth(None).get(url, allow_redirects=True)
