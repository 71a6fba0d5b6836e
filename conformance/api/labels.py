"""Repository labels: list, create, get, edit, delete."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["LabelsApi"]


class LabelsApi(ApiArea):
    """``/repos/{owner}/{repo}/labels[/{id}]``."""

    def _path(self, owner: str, repo: str, label_id: int | None = None) -> str:
        base = f"repos/{quote_path(owner)}/{quote_path(repo)}/labels"
        return base if label_id is None else f"{base}/{label_id}"

    def list(self, owner: str, repo: str, *, page: int | None = None, limit: int | None = None) -> requests.Response:
        """``GET .../labels`` (paged, by name)."""
        params = {key: value for key, value in (("page", page), ("limit", limit)) if value is not None}
        return self.http.get(self._path(owner, repo), params=params)

    def create(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../labels`` with ``CreateLabelOption`` as given: 201 ``Label``."""
        return self.http.post(self._path(owner, repo), json=body)

    def get(self, owner: str, repo: str, label_id: int) -> requests.Response:
        """``GET .../labels/{id}``."""
        return self.http.get(self._path(owner, repo, label_id))

    def edit(self, owner: str, repo: str, label_id: int, body: dict[str, Any]) -> requests.Response:
        """``PATCH .../labels/{id}`` with ``EditLabelOption`` as given."""
        return self.http.patch(self._path(owner, repo, label_id), json=body)

    def delete(self, owner: str, repo: str, label_id: int) -> requests.Response:
        """``DELETE .../labels/{id}``: 204."""
        return self.http.delete(self._path(owner, repo, label_id))

    def _org_path(self, org: str, label_id: int | None = None) -> str:
        base = f"orgs/{quote_path(org)}/labels"
        return base if label_id is None else f"{base}/{label_id}"

    def list_org(self, org: str, **paging: int) -> requests.Response:
        """``GET /orgs/{org}/labels`` (paged, by name)."""
        return self.http.get(self._org_path(org), params=paging)

    def create_org(self, org: str, body: Any) -> requests.Response:
        """``POST /orgs/{org}/labels`` with ``CreateLabelOption`` as given (organization owners): 201 ``Label``."""
        return self.http.post(self._org_path(org), json=body)

    def get_org(self, org: str, label_id: int) -> requests.Response:
        """``GET /orgs/{org}/labels/{id}``."""
        return self.http.get(self._org_path(org, label_id))

    def edit_org(self, org: str, label_id: int, body: Any) -> requests.Response:
        """``PATCH /orgs/{org}/labels/{id}`` with ``EditLabelOption`` as given."""
        return self.http.patch(self._org_path(org, label_id), json=body)

    def delete_org(self, org: str, label_id: int) -> requests.Response:
        """``DELETE /orgs/{org}/labels/{id}``: 204."""
        return self.http.delete(self._org_path(org, label_id))
