"""Push mirrors of a repository over REST (Gitea 1.27): list, add, read and delete by remote name, sync."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["MirrorsApi"]


class MirrorsApi(ApiArea):
    """``/repos/{owner}/{repo}/push_mirrors[/{name}]`` and ``/repos/{owner}/{repo}/push_mirrors-sync``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def add(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../push_mirrors`` with ``CreatePushMirrorOption``: 200 ``PushMirror``."""
        return self.http.post(f"{self._repo(owner, repo)}/push_mirrors", json=body)

    def list(self, owner: str, repo: str) -> requests.Response:
        """``GET .../push_mirrors``: ``[PushMirror]``."""
        return self.http.get(f"{self._repo(owner, repo)}/push_mirrors")

    def get(self, owner: str, repo: str, name: str) -> requests.Response:
        """``GET .../push_mirrors/{name}``."""
        return self.http.get(f"{self._repo(owner, repo)}/push_mirrors/{quote_path(name)}")

    def delete(self, owner: str, repo: str, name: str) -> requests.Response:
        """``DELETE .../push_mirrors/{name}``: 204."""
        return self.http.delete(f"{self._repo(owner, repo)}/push_mirrors/{quote_path(name)}")

    def sync(self, owner: str, repo: str) -> requests.Response:
        """``POST .../push_mirrors-sync``: push to every mirror now (200)."""
        return self.http.post(f"{self._repo(owner, repo)}/push_mirrors-sync")
