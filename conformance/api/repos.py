"""Repositories: create for the caller or an organization, get, delete."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["ReposApi"]


class ReposApi(ApiArea):
    """Gitea's repository operations."""

    def create(
        self,
        name: str,
        *,
        org: str | None = None,
        auto_init: bool = True,
        private: bool = False,
        default_branch: str | None = None,
        description: str | None = None,
    ) -> requests.Response:
        """``POST /user/repos``, or ``POST /orgs/{org}/repos`` when ``org`` is given."""
        body: dict[str, Any] = {"name": name, "auto_init": auto_init, "private": private}
        if default_branch is not None:
            body["default_branch"] = default_branch
        if description is not None:
            body["description"] = description
        path = f"orgs/{quote_path(org)}/repos" if org else "user/repos"
        return self.http.post(path, json=body)

    def get(self, owner: str, name: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}``."""
        return self.http.get(f"repos/{quote_path(owner)}/{quote_path(name)}")

    def get_by_id(self, repo_id: int) -> requests.Response:
        """``GET /repositories/{id}`` (``repoGetByID``)."""
        return self.http.get(f"repositories/{repo_id}")

    def delete(self, owner: str, name: str) -> requests.Response:
        """``DELETE /repos/{owner}/{repo}``."""
        return self.http.delete(f"repos/{quote_path(owner)}/{quote_path(name)}")
