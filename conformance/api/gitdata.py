"""The Git data API: trees, blobs, refs, a commit's diff or patch, raw files and archives."""

from __future__ import annotations

from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["GitDataApi"]


class GitDataApi(ApiArea):
    """Gitea's Git data operations (``GetTree``, ``GetBlob``, ``repoListGitRefs``, ``repoGetRawFile``, ...)."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def tree(self, owner: str, repo: str, sha: str, **params: Any) -> requests.Response:
        """``GET /repos/{owner}/{repo}/git/trees/{sha}`` (``recursive``, ``page``, ``per_page``)."""
        return self.http.get(f"{self._repo(owner, repo)}/git/trees/{quote_path(sha)}", params=params or None)

    def blob(self, owner: str, repo: str, sha: str) -> requests.Response:
        """``GET /repos/{owner}/{repo}/git/blobs/{sha}``."""
        return self.http.get(f"{self._repo(owner, repo)}/git/blobs/{quote_path(sha)}")

    def refs(self, owner: str, repo: str, ref: str = "") -> requests.Response:
        """``GET .../git/refs`` or ``GET .../git/refs/{ref}`` (a prefix of the name after ``refs/``)."""
        suffix = f"/{quote_path(ref)}" if ref else ""
        return self.http.get(f"{self._repo(owner, repo)}/git/refs{suffix}")

    def commit_text(self, owner: str, repo: str, sha: str, diff_type: str) -> requests.Response:
        """``GET .../git/commits/{sha}.{diffType}`` (``diff`` or ``patch``)."""
        return self.http.get(f"{self._repo(owner, repo)}/git/commits/{quote_path(sha)}.{diff_type}")

    def raw(self, owner: str, repo: str, filepath: str, ref: str | None = None) -> requests.Response:
        """``GET .../raw/{filepath}`` (``ref`` as a query when given)."""
        params = {"ref": ref} if ref is not None else None
        return self.http.get(f"{self._repo(owner, repo)}/raw/{quote_path(filepath)}", params=params)

    def archive(self, owner: str, repo: str, archive: str, path: str | None = None) -> requests.Response:
        """``GET .../archive/{archive}`` (``<ref>.zip``, ``<ref>.tar.gz``, ``<ref>.bundle``), ``path`` to
        archive only that file or folder."""
        params = {"path": path} if path is not None else None
        return self.http.get(f"{self._repo(owner, repo)}/archive/{quote_path(archive)}", params=params)

    def languages(self, owner: str, repo: str) -> requests.Response:
        """``GET .../languages`` (bytes per language of the default branch)."""
        return self.http.get(f"{self._repo(owner, repo)}/languages")

    def note(self, owner: str, repo: str, sha: str) -> requests.Response:
        """``GET .../git/notes/{sha}`` (a commit's note in ``refs/notes/commits``)."""
        return self.http.get(f"{self._repo(owner, repo)}/git/notes/{quote_path(sha)}")
