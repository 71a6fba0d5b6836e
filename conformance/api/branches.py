"""Branches: list, get, create, delete, rename and move to another commit."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["BranchesApi"]


class BranchesApi(ApiArea):
    """``/repos/{owner}/{repo}/branches[/{branch}]``."""

    def _path(self, owner: str, repo: str, branch: str | None = None) -> str:
        base = f"repos/{quote_path(owner)}/{quote_path(repo)}/branches"
        return f"{base}/{quote_path(branch)}" if branch is not None else base

    def list(self, owner: str, repo: str, *, page: int | None = None, limit: int | None = None) -> requests.Response:
        """``GET .../branches``."""
        params = {key: str(value) for key, value in (("page", page), ("limit", limit)) if value is not None}
        return self.http.get(self._path(owner, repo), params=params)

    def get(self, owner: str, repo: str, branch: str) -> requests.Response:
        """``GET .../branches/{branch}``."""
        return self.http.get(self._path(owner, repo, branch))

    def create(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../branches`` with a ``CreateBranchRepoOption``."""
        return self.http.post(self._path(owner, repo), json=body)

    def delete(self, owner: str, repo: str, branch: str) -> requests.Response:
        """``DELETE .../branches/{branch}``."""
        return self.http.delete(self._path(owner, repo, branch))

    def rename(self, owner: str, repo: str, branch: str, new_name: str) -> requests.Response:
        """``PATCH .../branches/{branch}`` with ``{"name"}`` (Gitea's rename)."""
        return self.http.patch(self._path(owner, repo, branch), json={"name": new_name})

    def update(self, owner: str, repo: str, branch: str, body: dict[str, Any]) -> requests.Response:
        """``PUT .../branches/{branch}`` with an ``UpdateBranchRepoOption`` (``new_commit_id``...)."""
        return self.http.put(self._path(owner, repo, branch), json=body)
