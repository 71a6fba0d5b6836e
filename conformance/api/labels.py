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
