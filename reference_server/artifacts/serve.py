"""Serving artifact bytes: the stored file with ranges, or a one-file ZIP built on the fly.

Both stream from disk in constant memory (``send_file`` hands the open file to the WSGI server's
file wrapper; the ZIP is a generator of 1 MiB pieces).
"""

from __future__ import annotations

import json
import unicodedata
from urllib.parse import quote

from flask import Response, request, send_file
from werkzeug.exceptions import RequestedRangeNotSatisfiable

from ..context import forge
from .models import ZIP_TYPE, ZIP_TYPES, ArtifactRow
from .zipstream import ZipEntry, single_file_zip

__all__ = ["content_disposition", "serve_as_zip", "serve_stored"]

SANDBOX_CSP = "default-src 'none'; sandbox"


def content_disposition(kind: str, filename: str) -> str:
    """``inline``/``attachment`` with a quoted ASCII ``filename`` and ``filename*`` when non-ASCII."""
    ascii_name = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    ascii_name = "".join(ch for ch in ascii_name if ch.isprintable() and ch not in '"\\') or "artifact"
    value = f'{kind}; filename="{ascii_name}"'
    if ascii_name != filename:
        value += f"; filename*=UTF-8''{quote(filename, safe='')}"
    return value


def _decorate(response: Response, kind: str, filename: str) -> Response:
    response.headers["Content-Disposition"] = content_disposition(kind, filename)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = SANDBOX_CSP
    return response


def _range_not_satisfiable(size: int) -> Response:
    body = json.dumps({"code": "out_of_range", "msg": f"the requested range is not satisfiable (size {size})"})
    response = Response(body, status=416, content_type="application/json")
    response.headers["Content-Range"] = f"bytes */{size}"
    return response


def serve_stored(row: ArtifactRow, *, kind: str = "inline", filename: str | None = None) -> Response:
    """The stored bytes with their type: 200, 206 for one satisfiable range, 416 otherwise."""
    path = forge().blobs.path(row.blob_key)
    response = send_file(path, mimetype=row.content_type, conditional=False, etag=False, last_modified=row.updated)
    response.headers["Content-Type"] = row.content_type
    try:
        response.make_conditional(request.environ, accept_ranges=True, complete_length=row.size)
    except RequestedRangeNotSatisfiable:
        response.close()
        return _range_not_satisfiable(row.size)
    return _decorate(response, kind, filename or row.file_name)


def serve_as_zip(row: ArtifactRow) -> Response:
    """A ZIP of the artifact: the stored bytes when they are a ZIP, else an archive holding the one file."""
    if row.content_type in ZIP_TYPES:
        name = row.file_name if row.file_name.lower().endswith(".zip") else row.file_name + ".zip"
        return serve_stored(row, kind="attachment", filename=name)
    entry = ZipEntry(
        name=row.file_name,
        path=forge().blobs.path(row.blob_key),
        size=row.size,
        crc32=row.crc32,
        modified=row.updated,
    )
    length, chunks = single_file_zip(entry)
    response = Response(chunks, status=200, content_type=ZIP_TYPE, direct_passthrough=True)
    response.content_length = length
    response.last_modified = row.updated  # type: ignore[assignment]
    return _decorate(response, "attachment", row.name + ".zip")
