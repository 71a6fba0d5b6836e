"""Named operations of the legacy artifact protocol (v3) at ``<site>/api/actions_pipeline/``, for the steps.

Each sends exactly the request a v3 client (``@actions/artifact`` 1.x) sends, with the job's runtime token as
a bearer token unless the call says otherwise, so a scenario can vary one thing at a time.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import requests

from conformance.client import HttpClient

__all__ = ["API_VERSION", "LegacyArtifactApi", "artifact_hash"]

API_VERSION = "6.0-preview"


def artifact_hash(name: str) -> str:
    """The URL segment Gitea gives an artifact: the hex MD5 of its name."""
    return hashlib.md5(name.encode("utf-8"), usedforsecurity=False).hexdigest()


class LegacyArtifactApi:
    """Raw v3 calls of one job; ``authorization`` "" sends no Authorization header, None the job's token."""

    def __init__(self, http: HttpClient, runtime_token: str, run_id: int) -> None:
        self.http = http
        self.runtime_token = runtime_token
        self.run_id = run_id

    def _headers(self, authorization: str | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = dict(extra or {})
        auth = f"Bearer {self.runtime_token}" if authorization is None else authorization
        if auth:
            headers["Authorization"] = auth
        return headers

    def container_path(self, run_id: int | None = None, *, api_version: bool = True) -> str:
        """``api/actions_pipeline/_apis/pipelines/workflows/<run>/artifacts`` (with ``?api-version=``)."""
        path = f"api/actions_pipeline/_apis/pipelines/workflows/{self.run_id if run_id is None else run_id}/artifacts"
        return path + (f"?api-version={API_VERSION}" if api_version else "")

    def create(
        self, name: str, *, run_id: int | None = None, authorization: str | None = None, api_version: bool = True
    ) -> requests.Response:
        """POST the container: the answer's ``fileContainerResourceUrl`` takes the files."""
        body: dict[str, Any] = {"Type": "actions_storage", "Name": name}
        return self.http.post(
            self.container_path(run_id, api_version=api_version),
            json=body,
            headers=self._headers(authorization, {"Content-Type": "application/json"}),
        )

    def put_chunk(
        self,
        upload_url: str,
        item_path: str,
        data: bytes,
        content_range: str | None,
        *,
        gzipped_from: int | None = None,
        authorization: str | None = None,
    ) -> requests.Response:
        """PUT one chunk of ``item_path`` (``<artifact>/<file>``); ``gzipped_from`` is the original size."""
        headers = {
            "Content-Type": "application/octet-stream",
            "x-actions-results-md5": base64.b64encode(hashlib.md5(data, usedforsecurity=False).digest()).decode(),
        }
        if content_range is not None:
            headers["Content-Range"] = content_range
        if gzipped_from is not None:
            headers["Content-Encoding"] = "gzip"
            headers["x-tfs-filelength"] = str(gzipped_from)
        separator = "&" if "?" in upload_url else "?"
        url = f"{upload_url}{separator}itemPath={quote(item_path, safe='')}"
        return self.http.put(url, data=data, headers=self._headers(authorization, headers))

    def confirm(self, name: str, size: int = 0, *, api_version: bool = True) -> requests.Response:
        """PATCH the size: the files of ``name`` are merged and confirmed."""
        separator = "&" if api_version else "?"
        path = f"{self.container_path(api_version=api_version)}{separator}artifactName={quote(name, safe='')}"
        return self.http.patch(path, json={"Size": size}, headers=self._headers(None))

    def list(self, *, api_version: bool = True) -> requests.Response:
        """GET the run's artifacts."""
        return self.http.get(self.container_path(api_version=api_version), headers=self._headers(None))

    def items(self, name: str, *, segment: str | None = None) -> requests.Response:
        """GET the files of ``name`` (``segment`` replaces the MD5 of the name in the path)."""
        hashed = artifact_hash(name) if segment is None else segment
        path = self.container_path(api_version=False) + f"/{hashed}/download_url?itemPath={quote(name, safe='')}"
        return self.http.get(path, headers=self._headers(None))

    def fetch(self, url: str, *, authorization: str | None = None) -> requests.Response:
        """GET a file's ``contentLocation`` accepting gzip, as the v3 client does (requests inflates the body)."""
        return self.http.get(url, headers=self._headers(authorization, {"Accept-Encoding": "gzip"}))
