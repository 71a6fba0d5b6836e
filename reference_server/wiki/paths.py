"""Gitea's wiki page names: the web path a client uses, the file it is kept in, the title shown.

A page titled "Home Page" has the web path ``Home-Page`` and lives in ``Home-Page.md``; a title that
holds a dash keeps its spaces and carries the marker ``.-`` instead ("2000-01-02 meeting" is
``2000-01-02+meeting.-`` on the web and ``2000-01-02 meeting.-.md`` in Git). Written after Gitea
1.27's ``services/wiki/wiki_path.go`` (WebPathToGitPath, GitPathToWebPath, UserTitleToWebPath).
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import quote, quote_plus, unquote

__all__ = [
    "RESERVED_NAMES",
    "git_path_to_web_path",
    "go_query_unescape",
    "quoted",
    "reserved_segment",
    "title_to_web_path",
    "url_path",
    "web_path_from_request",
    "web_path_title",
    "web_path_to_git_path",
]

RESERVED_NAMES = ("_pages", "_new", "_edit", "raw")
DASH_MARKER = ".-"
_BAD_ESCAPE = re.compile(r"%(?![0-9a-fA-F]{2})")


def go_query_unescape(text: str) -> str | None:
    """Go's ``url.QueryUnescape``: ``+`` is a space, ``%XX`` a byte; None on a malformed escape."""
    if _BAD_ESCAPE.search(text):
        return None
    return unquote(text.replace("+", " "), errors="surrogateescape")


def _go_path_unescape(text: str) -> str:
    """Go's ``url.PathUnescape`` (``+`` stays), the text itself on a malformed escape."""
    decoded = go_query_unescape(text.replace("+", "%2B"))
    return text if decoded is None else decoded


def _clean_relative(*parts: str) -> str:
    """Gitea's ``util.PathJoinRelX``: backslashes are slashes, the joined path cleaned, never leaving the root."""
    joined = "/".join(part.replace("\\", "/") for part in parts if part)
    cleaned = posixpath.normpath("/" + joined).lstrip("/")
    return "" if cleaned == "." else cleaned


def _unescape_segment(segment: str) -> str:
    """A segment's display text: the marker dropped (dashes kept) or dashes read as spaces, then unescaped."""
    segment = segment[: -len(DASH_MARKER)] if segment.endswith(DASH_MARKER) else segment.replace("-", " ")
    decoded = go_query_unescape(segment)
    return segment if decoded is None else decoded


def _escape_segment(text: str, had_marker: bool) -> str:
    """A display text as a web segment: spaces become dashes unless the text needs the ``.-`` marker."""
    if had_marker or "-" in text or text.endswith(".md"):
        text += DASH_MARKER
    else:
        text = text.replace(" ", "-")
    return quote_plus(text, safe="~")


def web_path_to_git_path(web_path: str) -> str:
    """The file a page is kept in; a web path ending in ``.md`` names its file directly."""
    if web_path.endswith(".md"):
        return _clean_relative(_go_path_unescape(web_path))
    segments = []
    for segment in web_path.split("/"):
        escaped = _escape_segment(_unescape_segment(segment), segment.endswith(DASH_MARKER))
        segments.append(escaped.replace("%20", " ").replace("+", " "))
    return "/".join(segments) + ".md"


def git_path_to_web_path(git_path: str) -> str | None:
    """The web path of a file, None for a file that is no page (not ``.md``, or an undecodable name)."""
    if not git_path.endswith(".md"):
        return None
    segments = []
    for segment in git_path[: -len(".md")].split("/"):
        marker = segment.endswith(DASH_MARKER)
        body = segment[: -len(DASH_MARKER)] if marker else segment.replace("-", " ")
        decoded = go_query_unescape(body)
        if decoded is None:
            return None
        segments.append(_escape_segment(decoded, marker))
    return "/".join(segments)


def web_path_title(web_path: str) -> str:
    """The title shown for a web path (its last segment, unescaped)."""
    display = posixpath.basename(web_path)
    if display.endswith(".md"):
        display = _go_path_unescape(display[: -len(".md")])
    return _unescape_segment(display)


def web_path_from_request(name: str) -> str:
    """The web path of a page named in a request path (a slash kept as ``%2F``, as Gitea's old wiki did)."""
    return _clean_relative(name).replace("/", "%2F")


def title_to_web_path(title: str) -> str:
    """The web path of a new title; an empty title is ``unnamed`` (Gitea's UserTitleToWebPath)."""
    path = _clean_relative(_escape_segment(title.strip(), False))
    return path if path not in ("", ".") else "unnamed"


def reserved_segment(web_path: str) -> str | None:
    """The reserved name a web path uses as a segment (``_pages``, ``_new``, ``_edit``, ``raw``), if any."""
    for segment in web_path.split("/"):
        text = _unescape_segment(segment)
        if text in RESERVED_NAMES:
            return text
    return None


def quoted(text: str) -> str:
    """Go's ``%q`` for the default commit messages (``Add "Home"``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def url_path(web_path: str) -> str:
    """The web path as it goes into an ``html_url`` (already escaped; slashes kept)."""
    return quote(web_path, safe="/%+.-_~")
