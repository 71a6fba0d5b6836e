"""Pull requests over REST (Gitea 1.27): ``/repos/{owner}/{repo}/pulls``, their commits, files, branch
update, reviews and replies to review comments."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["PullsApi"]


class PullsApi(ApiArea):
    """Open, list, read and edit pull requests; read their commits and files; update their branch; review."""

    def _pulls(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/pulls"

    def list_pulls(self, owner: str, repo: str, **query: str | int) -> requests.Response:
        """``GET .../pulls`` (``state``, ``page``, ``limit``)."""
        return self.http.get(self._pulls(owner, repo), params=query)

    def create_pull(self, owner: str, repo: str, option: dict[str, Any]) -> requests.Response:
        """``POST .../pulls`` with a ``CreatePullRequestOption`` (201 ``PullRequest``)."""
        return self.http.post(self._pulls(owner, repo), json=option)

    def get_pull(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../pulls/{index}``."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}")

    def edit_pull(self, owner: str, repo: str, index: int, option: dict[str, Any]) -> requests.Response:
        """``PATCH .../pulls/{index}`` with an ``EditPullRequestOption`` (Gitea answers 201)."""
        return self.http.patch(f"{self._pulls(owner, repo)}/{index}", json=option)

    def download(self, owner: str, repo: str, index: int, kind: str) -> requests.Response:
        """``GET .../pulls/{index}.diff`` or ``.patch`` (plain text)."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}.{kind}")

    def commits(self, owner: str, repo: str, index: int, **paging: int) -> requests.Response:
        """``GET .../pulls/{index}/commits`` (``Commit`` list, paged)."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}/commits", params=paging)

    def files(self, owner: str, repo: str, index: int, **paging: int) -> requests.Response:
        """``GET .../pulls/{index}/files`` (``ChangedFile`` list, paged)."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}/files", params=paging)

    def update(self, owner: str, repo: str, index: int, style: str | None = None) -> requests.Response:
        """``POST .../pulls/{index}/update`` (``?style=merge|rebase``; 200 with an empty body)."""
        params = {"style": style} if style else None
        return self.http.post(f"{self._pulls(owner, repo)}/{index}/update", params=params)

    def merge(self, owner: str, repo: str, index: int, option: dict[str, Any]) -> requests.Response:
        """``POST .../pulls/{index}/merge`` with a ``MergePullRequestOption`` (200, empty body)."""
        return self.http.post(f"{self._pulls(owner, repo)}/{index}/merge", json=option)

    def is_merged(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../pulls/{index}/merge``: 204 when merged, 404 otherwise."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}/merge")

    def list_reviews(self, owner: str, repo: str, index: int) -> requests.Response:
        """``GET .../pulls/{index}/reviews``."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}/reviews")

    def create_review(self, owner: str, repo: str, index: int, option: dict[str, Any]) -> requests.Response:
        """``POST .../pulls/{index}/reviews`` with ``CreatePullReviewOptions`` (Gitea answers 200)."""
        return self.http.post(f"{self._pulls(owner, repo)}/{index}/reviews", json=option)

    def get_review(self, owner: str, repo: str, index: int, review_id: int) -> requests.Response:
        """``GET .../pulls/{index}/reviews/{id}``."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}/reviews/{review_id}")

    def review_comments(self, owner: str, repo: str, index: int, review_id: int) -> requests.Response:
        """``GET .../pulls/{index}/reviews/{id}/comments`` (``PullReviewComment`` list)."""
        return self.http.get(f"{self._pulls(owner, repo)}/{index}/reviews/{review_id}/comments")

    def reply(self, owner: str, repo: str, index: int, comment_id: int, body: str) -> requests.Response:
        """``POST .../pulls/{index}/comments/{id}/replies`` with ``{body}`` (201 ``PullReviewComment``)."""
        return self.http.post(f"{self._pulls(owner, repo)}/{index}/comments/{comment_id}/replies", json={"body": body})

    def reviewers(self, owner: str, repo: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/reviewers`` (``User`` list)."""
        return self.http.get(f"repos/{quote_path(owner)}/{quote_path(repo)}/reviewers")

    def request_reviewers(self, owner: str, repo: str, index: int, names: list[str]) -> requests.Response:
        """``POST .../pulls/{index}/requested_reviewers`` (201 with the new ``PullReview`` requests)."""
        return self.http.post(f"{self._pulls(owner, repo)}/{index}/requested_reviewers", json={"reviewers": names})

    def cancel_review_requests(self, owner: str, repo: str, index: int, names: list[str]) -> requests.Response:
        """``DELETE .../pulls/{index}/requested_reviewers`` (204)."""
        path = f"{self._pulls(owner, repo)}/{index}/requested_reviewers"
        return self.http.delete(path, json={"reviewers": names})

    def submit_review(
        self, owner: str, repo: str, index: int, review_id: int, option: dict[str, Any]
    ) -> requests.Response:
        """``POST .../pulls/{index}/reviews/{id}`` with ``SubmitPullReviewOptions``."""
        return self.http.post(f"{self._pulls(owner, repo)}/{index}/reviews/{review_id}", json=option)

    def delete_review(self, owner: str, repo: str, index: int, review_id: int) -> requests.Response:
        """``DELETE .../pulls/{index}/reviews/{id}`` (204)."""
        return self.http.delete(f"{self._pulls(owner, repo)}/{index}/reviews/{review_id}")

    def dismiss_review(self, owner: str, repo: str, index: int, review_id: int, message: str) -> requests.Response:
        """``POST .../pulls/{index}/reviews/{id}/dismissals`` with ``DismissPullReviewOptions``."""
        path = f"{self._pulls(owner, repo)}/{index}/reviews/{review_id}/dismissals"
        return self.http.post(path, json={"message": message})

    def undismiss_review(self, owner: str, repo: str, index: int, review_id: int) -> requests.Response:
        """``POST .../pulls/{index}/reviews/{id}/undismissals``."""
        return self.http.post(f"{self._pulls(owner, repo)}/{index}/reviews/{review_id}/undismissals")

    def resolve_comment(self, owner: str, repo: str, comment_id: int, *, resolve: bool = True) -> requests.Response:
        """``POST .../pulls/comments/{id}/resolve`` (or ``/unresolve``): 204."""
        action = "resolve" if resolve else "unresolve"
        return self.http.post(f"{self._pulls(owner, repo)}/comments/{comment_id}/{action}")

    def by_branches(self, owner: str, repo: str, base: str, head: str) -> requests.Response:
        """``GET .../pulls/{base}/{head}``."""
        return self.http.get(f"{self._pulls(owner, repo)}/{quote_path(base)}/{quote_path(head)}")

    def of_commit(self, owner: str, repo: str, sha: str) -> requests.Response:
        """``GET .../commits/{sha}/pull``: the pull request whose merge made the commit."""
        return self.http.get(f"repos/{quote_path(owner)}/{quote_path(repo)}/commits/{quote_path(sha)}/pull")

    def cancel_scheduled_merge(self, owner: str, repo: str, index: int) -> requests.Response:
        """``DELETE .../pulls/{index}/merge``: cancel a merge scheduled for when the checks succeed (204)."""
        return self.http.delete(f"{self._pulls(owner, repo)}/{index}/merge")
