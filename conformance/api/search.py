"""Repository search: ``GET /repos/search`` with Gitea's query parameters."""

from __future__ import annotations

from collections.abc import Mapping

import requests

from .base import ApiArea

__all__ = ["SearchApi"]


class SearchApi(ApiArea):
    """Gitea's repository search (``api.area(SearchApi)``)."""

    def search_repos(self, params: Mapping[str, str | int]) -> requests.Response:
        """``GET /repos/search`` with the query ``params`` (``q``, ``uid``, ``mode``, ``sort``, ...)."""
        return self.http.get("repos/search", params=dict(params))
