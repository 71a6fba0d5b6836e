"""Forks, fork sync (Gitea's merge-upstream and Forgejo's sync_fork), migrations and mirrors."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["ForksApi"]


class ForksApi(ApiArea):
    """``.../forks``, ``.../merge-upstream``, ``.../sync_fork``, ``/repos/migrate``, ``.../mirror-sync``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def fork(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../forks`` with a ``CreateForkOption`` (``organization``, ``name``)."""
        return self.http.post(f"{self._repo(owner, repo)}/forks", json=body)

    def list(self, owner: str, repo: str) -> requests.Response:
        """``GET .../forks``."""
        return self.http.get(f"{self._repo(owner, repo)}/forks")

    def merge_upstream(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../merge-upstream`` with a ``MergeUpstreamRequest`` (``branch``, ``ff_only``)."""
        return self.http.post(f"{self._repo(owner, repo)}/merge-upstream", json=body)

    def sync_info(self, owner: str, repo: str, branch: str | None = None) -> requests.Response:
        """Forgejo's ``GET .../sync_fork[/{branch}]``."""
        suffix = f"/{quote_path(branch)}" if branch else ""
        return self.http.get(f"{self._repo(owner, repo)}/sync_fork{suffix}")

    def sync(self, owner: str, repo: str, branch: str | None = None) -> requests.Response:
        """Forgejo's ``POST .../sync_fork[/{branch}]``."""
        suffix = f"/{quote_path(branch)}" if branch else ""
        return self.http.post(f"{self._repo(owner, repo)}/sync_fork{suffix}")

    def migrate(self, body: dict[str, Any]) -> requests.Response:
        """``POST /repos/migrate`` with ``MigrateRepoOptions``."""
        return self.http.post("repos/migrate", json=body)

    def mirror_sync(self, owner: str, repo: str) -> requests.Response:
        """``POST .../mirror-sync``."""
        return self.http.post(f"{self._repo(owner, repo)}/mirror-sync")
