"""Contents: read a file or directory, several files at once, the extended contents; change one file or
several in one commit; apply a diff patch (each change is a commit)."""

from __future__ import annotations

import base64
from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["ContentsApi", "encode_content", "parse_advertisement"]


def encode_content(text: str | bytes) -> str:
    """Base64 of a file's content, as the contents API expects it."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return base64.b64encode(raw).decode("ascii")


class ContentsApi(ApiArea):
    """``/repos/{owner}/{repo}/contents``, ``contents-ext``, ``file-contents`` and ``diffpatch``."""

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
        from_path: str | None = None,
    ) -> requests.Response:
        """``PUT .../contents/{filepath}`` with the blob sha the change is based on (None: Gitea creates);
        ``from_path`` renames that file to ``filepath``."""
        body: dict[str, Any] = {"content": encode_content(content)}
        if sha is not None:
            body["sha"] = sha
        if from_path is not None:
            body["from_path"] = from_path
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

    def _repo(self, owner: str, repo: str, suffix: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/{suffix}"

    def change_files(self, owner: str, repo: str, files: list[dict[str, Any]], **options: Any) -> requests.Response:
        """``POST .../contents``: several operations in one commit (``options``: branch, new_branch, message...)."""
        return self.http.post(self._repo(owner, repo, "contents"), json={"files": files, **options})

    def get_files(self, owner: str, repo: str, paths: list[str], *, ref: str | None = None) -> requests.Response:
        """``POST .../file-contents``: several files in one call."""
        params = {"ref": ref} if ref else {}
        return self.http.post(self._repo(owner, repo, "file-contents"), json={"files": paths}, params=params)

    def get_files_by_query(
        self, owner: str, repo: str, body: str | None, *, ref: str | None = None
    ) -> requests.Response:
        """``GET .../file-contents?body=<GetFilesOptions as JSON text>`` (``body`` sent exactly as given)."""
        params = {key: value for key, value in (("body", body), ("ref", ref)) if value is not None}
        return self.http.get(self._repo(owner, repo, "file-contents"), params=params)

    def get_ext(
        self, owner: str, repo: str, filepath: str, *, ref: str | None = None, includes: str | None = None
    ) -> requests.Response:
        """``GET .../contents-ext/{filepath}`` (the root without a path) with ``includes``."""
        path = self._repo(owner, repo, "contents-ext")
        if filepath:
            path = f"{path}/{quote_path(filepath)}"
        params = {key: value for key, value in (("ref", ref), ("includes", includes)) if value is not None}
        return self.http.get(path, params=params)

    def apply_diff_patch(self, owner: str, repo: str, patch: str, **options: Any) -> requests.Response:
        """``POST .../diffpatch`` with a raw unified diff."""
        return self.http.post(self._repo(owner, repo, "diffpatch"), json={"content": patch, **options})

    def advertised_branches(self, owner: str, repo: str) -> dict[str, str]:
        """Every branch and its head as the Git smart HTTP advertisement shows them (``info/refs``): how a
        scenario checks that a refused change left the refs alone, with nothing but the Git protocol."""
        url = self.absolute(f"{quote_path(owner)}/{quote_path(repo)}.git/info/refs")
        response = self.http.get(url, params={"service": "git-upload-pack"})
        if response.status_code != 200:
            raise AssertionError(f"the refs of {owner}/{repo} could not be read: {response.status_code}")
        return parse_advertisement(response.content)


def parse_advertisement(data: bytes) -> dict[str, str]:
    """``{branch: sha}`` from a smart HTTP ``info/refs`` body (pkt-lines)."""
    branches: dict[str, str] = {}
    position = 0
    while position + 4 <= len(data):
        length = int(data[position : position + 4], 16)
        if length == 0:
            position += 4
            continue
        line = data[position + 4 : position + length].split(b"\x00", 1)[0].strip().decode("utf-8", "replace")
        position += length
        sha, _, ref = line.partition(" ")
        if ref.startswith("refs/heads/") and len(sha) == 40:
            branches[ref[len("refs/heads/") :]] = sha
    return branches
