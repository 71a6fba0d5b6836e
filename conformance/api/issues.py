"""Issues over REST (Gitea 1.27): ``/repos/{owner}/{repo}/issues``, their comments, timeline and lock."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["IssuesApi"]


class IssuesApi(ApiArea):
    """Create, list, read and edit issues; comment on them; read their timeline; lock and unlock them."""

    def _issues(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/issues"

    def list_issues(self, owner: str, repo: str, **query: str | int) -> requests.Response:
        """``GET .../issues`` (``state``, ``type``, ``q``, ``page``, ``limit``)."""
        return self.http.get(self._issues(owner, repo), params=query)

    def create_issue(self, owner: str, repo: str, option: dict[str, Any]) -> requests.Response:
        """``POST .../issues`` with a ``CreateIssueOption`` (201 ``Issue``)."""
        return self.http.post(self._issues(owner, repo), json=option)

    def get_issue(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../issues/{index}``."""
        return self.http.get(f"{self._issues(owner, repo)}/{index}")

    def edit_issue(self, owner: str, repo: str, index: int, option: dict[str, Any]) -> requests.Response:
        """``PATCH .../issues/{index}`` with an ``EditIssueOption`` (Gitea answers 201)."""
        return self.http.patch(f"{self._issues(owner, repo)}/{index}", json=option)

    def delete_issue(self, owner: str, repo: str, index: int) -> requests.Response:
        """``DELETE .../issues/{index}`` (204; repository administrators)."""
        return self.http.delete(f"{self._issues(owner, repo)}/{index}")

    def set_deadline(self, owner: str, repo: str, index: int, due_date: str) -> requests.Response:
        """``POST .../issues/{index}/deadline`` with an ``EditDeadlineOption`` (201 ``IssueDeadline``)."""
        return self.http.post(f"{self._issues(owner, repo)}/{index}/deadline", json={"due_date": due_date})

    def repo_comments(self, owner: str, repo: str, **query: str | int) -> requests.Response:
        """``GET .../issues/comments``: every comment of the repository (``since``, ``before``, ``page``, ``limit``)."""
        return self.http.get(f"{self._issues(owner, repo)}/comments", params=query)

    def edit_comment_deprecated(
        self, owner: str, repo: str, index: int, comment_id: int, body: str
    ) -> requests.Response:
        """The old ``PATCH .../issues/{index}/comments/{id}``."""
        return self.http.patch(f"{self._issues(owner, repo)}/{index}/comments/{comment_id}", json={"body": body})

    def delete_comment_deprecated(self, owner: str, repo: str, index: int, comment_id: int) -> requests.Response:
        """The old ``DELETE .../issues/{index}/comments/{id}``."""
        return self.http.delete(f"{self._issues(owner, repo)}/{index}/comments/{comment_id}")

    def _labels(self, owner: str, repo: str, index: int) -> str:
        return f"{self._issues(owner, repo)}/{index}/labels"

    def issue_labels(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../issues/{index}/labels``."""
        return self.http.get(self._labels(owner, repo, index))

    def add_labels(self, owner: str, repo: str, index: int, labels: list[Any]) -> requests.Response:
        """``POST .../issues/{index}/labels`` with label ids or names."""
        return self.http.post(self._labels(owner, repo, index), json={"labels": labels})

    def replace_labels(self, owner: str, repo: str, index: int, labels: list[Any]) -> requests.Response:
        """``PUT .../issues/{index}/labels``."""
        return self.http.put(self._labels(owner, repo, index), json={"labels": labels})

    def remove_label(self, owner: str, repo: str, index: int, label_id: int) -> requests.Response:
        """``DELETE .../issues/{index}/labels/{id}``."""
        return self.http.delete(f"{self._labels(owner, repo, index)}/{label_id}")

    def clear_labels(self, owner: str, repo: str, index: int) -> requests.Response:
        """``DELETE .../issues/{index}/labels``."""
        return self.http.delete(self._labels(owner, repo, index))

    def list_comments(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../issues/{index}/comments``."""
        return self.http.get(f"{self._issues(owner, repo)}/{index}/comments")

    def create_comment(self, owner: str, repo: str, index: int, body: str) -> requests.Response:
        """``POST .../issues/{index}/comments`` with a ``CreateIssueCommentOption`` (201 ``Comment``)."""
        return self.http.post(f"{self._issues(owner, repo)}/{index}/comments", json={"body": body})

    def get_comment(self, owner: str, repo: str, comment_id: int) -> requests.Response:
        """``GET .../issues/comments/{id}``."""
        return self.http.get(f"{self._issues(owner, repo)}/comments/{comment_id}")

    def edit_comment(self, owner: str, repo: str, comment_id: int, body: str) -> requests.Response:
        """``PATCH .../issues/comments/{id}`` with an ``EditIssueCommentOption``."""
        return self.http.patch(f"{self._issues(owner, repo)}/comments/{comment_id}", json={"body": body})

    def delete_comment(self, owner: str, repo: str, comment_id: int) -> requests.Response:
        """``DELETE .../issues/comments/{id}`` (204)."""
        return self.http.delete(f"{self._issues(owner, repo)}/comments/{comment_id}")

    def timeline(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../issues/{index}/timeline`` (``TimelineComment`` entries, oldest first)."""
        return self.http.get(f"{self._issues(owner, repo)}/{index}/timeline")

    def lock(self, owner: str, repo: str, index: int, reason: str | None = None) -> requests.Response:
        """``PUT .../issues/{index}/lock`` with an optional ``LockIssueOption`` (204)."""
        option = {"lock_reason": reason} if reason is not None else None
        return self.http.put(f"{self._issues(owner, repo)}/{index}/lock", json=option)

    def unlock(self, owner: str, repo: str, index: int) -> requests.Response:
        """``DELETE .../issues/{index}/lock`` (204)."""
        return self.http.delete(f"{self._issues(owner, repo)}/{index}/lock")
