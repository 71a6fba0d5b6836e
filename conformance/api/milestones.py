"""Milestones over REST (Gitea 1.27): ``/repos/{owner}/{repo}/milestones``."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["MilestonesApi"]


class MilestonesApi(ApiArea):
    """List, create, read, edit and delete a repository's milestones (``key``: an id or a name)."""

    def _milestones(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/milestones"

    def list(self, owner: str, repo: str, **query: str | int) -> requests.Response:
        """``GET .../milestones`` (``state``, ``name``, ``page``, ``limit``)."""
        return self.http.get(self._milestones(owner, repo), params=query)

    def create(self, owner: str, repo: str, option: dict[str, Any]) -> requests.Response:
        """``POST .../milestones`` with a ``CreateMilestoneOption`` (201 ``Milestone``)."""
        return self.http.post(self._milestones(owner, repo), json=option)

    def get(self, owner: str, repo: str, key: str | int) -> requests.Response:
        """``GET .../milestones/{id}``: by id, or by name when no milestone has that id."""
        return self.http.get(f"{self._milestones(owner, repo)}/{quote_path(str(key))}")

    def edit(self, owner: str, repo: str, key: str | int, option: dict[str, Any]) -> requests.Response:
        """``PATCH .../milestones/{id}`` with an ``EditMilestoneOption`` (200)."""
        return self.http.patch(f"{self._milestones(owner, repo)}/{quote_path(str(key))}", json=option)

    def delete(self, owner: str, repo: str, key: str | int) -> requests.Response:
        """``DELETE .../milestones/{id}`` (204)."""
        return self.http.delete(f"{self._milestones(owner, repo)}/{quote_path(str(key))}")
