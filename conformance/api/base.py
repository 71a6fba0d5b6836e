"""The base class of every area API and the path quoting they share."""

from __future__ import annotations

from urllib.parse import quote

from ..client import HttpClient

__all__ = ["ApiArea", "quote_path"]


def quote_path(value: str) -> str:
    """Quote a path parameter (a file path keeps its slashes).

    Segments ``.`` and ``..`` are percent-encoded so the HTTP client sends them as they are instead of
    resolving them away: the server, not the client, must judge such a path.
    """
    segments = [quote(segment, safe="") for segment in value.split("/")]
    return "/".join(segment.replace(".", "%2E") if segment in (".", "..") else segment for segment in segments)


class ApiArea:
    """Named operations of one area over an :class:`HttpClient` rooted at the API base (``.../api/v1/``).

    ``site_url`` is the forge's base URL (with its sub-path), for routes outside ``/api/v1``.
    """

    def __init__(self, http: HttpClient, site_url: str) -> None:
        self.http = http
        self.site_url = site_url if site_url.endswith("/") else site_url + "/"

    def absolute(self, path: str) -> str:
        """A URL under the forge's base URL rather than the API root."""
        return self.site_url + path.lstrip("/")
