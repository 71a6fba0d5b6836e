"""Assignees over REST (Gitea 1.27): who can be assigned in a repository, and an issue's assignees."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["AssigneesApi"]


class AssigneesApi(ApiArea):
    """``/repos/{owner}/{repo}/assignees[/{assignee}]`` and ``.../issues/{index}/assignees[/{assignee}]``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def list_assignees(self, owner: str, repo: str) -> requests.Response:
        """``GET .../assignees``: every assignable ``User`` (not paged)."""
        return self.http.get(f"{self._repo(owner, repo)}/assignees")

    def check_assignee(self, owner: str, repo: str, name: str) -> requests.Response:
        """``GET .../assignees/{assignee}``: 204 when assignable, else 404."""
        return self.http.get(f"{self._repo(owner, repo)}/assignees/{quote_path(name)}")

    def check_issue_assignee(self, owner: str, repo: str, index: int, name: str) -> requests.Response:
        """``GET .../issues/{index}/assignees/{assignee}``: 204 when the user could be assigned to the issue."""
        return self.http.get(f"{self._repo(owner, repo)}/issues/{index}/assignees/{quote_path(name)}")

    def add_assignees(self, owner: str, repo: str, index: int, names: list[str]) -> requests.Response:
        """``POST .../issues/{index}/assignees`` with ``IssueAssigneesOption``: 201 ``Issue``."""
        return self.http.post(f"{self._repo(owner, repo)}/issues/{index}/assignees", json={"assignees": names})

    def remove_assignees(self, owner: str, repo: str, index: int, names: list[str]) -> requests.Response:
        """``DELETE .../issues/{index}/assignees`` with ``IssueAssigneesOption``: 200 ``Issue``."""
        return self.http.delete(f"{self._repo(owner, repo)}/issues/{index}/assignees", json={"assignees": names})
