"""Single-file contents: read a file or directory, create, update, delete (each change is a commit)."""

from __future__ import annotations

import base64
from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["ContentsApi", "encode_content"]


def encode_content(text: str | bytes) -> str:
    """Base64 of a file's content, as the contents API expects it."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return base64.b64encode(raw).decode("ascii")


class ContentsApi(ApiArea):
    """``/repos/{owner}/{repo}/contents/{filepath}``."""

    def _path(self, owner: str, repo: str, filepath: str) -> str:
        base = f"repos/{quote_path(owner)}/{quote_path(repo)}/contents"
        return f"{base}/{quote_path(filepath)}" if filepath else base

    def get(self, owner: str, repo: str, filepath: str, *, ref: str | None = None) -> requests.Response:
        """``GET .../contents/{filepath}`` (a file object, or an array for a directory)."""
        params = {"ref": ref} if ref else {}
        return self.http.get(self._path(owner, repo, filepath), params=params)

    def create(
        self,
        owner: str,
        repo: str,
        filepath: str,
        content: str | bytes,
        *,
        message: str | None = None,
        branch: str | None = None,
    ) -> requests.Response:
        """``POST .../contents/{filepath}``: a new file, 201."""
        body: dict[str, Any] = {"content": encode_content(content)}
        if message is not None:
            body["message"] = message
        if branch is not None:
            body["branch"] = branch
        return self.http.post(self._path(owner, repo, filepath), json=body)

    def create_raw(self, owner: str, repo: str, filepath: str, body: Any) -> requests.Response:
        """``POST .../contents/{filepath}`` with a body exactly as given (for validation scenarios)."""
        return self.http.post(self._path(owner, repo, filepath), json=body)

    def update(
        self,
        owner: str,
        repo: str,
        filepath: str,
        content: str | bytes,
        sha: str | None,
        *,
        message: str | None = None,
        branch: str | None = None,
    ) -> requests.Response:
        """``PUT .../contents/{filepath}`` with the blob sha the change is based on (None: Gitea creates)."""
        body: dict[str, Any] = {"content": encode_content(content)}
        if sha is not None:
            body["sha"] = sha
        if message is not None:
            body["message"] = message
        if branch is not None:
            body["branch"] = branch
        return self.http.put(self._path(owner, repo, filepath), json=body)

    def delete(
        self,
        owner: str,
        repo: str,
        filepath: str,
        sha: str,
        *,
        message: str | None = None,
        branch: str | None = None,
    ) -> requests.Response:
        """``DELETE .../contents/{filepath}`` with the blob sha being deleted."""
        body: dict[str, Any] = {"sha": sha}
        if message is not None:
            body["message"] = message
        if branch is not None:
            body["branch"] = branch
        return self.http.delete(self._path(owner, repo, filepath), json=body)
