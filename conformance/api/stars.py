"""Stars and watches: starring a repository, watching it, and the lists on both sides."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["StarsApi"]


class StarsApi(ApiArea):
    """Gitea's star and watch operations (``api.area(StarsApi)``)."""

    @staticmethod
    def _repo(owner: str, repo: str) -> str:
        return f"{quote_path(owner)}/{quote_path(repo)}"

    def star(self, owner: str, repo: str) -> requests.Response:
        """``PUT /user/starred/{owner}/{repo}`` (204)."""
        return self.http.put(f"user/starred/{self._repo(owner, repo)}")

    def unstar(self, owner: str, repo: str) -> requests.Response:
        """``DELETE /user/starred/{owner}/{repo}`` (204)."""
        return self.http.delete(f"user/starred/{self._repo(owner, repo)}")

    def is_starring(self, owner: str, repo: str) -> requests.Response:
        """``GET /user/starred/{owner}/{repo}`` (204 when starred, else 404)."""
        return self.http.get(f"user/starred/{self._repo(owner, repo)}")

    def my_starred(self) -> requests.Response:
        """``GET /user/starred``."""
        return self.http.get("user/starred")

    def starred_of(self, username: str) -> requests.Response:
        """``GET /users/{username}/starred``."""
        return self.http.get(f"users/{quote_path(username)}/starred")

    def stargazers(self, owner: str, repo: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/stargazers``."""
        return self.http.get(f"repos/{self._repo(owner, repo)}/stargazers")

    def watch(self, owner: str, repo: str) -> requests.Response:
        """``PUT /repos/{owner}/{repo}/subscription`` (200 with a ``WatchInfo``)."""
        return self.http.put(f"repos/{self._repo(owner, repo)}/subscription")

    def unwatch(self, owner: str, repo: str) -> requests.Response:
        """``DELETE /repos/{owner}/{repo}/subscription`` (204)."""
        return self.http.delete(f"repos/{self._repo(owner, repo)}/subscription")

    def watching(self, owner: str, repo: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/subscription`` (the ``WatchInfo``, or 404 when not watching)."""
        return self.http.get(f"repos/{self._repo(owner, repo)}/subscription")

    def watchers(self, owner: str, repo: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/subscribers``."""
        return self.http.get(f"repos/{self._repo(owner, repo)}/subscribers")

    def my_subscriptions(self) -> requests.Response:
        """``GET /user/subscriptions``."""
        return self.http.get("user/subscriptions")

    def subscriptions_of(self, username: str) -> requests.Response:
        """``GET /users/{username}/subscriptions``."""
        return self.http.get(f"users/{quote_path(username)}/subscriptions")
