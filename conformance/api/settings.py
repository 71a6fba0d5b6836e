"""User settings (``/user/settings``) and topics (a repository's ``/topics`` and ``/topics/search``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["SettingsApi"]


class SettingsApi(ApiArea):
    """The caller's settings and the topics of repositories."""

    def user_settings(self) -> requests.Response:
        """``GET /user/settings``."""
        return self.http.get("user/settings")

    def update_user_settings(self, body: Any) -> requests.Response:
        """``PATCH /user/settings`` with a ``UserSettingsOptions`` body (sent as given)."""
        return self.http.patch("user/settings", json=body)

    def _topics(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/topics"

    def repo_topics(self, owner: str, repo: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/topics``."""
        return self.http.get(self._topics(owner, repo))

    def replace_topics(self, owner: str, repo: str, topics: Sequence[str]) -> requests.Response:
        """``PUT /repos/{owner}/{repo}/topics`` with ``{"topics": [...]}``."""
        return self.http.put(self._topics(owner, repo), json={"topics": list(topics)})

    def add_topic(self, owner: str, repo: str, topic: str) -> requests.Response:
        """``PUT /repos/{owner}/{repo}/topics/{topic}``."""
        return self.http.put(f"{self._topics(owner, repo)}/{quote_path(topic)}")

    def delete_topic(self, owner: str, repo: str, topic: str) -> requests.Response:
        """``DELETE /repos/{owner}/{repo}/topics/{topic}``."""
        return self.http.delete(f"{self._topics(owner, repo)}/{quote_path(topic)}")

    def search_topics(self, keyword: str, *, limit: int | None = None) -> requests.Response:
        """``GET /topics/search?q=``."""
        params: dict[str, Any] = {"q": keyword}
        if limit is not None:
            params["limit"] = limit
        return self.http.get("topics/search", params=params)
