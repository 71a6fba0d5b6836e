"""Tracked times over REST (Gitea 1.27): an issue's times, a repository's, a user's in a repository."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["TimesApi"]


class TimesApi(ApiArea):
    """``/repos/{owner}/{repo}/issues/{index}/times[/{id}]``, ``/repos/{owner}/{repo}/times[/{user}]`` and
    ``/user/times``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def add(self, owner: str, repo: str, index: int, body: dict[str, Any]) -> requests.Response:
        """``POST .../issues/{index}/times`` with ``AddTimeOption``: 200 ``TrackedTime``."""
        return self.http.post(f"{self._repo(owner, repo)}/issues/{index}/times", json=body)

    def issue_times(self, owner: str, repo: str, index: int, **query: str) -> requests.Response:
        """``GET .../issues/{index}/times``."""
        return self.http.get(f"{self._repo(owner, repo)}/issues/{index}/times", params=query or None)

    def reset(self, owner: str, repo: str, index: int) -> requests.Response:
        """``DELETE .../issues/{index}/times``: the caller's times on the issue."""
        return self.http.delete(f"{self._repo(owner, repo)}/issues/{index}/times")

    def delete(self, owner: str, repo: str, index: int, time_id: int) -> requests.Response:
        """``DELETE .../issues/{index}/times/{id}``."""
        return self.http.delete(f"{self._repo(owner, repo)}/issues/{index}/times/{time_id}")

    def repo_times(self, owner: str, repo: str, **query: str) -> requests.Response:
        """``GET .../times``: ``[TrackedTime]``, filtered by user, since and before."""
        return self.http.get(f"{self._repo(owner, repo)}/times", params=query or None)

    def user_times(self, owner: str, repo: str, user: str) -> requests.Response:
        """``GET .../times/{user}``."""
        return self.http.get(f"{self._repo(owner, repo)}/times/{quote_path(user)}")

    def my_times(self, **query: str) -> requests.Response:
        """``GET /user/times``: the caller's times in every repository."""
        return self.http.get("user/times", params=query or None)
