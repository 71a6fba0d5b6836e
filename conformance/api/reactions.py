"""Reactions over REST (Gitea 1.27): ``.../issues/{index}/reactions`` and ``.../issues/comments/{id}/reactions``."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["ReactionsApi"]


class ReactionsApi(ApiArea):
    """List, add and remove reactions of an issue (``index``) or of a comment (``comment_id``)."""

    def _path(self, owner: str, repo: str, *, index: int | None, comment_id: int | None) -> str:
        base = f"repos/{quote_path(owner)}/{quote_path(repo)}/issues"
        return f"{base}/comments/{comment_id}/reactions" if comment_id is not None else f"{base}/{index}/reactions"

    def list(
        self, owner: str, repo: str, *, index: int | None = None, comment_id: int | None = None, **query: int
    ) -> requests.Response:
        """``GET`` the reactions (an issue's are paged: ``page``, ``limit``)."""
        return self.http.get(self._path(owner, repo, index=index, comment_id=comment_id), params=query)

    def add(
        self, owner: str, repo: str, content: str, *, index: int | None = None, comment_id: int | None = None
    ) -> requests.Response:
        """``POST`` an ``EditReactionOption`` (201 new, 200 already there)."""
        return self.http.post(self._path(owner, repo, index=index, comment_id=comment_id), json={"content": content})

    def remove(
        self, owner: str, repo: str, content: str, *, index: int | None = None, comment_id: int | None = None
    ) -> requests.Response:
        """``DELETE`` with an ``EditReactionOption`` body."""
        return self.http.delete(self._path(owner, repo, index=index, comment_id=comment_id), json={"content": content})
