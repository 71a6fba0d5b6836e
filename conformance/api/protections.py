"""Branch and tag protection rules over REST (Gitea 1.27): ``/repos/{owner}/{repo}/branch_protections``
and ``/repos/{owner}/{repo}/tag_protections``."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["ProtectionsApi"]


class ProtectionsApi(ApiArea):
    """Create, list, read, change, reorder and delete a repository's protection rules."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def list_branch_protections(self, owner: str, repo: str) -> requests.Response:
        """``GET .../branch_protections`` (every rule by priority, no paging)."""
        return self.http.get(f"{self._repo(owner, repo)}/branch_protections")

    def create_branch_protection(self, owner: str, repo: str, option: dict[str, Any]) -> requests.Response:
        """``POST .../branch_protections`` with a ``CreateBranchProtectionOption`` (201 ``BranchProtection``)."""
        return self.http.post(f"{self._repo(owner, repo)}/branch_protections", json=option)

    def get_branch_protection(self, owner: str, repo: str, name: str) -> requests.Response:
        """``GET .../branch_protections/{name}`` (the rule name, which may hold ``/`` and glob characters)."""
        return self.http.get(f"{self._repo(owner, repo)}/branch_protections/{quote_path(name)}")

    def edit_branch_protection(self, owner: str, repo: str, name: str, option: dict[str, Any]) -> requests.Response:
        """``PATCH .../branch_protections/{name}`` with an ``EditBranchProtectionOption``."""
        return self.http.patch(f"{self._repo(owner, repo)}/branch_protections/{quote_path(name)}", json=option)

    def delete_branch_protection(self, owner: str, repo: str, name: str) -> requests.Response:
        """``DELETE .../branch_protections/{name}`` (204)."""
        return self.http.delete(f"{self._repo(owner, repo)}/branch_protections/{quote_path(name)}")

    def set_branch_protection_priorities(self, owner: str, repo: str, ids: list[int]) -> requests.Response:
        """``POST .../branch_protections/priority`` with ``{"ids": [...]}`` (204): priorities 1, 2, 3... in order."""
        return self.http.post(f"{self._repo(owner, repo)}/branch_protections/priority", json={"ids": ids})

    def list_tag_protections(self, owner: str, repo: str) -> requests.Response:
        """``GET .../tag_protections``."""
        return self.http.get(f"{self._repo(owner, repo)}/tag_protections")

    def create_tag_protection(self, owner: str, repo: str, option: dict[str, Any]) -> requests.Response:
        """``POST .../tag_protections`` with a ``CreateTagProtectionOption`` (201 ``TagProtection``)."""
        return self.http.post(f"{self._repo(owner, repo)}/tag_protections", json=option)

    def get_tag_protection(self, owner: str, repo: str, rule_id: int | str) -> requests.Response:
        """``GET .../tag_protections/{id}``."""
        return self.http.get(f"{self._repo(owner, repo)}/tag_protections/{rule_id}")

    def edit_tag_protection(
        self, owner: str, repo: str, rule_id: int | str, option: dict[str, Any]
    ) -> requests.Response:
        """``PATCH .../tag_protections/{id}`` with an ``EditTagProtectionOption``."""
        return self.http.patch(f"{self._repo(owner, repo)}/tag_protections/{rule_id}", json=option)

    def delete_tag_protection(self, owner: str, repo: str, rule_id: int | str) -> requests.Response:
        """``DELETE .../tag_protections/{id}`` (204)."""
        return self.http.delete(f"{self._repo(owner, repo)}/tag_protections/{rule_id}")
