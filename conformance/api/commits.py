"""Commits and comparisons: the commit list, one commit, and the comparison of two refs."""

from __future__ import annotations

from collections.abc import Mapping

import requests

from .base import ApiArea, quote_path

__all__ = ["CommitsApi"]


class CommitsApi(ApiArea):
    """``/repos/{owner}/{repo}/commits``, ``.../git/commits/{sha}`` and ``.../compare/{basehead}``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def list(self, owner: str, repo: str, params: Mapping[str, str] | None = None) -> requests.Response:
        """``GET .../commits`` with query parameters as given (``sha``, ``path``, ``since``, ``page``...)."""
        return self.http.get(f"{self._repo(owner, repo)}/commits", params=dict(params or {}))

    def get(self, owner: str, repo: str, sha: str) -> requests.Response:
        """``GET .../git/commits/{sha}``."""
        return self.http.get(f"{self._repo(owner, repo)}/git/commits/{quote_path(sha)}")

    def compare(self, owner: str, repo: str, basehead: str, *, output: str | None = None) -> requests.Response:
        """``GET .../compare/{basehead}`` (``output`` ``diff`` or ``patch`` for the raw text)."""
        params = {"output": output} if output else {}
        return self.http.get(f"{self._repo(owner, repo)}/compare/{quote_path(basehead)}", params=params)
