"""Serving a repository file as Gitea's ``ServeBlob`` does: the media type sniffed from the first 1024 bytes
(text as ``text/plain`` whatever its markup, so a repository's HTML never runs in the forge's origin; images,
audio, video and PDF as themselves; anything else ``application/octet-stream``), always with
``X-Content-Type-Options: nosniff``, inline, and a sandboxing policy for SVG and PDF."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from flask import Response, send_file

from ..filenames import content_disposition
from ..gitcli import TreeEntry
from ..lfs.models import pointed_object
from ..lfs.pointers import POINTER_MAX, parse_pointer
from ..repos.models import Repo
from .models import RawFile, primed

__all__ = ["SNIFF_LENGTH", "serve_raw", "sniff_media_type"]

SNIFF_LENGTH = 1024
"""Gitea sniffs the media type from this many leading bytes."""
CACHE_CONTROL = "private, max-age=300"
"""Gitea's default cache duration for served content (five minutes)."""
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"BM", "image/bmp"),
    (b"\x00\x00\x01\x00", "image/x-icon"),
    (b"%PDF-", "application/pdf"),
    (b"OggS\x00", "application/ogg"),
    (b"ID3", "audio/mpeg"),
    (b"fLaC", "audio/flac"),
    (b"\x1a\x45\xdf\xa3", "video/webm"),
)
_BROWSABLE = ("image/", "audio/", "video/", "application/pdf", "application/ogg")
_BINARY_BYTES = frozenset([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
_SVG = re.compile(
    rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?(?:<!--.*?-->\s*)*<svg[\s>]", re.S
)
_SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
_PDF_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def _signature_type(head: bytes) -> str | None:
    for signature, media_type in _SIGNATURES:
        if head.startswith(signature):
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "audio/wave"
    if head[4:8] == b"ftyp":
        return "video/mp4"
    return None


def sniff_media_type(head: bytes) -> tuple[str, str | None]:
    """``(Content-Type, Content-Security-Policy or None)`` for a file starting with ``head``."""
    head = head[:SNIFF_LENGTH]
    if _SVG.match(head):
        return "image/svg+xml", _SVG_POLICY
    found = _signature_type(head)
    if found is not None and found.startswith(_BROWSABLE):
        return found, _PDF_POLICY if found == "application/pdf" else None
    if found is None and not any(byte in _BINARY_BYTES for byte in head):
        charset = "utf-8"
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as error:
            cut = len(head) == SNIFF_LENGTH and error.reason == "unexpected end of data"
            if not cut:  # a multi-byte character cut by the sniffing window is still UTF-8
                charset = "iso-8859-1"
        return f"text/plain; charset={charset}", None
    return "application/octet-stream", None


def _answer(body: bytes | Iterator[bytes], head: bytes, entry: TreeEntry, size: int | None) -> Response:
    media_type, policy = sniff_media_type(head)
    response = Response(body, status=200, content_type=media_type, direct_passthrough=not isinstance(body, bytes))
    if size is not None:
        response.headers["Content-Length"] = str(size)
    if policy is not None:
        response.headers["Content-Security-Policy"] = policy
    _common_headers(response, entry)
    return response


def _common_headers(response: Response, entry: TreeEntry) -> None:
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Disposition"] = content_disposition("inline", entry.name, fallback="file")
    response.headers["Access-Control-Expose-Headers"] = "Content-Disposition"
    response.headers["Cache-Control"] = CACHE_CONTROL
    response.headers["X-Gitea-Object-Type"] = "symlink" if entry.mode == "120000" else "file"


def _serve_lfs(path: Path, entry: TreeEntry) -> Response:
    with path.open("rb") as handle:
        head = handle.read(SNIFF_LENGTH)
    media_type, policy = sniff_media_type(head)
    response = send_file(path, mimetype=media_type.split(";")[0], conditional=True, max_age=0, etag=False)
    response.headers["Content-Type"] = media_type
    if policy is not None:
        response.headers["Content-Security-Policy"] = policy
    _common_headers(response, entry)
    return response


def serve_raw(repo: Repo, raw: RawFile) -> Response:
    """The file's bytes (an LFS pointer's object when the repository holds it, as Gitea serves it): a small
    file is read in one go, a large one streamed from ``git cat-file`` as it is read."""
    entry = raw.entry
    git = repo.git
    if entry.size <= POINTER_MAX:
        content = git.read_object(entry.sha) or b""
        stored = pointed_object(repo, content)
        pointer = parse_pointer(content)
        if stored is not None and pointer is not None:
            response = _serve_lfs(stored, entry)
            response.headers["ETag"] = f'"{pointer[0]}"'
            return response
        response = _answer(content, content, entry, len(content))
    else:
        chunks = primed(git.stream("cat-file", "blob", entry.sha))
        first = next(chunks, b"")

        def replay() -> Iterator[bytes]:
            yield first
            yield from chunks

        response = _answer(replay(), first, entry, entry.size)
    response.headers["ETag"] = f'"{entry.sha}"'
    return response
