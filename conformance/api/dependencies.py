"""Issue dependencies and blocks over REST (Gitea 1.27): ``.../issues/{index}/dependencies`` and ``/blocks``,
whose POST and DELETE take an ``IssueMeta {owner, repo, index}`` naming the other issue."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["DependenciesApi", "issue_meta"]


def issue_meta(owner: str, repo: str, index: int) -> dict[str, Any]:
    """Gitea's ``IssueMeta`` body."""
    return {"owner": owner, "repo": repo, "index": index}


class DependenciesApi(ApiArea):
    """List, add and remove the issues one issue depends on, or blocks."""

    def _path(self, owner: str, repo: str, index: int, kind: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/issues/{index}/{kind}"

    def list_dependencies(self, owner: str, repo: str, index: int, **query: str | int) -> requests.Response:
        """``GET .../dependencies``: the issues blocking ``index`` (``page``, ``limit``)."""
        return self.http.get(self._path(owner, repo, index, "dependencies"), params=query)

    def add_dependency(self, owner: str, repo: str, index: int, body: dict[str, Any]) -> requests.Response:
        """``POST .../dependencies``: ``index`` comes to depend on the body's issue (201 ``Issue``)."""
        return self.http.post(self._path(owner, repo, index, "dependencies"), json=body)

    def remove_dependency(self, owner: str, repo: str, index: int, body: dict[str, Any]) -> requests.Response:
        """``DELETE .../dependencies`` with the body's issue."""
        return self.http.delete(self._path(owner, repo, index, "dependencies"), json=body)

    def list_blocks(self, owner: str, repo: str, index: int, **query: str | int) -> requests.Response:
        """``GET .../blocks``: the issues ``index`` blocks (``page``, ``limit``)."""
        return self.http.get(self._path(owner, repo, index, "blocks"), params=query)

    def add_block(self, owner: str, repo: str, index: int, body: dict[str, Any]) -> requests.Response:
        """``POST .../blocks``: the body's issue comes to be blocked by ``index`` (201 ``Issue``)."""
        return self.http.post(self._path(owner, repo, index, "blocks"), json=body)

    def remove_block(self, owner: str, repo: str, index: int, body: dict[str, Any]) -> requests.Response:
        """``DELETE .../blocks`` with the body's issue."""
        return self.http.delete(self._path(owner, repo, index, "blocks"), json=body)
