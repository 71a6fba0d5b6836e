"""The teams of an organization's repository, from the repository's side."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["RepoTeamsApi"]


class RepoTeamsApi(ApiArea):
    """``/repos/{owner}/{repo}/teams[/{team}]`` (``api.area(RepoTeamsApi)``)."""

    @staticmethod
    def _base(owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/teams"

    def list(self, owner: str, repo: str) -> requests.Response:
        """``GET .../teams``."""
        return self.http.get(self._base(owner, repo))

    def check(self, owner: str, repo: str, team: str) -> requests.Response:
        """``GET .../teams/{team}`` (the ``Team``, or 404 when it does not cover the repository)."""
        return self.http.get(f"{self._base(owner, repo)}/{quote_path(team)}")

    def add(self, owner: str, repo: str, team: str) -> requests.Response:
        """``PUT .../teams/{team}`` (204)."""
        return self.http.put(f"{self._base(owner, repo)}/{quote_path(team)}")

    def remove(self, owner: str, repo: str, team: str) -> requests.Response:
        """``DELETE .../teams/{team}`` (204)."""
        return self.http.delete(f"{self._base(owner, repo)}/{quote_path(team)}")
