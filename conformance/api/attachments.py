"""Issue and comment attachments over REST (Gitea 1.27): ``.../issues/{index}/assets`` and
``.../issues/comments/{id}/assets``, and the ``browser_download_url`` that serves their bytes."""

from __future__ import annotations

import requests
from urllib3 import encode_multipart_formdata

from .base import ApiArea, quote_path

__all__ = ["AttachmentsApi"]


class AttachmentsApi(ApiArea):
    """Upload, list, read, rename, delete and download the files of an issue (``index``) or a comment
    (``comment_id``)."""

    def _assets(self, owner: str, repo: str, *, index: int | None, comment_id: int | None) -> str:
        base = f"repos/{quote_path(owner)}/{quote_path(repo)}/issues"
        return f"{base}/comments/{comment_id}/assets" if comment_id is not None else f"{base}/{index}/assets"

    def list(
        self, owner: str, repo: str, *, index: int | None = None, comment_id: int | None = None
    ) -> requests.Response:
        return self.http.get(self._assets(owner, repo, index=index, comment_id=comment_id))

    def upload(
        self,
        owner: str,
        repo: str,
        filename: str,
        content: bytes,
        *,
        index: int | None = None,
        comment_id: int | None = None,
    ) -> requests.Response:
        """``POST``: the file in the multipart field ``attachment`` (201 ``Attachment``)."""
        body, content_type = encode_multipart_formdata({"attachment": (filename, content, "application/octet-stream")})
        return self.http.post(
            self._assets(owner, repo, index=index, comment_id=comment_id),
            data=body,
            headers={"Content-Type": content_type},
        )

    def get(
        self, owner: str, repo: str, attachment_id: int, *, index: int | None = None, comment_id: int | None = None
    ) -> requests.Response:
        return self.http.get(f"{self._assets(owner, repo, index=index, comment_id=comment_id)}/{attachment_id}")

    def rename(
        self,
        owner: str,
        repo: str,
        attachment_id: int,
        name: str,
        *,
        index: int | None = None,
        comment_id: int | None = None,
    ) -> requests.Response:
        """``PATCH`` with ``EditAttachmentOptions`` (201 in Gitea)."""
        path = f"{self._assets(owner, repo, index=index, comment_id=comment_id)}/{attachment_id}"
        return self.http.patch(path, json={"name": name})

    def delete(
        self, owner: str, repo: str, attachment_id: int, *, index: int | None = None, comment_id: int | None = None
    ) -> requests.Response:
        return self.http.delete(f"{self._assets(owner, repo, index=index, comment_id=comment_id)}/{attachment_id}")

    def download(self, url: str) -> requests.Response:
        """An attachment's ``browser_download_url`` (absolute)."""
        return self.http.get(url)
