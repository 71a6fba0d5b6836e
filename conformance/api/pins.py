"""Issue pins over REST (Gitea 1.27): pin, unpin, move, the pinned lists and ``new_pin_allowed``."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["PinsApi"]


class PinsApi(ApiArea):
    """``/repos/{owner}/{repo}/issues/{index}/pin[/{position}]``, ``.../issues/pinned``, ``.../pulls/pinned``
    and ``.../new_pin_allowed``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def pin(self, owner: str, repo: str, index: int) -> requests.Response:
        """``POST .../issues/{index}/pin`` (204)."""
        return self.http.post(f"{self._repo(owner, repo)}/issues/{index}/pin")

    def unpin(self, owner: str, repo: str, index: int) -> requests.Response:
        """``DELETE .../issues/{index}/pin`` (204)."""
        return self.http.delete(f"{self._repo(owner, repo)}/issues/{index}/pin")

    def move(self, owner: str, repo: str, index: int, position: int | str) -> requests.Response:
        """``PATCH .../issues/{index}/pin/{position}`` (204)."""
        return self.http.patch(f"{self._repo(owner, repo)}/issues/{index}/pin/{position}")

    def pinned_issues(self, owner: str, repo: str) -> requests.Response:
        """``GET .../issues/pinned``: ``[]Issue`` by position."""
        return self.http.get(f"{self._repo(owner, repo)}/issues/pinned")

    def pinned_pulls(self, owner: str, repo: str) -> requests.Response:
        """``GET .../pulls/pinned``: ``[]PullRequest`` by position."""
        return self.http.get(f"{self._repo(owner, repo)}/pulls/pinned")

    def new_pin_allowed(self, owner: str, repo: str) -> requests.Response:
        """``GET .../new_pin_allowed``: ``NewIssuePinsAllowed {issues, pull_requests}``."""
        return self.http.get(f"{self._repo(owner, repo)}/new_pin_allowed")
