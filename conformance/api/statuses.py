"""Commit statuses over REST (Gitea 1.27): report one on a commit, list a commit's statuses by SHA or by
ref, read the combined status of a ref."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["StatusesApi"]


class StatusesApi(ApiArea):
    """``/repos/{owner}/{repo}/statuses/{sha}`` and ``/repos/{owner}/{repo}/commits/{ref}/status[es]``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def create(self, owner: str, repo: str, sha: str, option: dict[str, Any]) -> requests.Response:
        """``POST .../statuses/{sha}`` with a ``CreateStatusOption`` (201 ``CommitStatus``)."""
        return self.http.post(f"{self._repo(owner, repo)}/statuses/{quote_path(sha)}", json=option)

    def list_by_sha(self, owner: str, repo: str, sha: str, **query: str | int) -> requests.Response:
        """``GET .../statuses/{sha}`` (``sort``, ``state``, ``page``, ``limit``)."""
        return self.http.get(f"{self._repo(owner, repo)}/statuses/{quote_path(sha)}", params=query)

    def list_by_ref(self, owner: str, repo: str, ref: str, **query: str | int) -> requests.Response:
        """``GET .../commits/{ref}/statuses`` (a branch, tag or SHA; ``sort``, ``state``, paging)."""
        return self.http.get(f"{self._repo(owner, repo)}/commits/{quote_path(ref)}/statuses", params=query)

    def combined(self, owner: str, repo: str, ref: str) -> requests.Response:
        """``GET .../commits/{ref}/status`` (``CombinedStatus``)."""
        return self.http.get(f"{self._repo(owner, repo)}/commits/{quote_path(ref)}/status")
