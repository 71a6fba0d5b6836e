"""Detected licenses of a repository."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["LicensesApi"]


class LicensesApi(ApiArea):
    """``GET /repos/{owner}/{repo}/licenses``."""

    def repo_licenses(self, owner: str, repo: str) -> requests.Response:
        """The SPDX identifiers detected on the default branch, sorted."""
        return self.http.get(f"repos/{quote_path(owner)}/{quote_path(repo)}/licenses")

    def change_default_branch(self, owner: str, repo: str, branch: str) -> requests.Response:
        """``PATCH /repos/{owner}/{repo}`` with only ``default_branch`` (a trigger of license detection)."""
        return self.http.patch(f"repos/{quote_path(owner)}/{quote_path(repo)}", json={"default_branch": branch})
