"""Repository collaborators: list, check, add or update, remove, and a user's permission on a repository."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["CollaboratorsApi"]


class CollaboratorsApi(ApiArea):
    """Gitea's collaborator operations (``api.area(CollaboratorsApi)``)."""

    @staticmethod
    def _base(owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/collaborators"

    def list(self, owner: str, repo: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/collaborators``."""
        return self.http.get(self._base(owner, repo))

    def check(self, owner: str, repo: str, username: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/collaborators/{collaborator}`` (204 or 404)."""
        return self.http.get(f"{self._base(owner, repo)}/{quote_path(username)}")

    def put(self, owner: str, repo: str, username: str, permission: str | None = None) -> requests.Response:
        """``PUT /repos/{owner}/{repo}/collaborators/{collaborator}`` with ``AddCollaboratorOption``."""
        body: dict[str, Any] = {} if permission is None else {"permission": permission}
        return self.http.put(f"{self._base(owner, repo)}/{quote_path(username)}", json=body)

    def remove(self, owner: str, repo: str, username: str) -> requests.Response:
        """``DELETE /repos/{owner}/{repo}/collaborators/{collaborator}``."""
        return self.http.delete(f"{self._base(owner, repo)}/{quote_path(username)}")

    def permission(self, owner: str, repo: str, username: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/collaborators/{collaborator}/permission``."""
        return self.http.get(f"{self._base(owner, repo)}/{quote_path(username)}/permission")
