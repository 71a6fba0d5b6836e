"""Project boards over REST (Gitea 1.28-dev): the same operations under a scope's ``.../projects`` path.

A scope path comes from :func:`repo_projects`, :func:`org_projects`, :func:`user_projects` (a named
user's boards) or :data:`OWN_PROJECTS` (the caller's own, ``/user/projects``).
"""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["OWN_PROJECTS", "ProjectsApi", "org_projects", "repo_projects", "user_projects"]

OWN_PROJECTS = "user/projects"


def repo_projects(owner: str, repo: str) -> str:
    """``repos/{owner}/{repo}/projects``."""
    return f"repos/{quote_path(owner)}/{quote_path(repo)}/projects"


def org_projects(org: str) -> str:
    """``orgs/{org}/projects``."""
    return f"orgs/{quote_path(org)}/projects"


def user_projects(username: str) -> str:
    """``users/{username}/projects``."""
    return f"users/{quote_path(username)}/projects"


class ProjectsApi(ApiArea):
    """Boards, their columns and the issues on them; every method takes the scope's projects path."""

    def list_projects(self, scope: str, **query: str | int) -> requests.Response:
        """``GET {scope}`` (``state`` open|closed|all, ``page``, ``limit``)."""
        return self.http.get(scope, params=query)

    def create_project(self, scope: str, option: dict[str, Any]) -> requests.Response:
        """``POST {scope}`` with a ``CreateProjectOption`` (201 ``Project``)."""
        return self.http.post(scope, json=option)

    def get_project(self, scope: str, project_id: int) -> requests.Response:
        """``GET {scope}/{id}``."""
        return self.http.get(f"{scope}/{project_id}")

    def edit_project(self, scope: str, project_id: int, option: dict[str, Any]) -> requests.Response:
        """``PATCH {scope}/{id}`` with an ``EditProjectOption`` (200 ``Project``)."""
        return self.http.patch(f"{scope}/{project_id}", json=option)

    def delete_project(self, scope: str, project_id: int) -> requests.Response:
        """``DELETE {scope}/{id}`` (204)."""
        return self.http.delete(f"{scope}/{project_id}")

    def list_columns(self, scope: str, project_id: int) -> requests.Response:
        """``GET {scope}/{id}/columns`` (left to right)."""
        return self.http.get(f"{scope}/{project_id}/columns")

    def create_column(self, scope: str, project_id: int, option: dict[str, Any]) -> requests.Response:
        """``POST {scope}/{id}/columns`` with a ``CreateProjectColumnOption`` (201 ``ProjectColumn``)."""
        return self.http.post(f"{scope}/{project_id}/columns", json=option)

    def move_columns(self, scope: str, project_id: int, option: dict[str, Any]) -> requests.Response:
        """``POST {scope}/{id}/columns/move`` with a ``MoveProjectColumnsOption`` (204)."""
        return self.http.post(f"{scope}/{project_id}/columns/move", json=option)

    def get_column(self, scope: str, project_id: int, column_id: int) -> requests.Response:
        """``GET {scope}/{id}/columns/{column_id}``."""
        return self.http.get(f"{scope}/{project_id}/columns/{column_id}")

    def edit_column(self, scope: str, project_id: int, column_id: int, option: dict[str, Any]) -> requests.Response:
        """``PATCH {scope}/{id}/columns/{column_id}`` with an ``EditProjectColumnOption``."""
        return self.http.patch(f"{scope}/{project_id}/columns/{column_id}", json=option)

    def delete_column(self, scope: str, project_id: int, column_id: int) -> requests.Response:
        """``DELETE {scope}/{id}/columns/{column_id}`` (204; its issues go to the default column)."""
        return self.http.delete(f"{scope}/{project_id}/columns/{column_id}")

    def set_default_column(self, scope: str, project_id: int, column_id: int) -> requests.Response:
        """``POST {scope}/{id}/columns/{column_id}/default`` (204)."""
        return self.http.post(f"{scope}/{project_id}/columns/{column_id}/default")

    def column_issues(self, scope: str, project_id: int, column_id: int) -> requests.Response:
        """``GET {scope}/{id}/columns/{column_id}/issues`` (``Issue`` list)."""
        return self.http.get(f"{scope}/{project_id}/columns/{column_id}/issues")

    def add_issue(self, scope: str, project_id: int, column_id: int, issue_id: int) -> requests.Response:
        """``POST {scope}/{id}/columns/{column_id}/issues/{issue_id}`` (201; the issue's global id)."""
        return self.http.post(f"{scope}/{project_id}/columns/{column_id}/issues/{issue_id}")

    def remove_issue(self, scope: str, project_id: int, column_id: int, issue_id: int) -> requests.Response:
        """``DELETE {scope}/{id}/columns/{column_id}/issues/{issue_id}`` (204)."""
        return self.http.delete(f"{scope}/{project_id}/columns/{column_id}/issues/{issue_id}")

    def move_issue(self, scope: str, project_id: int, issue_id: int, option: dict[str, Any]) -> requests.Response:
        """``POST {scope}/{id}/issues/{issue_id}/move`` with a ``MoveProjectIssueOption`` (204)."""
        return self.http.post(f"{scope}/{project_id}/issues/{issue_id}/move", json=option)
