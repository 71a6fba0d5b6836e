"""The package registry: the generic registry's upload, download and deletions under ``/api/packages``, and
Gitea's package API under ``/api/v1/packages``."""

from __future__ import annotations

import requests

from .base import ApiArea, quote_path

__all__ = ["PackagesApi"]


class PackagesApi(ApiArea):
    """Gitea's package operations (``api.area(PackagesApi)``)."""

    def _generic(self, owner: str, name: str, version: str) -> str:
        return self.absolute(f"api/packages/{quote_path(owner)}/generic/{quote_path(name)}/{quote_path(version)}")

    @staticmethod
    def _package(owner: str, package_type: str, name: str) -> str:
        return f"packages/{quote_path(owner)}/{quote_path(package_type)}/{quote_path(name)}"

    def upload_generic(self, owner: str, name: str, version: str, filename: str, content: bytes) -> requests.Response:
        """``PUT /api/packages/{owner}/generic/{name}/{version}/{filename}`` with the file as the body (201)."""
        return self.http.put(f"{self._generic(owner, name, version)}/{quote_path(filename)}", data=content)

    def download_generic(self, owner: str, name: str, version: str, filename: str) -> requests.Response:
        """``GET /api/packages/{owner}/generic/{name}/{version}/{filename}``: the file's bytes."""
        return self.http.get(f"{self._generic(owner, name, version)}/{quote_path(filename)}")

    def delete_generic_file(self, owner: str, name: str, version: str, filename: str) -> requests.Response:
        """``DELETE /api/packages/{owner}/generic/{name}/{version}/{filename}`` (204)."""
        return self.http.delete(f"{self._generic(owner, name, version)}/{quote_path(filename)}")

    def delete_generic_version(self, owner: str, name: str, version: str) -> requests.Response:
        """``DELETE /api/packages/{owner}/generic/{name}/{version}`` (204)."""
        return self.http.delete(self._generic(owner, name, version))

    def registry_get(self, owner: str, path: str) -> requests.Response:
        """``GET /api/packages/{owner}/{path}``: any route of the registry (another package type's, say)."""
        return self.http.get(self.absolute(f"api/packages/{quote_path(owner)}/{path.lstrip('/')}"))

    def list_packages(self, owner: str, **params: str | int) -> requests.Response:
        """``GET /packages/{owner}`` (``type``, ``q``, ``page``, ``limit``)."""
        return self.http.get(f"packages/{quote_path(owner)}", params=params)

    def list_versions(self, owner: str, package_type: str, name: str, **params: str | int) -> requests.Response:
        """``GET /packages/{owner}/{type}/{name}``."""
        return self.http.get(self._package(owner, package_type, name), params=params)

    def latest(self, owner: str, package_type: str, name: str) -> requests.Response:
        """``GET /packages/{owner}/{type}/{name}/-/latest``."""
        return self.http.get(f"{self._package(owner, package_type, name)}/-/latest")

    def get(self, owner: str, package_type: str, name: str, version: str) -> requests.Response:
        """``GET /packages/{owner}/{type}/{name}/{version}``."""
        return self.http.get(f"{self._package(owner, package_type, name)}/{quote_path(version)}")

    def files(self, owner: str, package_type: str, name: str, version: str) -> requests.Response:
        """``GET /packages/{owner}/{type}/{name}/{version}/files``."""
        return self.http.get(f"{self._package(owner, package_type, name)}/{quote_path(version)}/files")

    def link(self, owner: str, package_type: str, name: str, repo_name: str) -> requests.Response:
        """``POST /packages/{owner}/{type}/{name}/-/link/{repo_name}`` (201)."""
        return self.http.post(f"{self._package(owner, package_type, name)}/-/link/{quote_path(repo_name)}")

    def unlink(self, owner: str, package_type: str, name: str) -> requests.Response:
        """``POST /packages/{owner}/{type}/{name}/-/unlink``."""
        return self.http.post(f"{self._package(owner, package_type, name)}/-/unlink")

    def delete_package(self, owner: str, package_type: str, name: str) -> requests.Response:
        """``DELETE /packages/{owner}/{type}/{name}``: every version (204)."""
        return self.http.delete(self._package(owner, package_type, name))

    def delete_version(self, owner: str, package_type: str, name: str, version: str) -> requests.Response:
        """``DELETE /packages/{owner}/{type}/{name}/{version}`` (204)."""
        return self.http.delete(f"{self._package(owner, package_type, name)}/{quote_path(version)}")
