"""Editing a repository: ``PATCH /repos/{owner}/{repo}`` with Gitea's ``EditRepoOption``."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["RepoEditApi"]


class RepoEditApi(ApiArea):
    """``PATCH /repos/{owner}/{repo}``."""

    def edit(self, owner: str, repo: str, **fields: Any) -> requests.Response:
        """Change only the fields given (name, description, website, private, default_branch, archived...)."""
        return self.http.patch(f"repos/{quote_path(owner)}/{quote_path(repo)}", json=fields)
