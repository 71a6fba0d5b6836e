"""Deploy tokens over REST (Gitea's development line: ``POST /repos/{o}/{r}/keys/tokens``, listed, read and
deleted with the repository's keys; regenerated at the reference's ``.../keys/tokens/{id}/regenerate``) and
the Git LFS API they also open (``/<owner>/<repo>.git/info/lfs/...``, outside the API root)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import requests

from .base import ApiArea, quote_path

__all__ = ["LFS_MEDIA_TYPE", "DeployTokensApi", "LfsApi"]

LFS_MEDIA_TYPE = "application/vnd.git-lfs+json"


class DeployTokensApi(ApiArea):
    """Create, list, read, regenerate and delete the deploy tokens of a repository (repository admins)."""

    def _keys(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/keys"

    def create_token(self, owner: str, repo: str, title: str, *, read_only: bool | None = None) -> requests.Response:
        """``POST .../keys/tokens`` with ``{title, read_only}`` (201 ``DeployKey`` whose ``key`` is the secret)."""
        body: dict[str, Any] = {"title": title}
        if read_only is not None:
            body["read_only"] = read_only
        return self.create_token_body(owner, repo, body)

    def create_token_body(self, owner: str, repo: str, body: Mapping[str, Any]) -> requests.Response:
        """``POST .../keys/tokens`` with any body (for the refusals of bad options)."""
        return self.http.post(f"{self._keys(owner, repo)}/tokens", json=dict(body))

    def create_key(self, owner: str, repo: str, title: str, key: str, *, read_only: bool) -> requests.Response:
        """``POST .../keys`` (``repoCreateKey``): an SSH deploy key, 201 ``DeployKey`` with its fingerprint."""
        return self.http.post(self._keys(owner, repo), json={"title": title, "key": key, "read_only": read_only})

    def list_keys(self, owner: str, repo: str, **params: int) -> requests.Response:
        """``GET .../keys`` (deploy keys and tokens; ``key_id``, ``page``, ``limit``)."""
        return self.http.get(self._keys(owner, repo), params=params)

    def get_key(self, owner: str, repo: str, key_id: int | str) -> requests.Response:
        """``GET .../keys/{id}``."""
        return self.http.get(f"{self._keys(owner, repo)}/{key_id}")

    def delete_key(self, owner: str, repo: str, key_id: int | str) -> requests.Response:
        """``DELETE .../keys/{id}`` (204): the token stops working at once."""
        return self.http.delete(f"{self._keys(owner, repo)}/{key_id}")

    def regenerate_token(self, owner: str, repo: str, key_id: int | str) -> requests.Response:
        """``POST .../keys/tokens/{id}/regenerate`` (200 ``DeployKey``, same id, new secret in ``key``)."""
        return self.http.post(f"{self._keys(owner, repo)}/tokens/{key_id}/regenerate")


class LfsApi(ApiArea):
    """The Git LFS batch API, basic transfers and verify of a repository, with this client's credentials
    (transfers use the header the batch answer hands out instead), and the media route serving LFS files."""

    def _lfs(self, owner: str, repo: str) -> str:
        return self.absolute(f"{quote_path(owner)}/{quote_path(repo)}.git/info/lfs")

    def batch(
        self, owner: str, repo: str, operation: str, objects: list[dict[str, Any]], *, accept: str = LFS_MEDIA_TYPE
    ) -> requests.Response:
        """``POST .../objects/batch`` for basic transfers."""
        body = {"operation": operation, "transfers": ["basic"], "objects": objects, "hash_algo": "sha256"}
        headers = {"Accept": accept, "Content-Type": LFS_MEDIA_TYPE}
        return self.http.post(f"{self._lfs(owner, repo)}/objects/batch", json=body, headers=headers)

    def transfer(self, method: str, action: Mapping[str, Any], data: bytes | None = None) -> requests.Response:
        """Follow a batch action: ``PUT`` the bytes to an upload href or ``GET`` a download href, with the
        action's own headers and no other credential."""
        anonymous = self.http.with_auth(None)
        headers = {str(k): str(v) for k, v in (action.get("header") or {}).items()}
        return anonymous.request(method, str(action["href"]), data=data, headers=headers)

    def download(self, owner: str, repo: str, oid: str) -> requests.Response:
        """``GET .../objects/{oid}`` with this client's credentials."""
        return self.http.get(f"{self._lfs(owner, repo)}/objects/{oid}")

    def media(self, owner: str, repo: str, filepath: str, ref: str | None = None) -> requests.Response:
        """``GET /repos/{o}/{r}/media/{filepath}``: the file, or the LFS object its pointer names."""
        params = {"ref": ref} if ref else None
        return self.http.get(
            f"repos/{quote_path(owner)}/{quote_path(repo)}/media/{quote_path(filepath)}", params=params
        )

    def verify(self, owner: str, repo: str, oid: str, size: int) -> requests.Response:
        """``POST .../verify``: is the object stored with this size?"""
        headers = {"Accept": LFS_MEDIA_TYPE, "Content-Type": LFS_MEDIA_TYPE}
        return self.http.post(f"{self._lfs(owner, repo)}/verify", json={"oid": oid, "size": size}, headers=headers)
