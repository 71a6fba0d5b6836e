"""Notification threads, issue subscriptions, stopwatches and the issue search over REST (Gitea 1.27)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import requests

from .base import ApiArea, quote_path

__all__ = ["NotificationsApi"]

Query = list[tuple[str, str]]
"""Query parameters in order, a name possibly repeated (``status-types=read&status-types=pinned``)."""


class NotificationsApi(ApiArea):
    """``/notifications[...]``, ``/repos/{owner}/{repo}/notifications``, ``.../issues/{index}/subscriptions``,
    ``.../issues/{index}/stopwatch/*``, ``/user/stopwatches`` and ``/repos/issues/search``."""

    @staticmethod
    def _repo(owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    @staticmethod
    def _with(path: str, query: Query | None) -> str:
        """The path with its query in the URL: a name may repeat, which a parameter mapping cannot say."""
        return f"{path}?{urlencode(query)}" if query else path

    def _issue(self, owner: str, repo: str, index: int) -> str:
        return f"{self._repo(owner, repo)}/issues/{index}"

    # -- notification threads

    def threads(self, query: Query | None = None) -> requests.Response:
        """``GET /notifications``: ``[NotificationThread]`` (unread and pinned unless ``all``)."""
        return self.http.get(self._with("notifications", query))

    def repo_threads(self, owner: str, repo: str, query: Query | None = None) -> requests.Response:
        """``GET /repos/{owner}/{repo}/notifications``."""
        return self.http.get(self._with(f"{self._repo(owner, repo)}/notifications", query))

    def mark_threads(self, query: Query | None = None) -> requests.Response:
        """``PUT /notifications``: 205 with the threads changed."""
        return self.http.put(self._with("notifications", query))

    def mark_repo_threads(self, owner: str, repo: str, query: Query | None = None) -> requests.Response:
        """``PUT /repos/{owner}/{repo}/notifications``: 205 with the threads changed."""
        return self.http.put(self._with(f"{self._repo(owner, repo)}/notifications", query))

    def new_count(self) -> requests.Response:
        """``GET /notifications/new``: ``NotificationCount``."""
        return self.http.get("notifications/new")

    def thread(self, thread_id: int | str) -> requests.Response:
        """``GET /notifications/threads/{id}``."""
        return self.http.get(f"notifications/threads/{quote_path(str(thread_id))}")

    def mark_thread(self, thread_id: int | str, to_status: str = "") -> requests.Response:
        """``PATCH /notifications/threads/{id}``: 205 with the thread."""
        params = {"to-status": to_status} if to_status else None
        return self.http.patch(f"notifications/threads/{quote_path(str(thread_id))}", params=params)

    # -- issue subscriptions

    def subscribers(self, owner: str, repo: str, index: int, **query: Any) -> requests.Response:
        """``GET .../issues/{index}/subscriptions``: ``[User]``."""
        return self.http.get(f"{self._issue(owner, repo, index)}/subscriptions", params=query or None)

    def check_subscription(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../issues/{index}/subscriptions/check``: ``WatchInfo``."""
        return self.http.get(f"{self._issue(owner, repo, index)}/subscriptions/check")

    def subscribe(self, owner: str, repo: str, index: int, user: str) -> requests.Response:
        """``PUT .../issues/{index}/subscriptions/{user}``: 201 subscribed, 200 already."""
        return self.http.put(f"{self._issue(owner, repo, index)}/subscriptions/{quote_path(user)}")

    def unsubscribe(self, owner: str, repo: str, index: int, user: str) -> requests.Response:
        """``DELETE .../issues/{index}/subscriptions/{user}``: 201 unsubscribed, 200 already."""
        return self.http.delete(f"{self._issue(owner, repo, index)}/subscriptions/{quote_path(user)}")

    # -- stopwatches

    def start_stopwatch(self, owner: str, repo: str, index: int) -> requests.Response:
        """``POST .../issues/{index}/stopwatch/start``: 201."""
        return self.http.post(f"{self._issue(owner, repo, index)}/stopwatch/start")

    def stop_stopwatch(self, owner: str, repo: str, index: int) -> requests.Response:
        """``POST .../issues/{index}/stopwatch/stop``: 201, the time is tracked."""
        return self.http.post(f"{self._issue(owner, repo, index)}/stopwatch/stop")

    def delete_stopwatch(self, owner: str, repo: str, index: int) -> requests.Response:
        """``DELETE .../issues/{index}/stopwatch/delete``: 204."""
        return self.http.delete(f"{self._issue(owner, repo, index)}/stopwatch/delete")

    def stopwatches(self) -> requests.Response:
        """``GET /user/stopwatches``: ``[StopWatch]``."""
        return self.http.get("user/stopwatches")

    # -- issue search

    def search_issues(self, query: Query | None = None) -> requests.Response:
        """``GET /repos/issues/search``: ``[Issue]`` of the repositories the caller can see."""
        return self.http.get(self._with("repos/issues/search", query))
