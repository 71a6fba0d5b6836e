"""Repository transfers: starting one, and accepting or rejecting a pending one."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["TransfersApi"]


class TransfersApi(ApiArea):
    """``/repos/{owner}/{repo}/transfer[/accept|/reject]`` (``api.area(TransfersApi)``)."""

    @staticmethod
    def _base(owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/transfer"

    def transfer(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../transfer`` with a ``TransferRepoOption`` (202 moved, 201 pending)."""
        return self.http.post(self._base(owner, repo), json=body)

    def accept(self, owner: str, repo: str) -> requests.Response:
        """``POST .../transfer/accept`` (202)."""
        return self.http.post(f"{self._base(owner, repo)}/accept")

    def reject(self, owner: str, repo: str) -> requests.Response:
        """``POST .../transfer/reject`` (200)."""
        return self.http.post(f"{self._base(owner, repo)}/reject")
