"""Releases, release assets and Git tags of a repository."""

from __future__ import annotations

from typing import Any

import requests
from urllib3 import encode_multipart_formdata

from .base import ApiArea, quote_path

__all__ = ["ReleasesApi"]


class ReleasesApi(ApiArea):
    """``/repos/{owner}/{repo}/releases[...]``, ``.../tags[...]``, ``.../git/tags/{sha}`` and asset downloads."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}"

    def list(self, owner: str, repo: str, params: dict[str, Any] | None = None) -> requests.Response:
        """``GET .../releases`` (``draft``, ``pre-release``, ``page``, ``limit``)."""
        return self.http.get(f"{self._repo(owner, repo)}/releases", params=params or {})

    def create(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../releases`` with ``CreateReleaseOption`` as given: 201 ``Release``."""
        return self.http.post(f"{self._repo(owner, repo)}/releases", json=body)

    def latest(self, owner: str, repo: str) -> requests.Response:
        """``GET .../releases/latest``."""
        return self.http.get(f"{self._repo(owner, repo)}/releases/latest")

    def get(self, owner: str, repo: str, release_id: int) -> requests.Response:
        """``GET .../releases/{id}``."""
        return self.http.get(f"{self._repo(owner, repo)}/releases/{release_id}")

    def edit(self, owner: str, repo: str, release_id: int, body: dict[str, Any]) -> requests.Response:
        """``PATCH .../releases/{id}`` with ``EditReleaseOption``."""
        return self.http.patch(f"{self._repo(owner, repo)}/releases/{release_id}", json=body)

    def delete(self, owner: str, repo: str, release_id: int) -> requests.Response:
        """``DELETE .../releases/{id}``: 204."""
        return self.http.delete(f"{self._repo(owner, repo)}/releases/{release_id}")

    def get_by_tag(self, owner: str, repo: str, tag: str) -> requests.Response:
        """``GET .../releases/tags/{tag}``."""
        return self.http.get(f"{self._repo(owner, repo)}/releases/tags/{quote_path(tag)}")

    def delete_by_tag(self, owner: str, repo: str, tag: str) -> requests.Response:
        """``DELETE .../releases/tags/{tag}``: 204, the Git tag stays."""
        return self.http.delete(f"{self._repo(owner, repo)}/releases/tags/{quote_path(tag)}")

    def list_assets(self, owner: str, repo: str, release_id: int) -> requests.Response:
        """``GET .../releases/{id}/assets``."""
        return self.http.get(f"{self._repo(owner, repo)}/releases/{release_id}/assets")

    def upload_asset(
        self, owner: str, repo: str, release_id: int, filename: str, content: bytes, *, name: str | None = None
    ) -> requests.Response:
        """``POST .../releases/{id}/assets``: the file in the multipart field ``attachment``, ``name`` in the query."""
        params = {"name": name} if name is not None else {}
        body, content_type = encode_multipart_formdata({"attachment": (filename, content, "application/octet-stream")})
        return self.http.post(
            f"{self._repo(owner, repo)}/releases/{release_id}/assets",
            params=params,
            data=body,
            headers={"Content-Type": content_type},
        )

    def get_asset(self, owner: str, repo: str, release_id: int, asset_id: int) -> requests.Response:
        """``GET .../releases/{id}/assets/{attachment_id}``."""
        return self.http.get(f"{self._repo(owner, repo)}/releases/{release_id}/assets/{asset_id}")

    def edit_asset(self, owner: str, repo: str, release_id: int, asset_id: int, name: str) -> requests.Response:
        """``PATCH .../releases/{id}/assets/{attachment_id}`` with ``EditAttachmentOptions``: 201 in Gitea."""
        return self.http.patch(
            f"{self._repo(owner, repo)}/releases/{release_id}/assets/{asset_id}", json={"name": name}
        )

    def delete_asset(self, owner: str, repo: str, release_id: int, asset_id: int) -> requests.Response:
        """``DELETE .../releases/{id}/assets/{attachment_id}``: 204."""
        return self.http.delete(f"{self._repo(owner, repo)}/releases/{release_id}/assets/{asset_id}")

    def download(self, url: str) -> requests.Response:
        """An asset's ``browser_download_url`` (absolute)."""
        return self.http.get(url)

    def download_by_name(self, owner: str, repo: str, tag: str, name: str) -> requests.Response:
        """Gitea's web route ``/{owner}/{repo}/releases/download/{tag}/{name}``."""
        path = f"{quote_path(owner)}/{quote_path(repo)}/releases/download/{quote_path(tag)}/{quote_path(name)}"
        return self.http.get(self.absolute(path))

    def list_tags(self, owner: str, repo: str, params: dict[str, Any] | None = None) -> requests.Response:
        """``GET .../tags`` (``page``, ``limit``)."""
        return self.http.get(f"{self._repo(owner, repo)}/tags", params=params or {})

    def get_tag(self, owner: str, repo: str, tag: str) -> requests.Response:
        """``GET .../tags/{tag}``."""
        return self.http.get(f"{self._repo(owner, repo)}/tags/{quote_path(tag)}")

    def create_tag(self, owner: str, repo: str, body: dict[str, Any]) -> requests.Response:
        """``POST .../tags`` with ``CreateTagOption``."""
        return self.http.post(f"{self._repo(owner, repo)}/tags", json=body)

    def delete_tag(self, owner: str, repo: str, tag: str) -> requests.Response:
        """``DELETE .../tags/{tag}``: 204."""
        return self.http.delete(f"{self._repo(owner, repo)}/tags/{quote_path(tag)}")

    def annotated_tag(self, owner: str, repo: str, sha: str) -> requests.Response:
        """``GET .../git/tags/{sha}``: the object of an annotated tag."""
        return self.http.get(f"{self._repo(owner, repo)}/git/tags/{sha}")
