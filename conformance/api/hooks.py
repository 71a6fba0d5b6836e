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

    def _account_hooks(self, org: str | None) -> str:
        """``orgs/{org}/hooks`` for an organization, ``user/hooks`` for the caller's own hooks."""
        return f"orgs/{quote_path(org)}/hooks" if org is not None else "user/hooks"

    def list_account_hooks(self, org: str | None = None, **paging: int) -> requests.Response:
        """``GET /orgs/{org}/hooks`` (organization owners) or ``GET /user/hooks`` (the caller's)."""
        return self.http.get(self._account_hooks(org), params=paging)

    def create_account_hook(self, option: Any, org: str | None = None) -> requests.Response:
        """``POST /orgs/{org}/hooks`` or ``POST /user/hooks``: a hook fired for every repository of the account."""
        return self.http.post(self._account_hooks(org), json=option)

    def get_account_hook(self, hook_id: int | str, org: str | None = None) -> requests.Response:
        """``GET /orgs/{org}/hooks/{id}`` or ``GET /user/hooks/{id}``."""
        return self.http.get(f"{self._account_hooks(org)}/{hook_id}")

    def edit_account_hook(self, hook_id: int | str, option: Any, org: str | None = None) -> requests.Response:
        """``PATCH /orgs/{org}/hooks/{id}`` or ``PATCH /user/hooks/{id}`` with an ``EditHookOption``."""
        return self.http.patch(f"{self._account_hooks(org)}/{hook_id}", json=option)

    def delete_account_hook(self, hook_id: int | str, org: str | None = None) -> requests.Response:
        """``DELETE /orgs/{org}/hooks/{id}`` or ``DELETE /user/hooks/{id}`` (204)."""
        return self.http.delete(f"{self._account_hooks(org)}/{hook_id}")
