"""A repository's wiki over REST (Gitea 1.27): pages, the page list, a page's revisions."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import requests

from .base import ApiArea, quote_path

GO_PATH_SAFE = "+$&,;=:@!'()*"
"""What Go's ``url.PathEscape`` leaves as it is in a segment besides letters, digits and ``-._~`` (how
Gitea's own clients put a page's ``sub_url`` into a path: its ``+`` stays a ``+``)."""


def page_segment(name: str) -> str:
    """A page name (its web path) as one path segment."""
    return quote(name, safe=GO_PATH_SAFE)


__all__ = ["WikiApi"]


class WikiApi(ApiArea):
    """``/repos/{owner}/{repo}/wiki/...``; page names go as their web path (``sub_url``), path-escaped as Go does."""

    def _wiki(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/wiki"

    def create(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../wiki/new`` with ``CreateWikiPageOptions``: 201 ``WikiPage``."""
        return self.http.post(f"{self._wiki(owner, repo)}/new", json=body)

    def get(self, owner: str, repo: str, page: str) -> requests.Response:
        """``GET .../wiki/page/{pageName}``: ``WikiPage``."""
        return self.http.get(f"{self._wiki(owner, repo)}/page/{page_segment(page)}")

    def edit(self, owner: str, repo: str, page: str, body: dict[str, Any]) -> requests.Response:
        """``PATCH .../wiki/page/{pageName}`` with ``CreateWikiPageOptions``: ``WikiPage``."""
        return self.http.patch(f"{self._wiki(owner, repo)}/page/{page_segment(page)}", json=body)

    def delete(self, owner: str, repo: str, page: str) -> requests.Response:
        """``DELETE .../wiki/page/{pageName}``: 204."""
        return self.http.delete(f"{self._wiki(owner, repo)}/page/{page_segment(page)}")

    def pages(self, owner: str, repo: str, **params: int) -> requests.Response:
        """``GET .../wiki/pages``: ``[WikiPageMetaData]``."""
        return self.http.get(f"{self._wiki(owner, repo)}/pages", params=params or None)

    def revisions(self, owner: str, repo: str, page: str) -> requests.Response:
        """``GET .../wiki/revisions/{pageName}``: ``WikiCommitList``."""
        return self.http.get(f"{self._wiki(owner, repo)}/revisions/{page_segment(page)}")
