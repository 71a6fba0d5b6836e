"""Organizations: create, get, delete."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["OrgsApi"]


class OrgsApi(ApiArea):
    """Gitea's organization operations."""

    def create(self, name: str, *, full_name: str | None = None, visibility: str | None = None) -> requests.Response:
        """``POST /orgs`` (the caller becomes its owner)."""
        body: dict[str, Any] = {"username": name}
        if full_name is not None:
            body["full_name"] = full_name
        if visibility is not None:
            body["visibility"] = visibility
        return self.http.post("orgs", json=body)

    def create_raw(self, body: Any) -> requests.Response:
        """``POST /orgs`` with a body exactly as given (for validation scenarios)."""
        return self.http.post("orgs", json=body)

    def get(self, name: str) -> requests.Response:
        """``GET /orgs/{org}``."""
        return self.http.get(f"orgs/{quote_path(name)}")

    def delete(self, name: str) -> requests.Response:
        """``DELETE /orgs/{org}``."""
        return self.http.delete(f"orgs/{quote_path(name)}")
