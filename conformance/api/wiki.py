"""A repository's wiki over REST (Gitea 1.27): pages, the page list, a page's revisions."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["WikiApi"]


class WikiApi(ApiArea):
    """``/repos/{owner}/{repo}/wiki/...``; page names go as their web path (``sub_url``), quoted."""

    def _wiki(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/wiki"

    def create(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../wiki/new`` with ``CreateWikiPageOptions``: 201 ``WikiPage``."""
        return self.http.post(f"{self._wiki(owner, repo)}/new", json=body)

    def get(self, owner: str, repo: str, page: str) -> requests.Response:
        """``GET .../wiki/page/{pageName}``: ``WikiPage``."""
        return self.http.get(f"{self._wiki(owner, repo)}/page/{quote_path(page)}")

    def edit(self, owner: str, repo: str, page: str, body: dict[str, Any]) -> requests.Response:
        """``PATCH .../wiki/page/{pageName}`` with ``CreateWikiPageOptions``: ``WikiPage``."""
        return self.http.patch(f"{self._wiki(owner, repo)}/page/{quote_path(page)}", json=body)

    def delete(self, owner: str, repo: str, page: str) -> requests.Response:
        """``DELETE .../wiki/page/{pageName}``: 204."""
        return self.http.delete(f"{self._wiki(owner, repo)}/page/{quote_path(page)}")

    def pages(self, owner: str, repo: str, **params: int) -> requests.Response:
        """``GET .../wiki/pages``: ``[WikiPageMetaData]``."""
        return self.http.get(f"{self._wiki(owner, repo)}/pages", params=params or None)

    def revisions(self, owner: str, repo: str, page: str) -> requests.Response:
        """``GET .../wiki/revisions/{pageName}``: ``WikiCommitList``."""
        return self.http.get(f"{self._wiki(owner, repo)}/revisions/{quote_path(page)}")
