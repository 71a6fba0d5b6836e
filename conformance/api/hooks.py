"""Repository webhooks over REST (Gitea 1.27): ``/repos/{owner}/{repo}/hooks``."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["HooksApi"]


class HooksApi(ApiArea):
    """Create, list, read, change and delete the webhooks of a repository."""

    def _hooks(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/hooks"

    def list_hooks(self, owner: str, repo: str, **paging: int) -> requests.Response:
        """``GET .../hooks`` (an array of ``Hook``, paged with ``page``/``limit``)."""
        return self.http.get(self._hooks(owner, repo), params=paging)

    def create_hook(self, owner: str, repo: str, option: dict[str, Any]) -> requests.Response:
        """``POST .../hooks`` with a ``CreateHookOption`` (201 ``Hook``)."""
        return self.http.post(self._hooks(owner, repo), json=option)

    def get_hook(self, owner: str, repo: str, hook_id: int | str) -> requests.Response:
        """``GET .../hooks/{id}``."""
        return self.http.get(f"{self._hooks(owner, repo)}/{hook_id}")

    def edit_hook(self, owner: str, repo: str, hook_id: int | str, option: dict[str, Any]) -> requests.Response:
        """``PATCH .../hooks/{id}`` with an ``EditHookOption`` (absent fields keep their values)."""
        return self.http.patch(f"{self._hooks(owner, repo)}/{hook_id}", json=option)

    def delete_hook(self, owner: str, repo: str, hook_id: int | str) -> requests.Response:
        """``DELETE .../hooks/{id}`` (204)."""
        return self.http.delete(f"{self._hooks(owner, repo)}/{hook_id}")

    def test_hook(self, owner: str, repo: str, hook_id: int | str, ref: str | None = None) -> requests.Response:
        """``POST .../hooks/{id}/tests``: the forge sends the hook a ``push`` delivery of the branch head (204)."""
        params = {"ref": ref} if ref else None
        return self.http.post(f"{self._hooks(owner, repo)}/{hook_id}/tests", params=params)

    def create_system_hook(self, option: Any) -> requests.Response:
        """``POST /admin/hooks``: a system webhook, fired for every repository (site admin)."""
        return self.http.post("admin/hooks", json=option)

    def get_system_hook(self, hook_id: int) -> requests.Response:
        """``GET /admin/hooks/{id}``."""
        return self.http.get(f"admin/hooks/{hook_id}")

    def edit_system_hook(self, hook_id: int, option: dict[str, Any]) -> requests.Response:
        """``PATCH /admin/hooks/{id}`` with an ``EditHookOption``."""
        return self.http.patch(f"admin/hooks/{hook_id}", json=option)

    def delete_system_hook(self, hook_id: int) -> requests.Response:
        """``DELETE /admin/hooks/{id}``."""
        return self.http.delete(f"admin/hooks/{hook_id}")
