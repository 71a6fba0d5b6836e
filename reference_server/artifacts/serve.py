"""Serving artifact bytes: the stored parts, whole or one range.

They stream from disk in 1 MiB pieces, so memory stays flat whatever the artifact's size.
"""

from __future__ import annotations

import bisect
import io
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, cast

from flask import Response, request
from werkzeug.wsgi import wrap_file

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

from ..filenames import content_disposition
from .models import ZIP_TYPES, ArtifactRow, stored_paths

__all__ = ["serve_raw", "serve_stored"]

SANDBOX_CSP = "default-src 'none'; sandbox"
PIECE = 1024 * 1024


def _decorate(response: Response, kind: str, filename: str) -> Response:
    response.headers["Content-Disposition"] = content_disposition(kind, filename, fallback="artifact")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = SANDBOX_CSP
    return response


def _range_not_satisfiable(size: int) -> Response:
    body = json.dumps({"code": "out_of_range", "msg": f"the requested range is not satisfiable (size {size})"})
    response = Response(body, status=416, content_type="application/json")
    response.headers["Content-Range"] = f"bytes */{size}"
    return response


class PartsReader(io.RawIOBase):
    """A read-only, seekable file over bytes ``start`` to ``stop`` of parts laid end to end.

    Handed to the WSGI server's ``wsgi.file_wrapper``, so waitress sends straight from the files
    instead of buffering what a generator yields.
    """

    def __init__(self, paths: Sequence[Path], start: int, stop: int) -> None:
        super().__init__()
        self._paths = list(paths)
        self._ends = list(itertools.accumulate(path.stat().st_size for path in self._paths))
        self._start = start
        self._length = max(stop - start, 0)
        self._pos = 0
        self._index = -1
        self._handle: io.FileIO | None = None

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._length}[whence]
        self._pos = max(base + offset, 0)
        return self._pos

    def _locate(self) -> tuple[io.FileIO, int] | None:
        """The open part holding the current position, seeked there, and how many bytes it has left."""
        remaining = self._length - self._pos
        if remaining <= 0:
            return None
        absolute = self._start + self._pos
        index = bisect.bisect_right(self._ends, absolute)
        if index >= len(self._paths):
            raise OSError("a stored artifact part is shorter than recorded")
        part_start = self._ends[index - 1] if index else 0
        if index != self._index or self._handle is None:
            if self._handle is not None:
                self._handle.close()
            self._handle = self._paths[index].open("rb", buffering=0)
            self._index = index
        self._handle.seek(absolute - part_start)
        return self._handle, min(remaining, self._ends[index] - absolute)

    def read(self, size: int | None = -1) -> bytes:
        """Up to ``size`` bytes, from one part at a time (one allocation, like a plain file read)."""
        located = self._locate()
        if located is None:
            return b""
        handle, available = located
        wanted = available if size is None or size < 0 else min(size, available)
        data = handle.read(wanted) or b""
        if wanted and not data:
            raise OSError("a stored artifact part is shorter than recorded")
        self._pos += len(data)
        return data

    def readinto(self, buffer: WriteableBuffer) -> int:
        located = self._locate()
        if located is None:
            return 0
        handle, available = located
        view = memoryview(buffer).cast("B")
        count = handle.readinto(view[: min(len(view), available)])
        if not count:
            raise OSError("a stored artifact part is shorter than recorded")
        self._pos += count
        return int(count)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        super().close()


def serve_stored(row: ArtifactRow, *, kind: str = "inline", filename: str | None = None) -> Response:
    """The stored bytes with their type: 200, 206 for one satisfiable range, 416 otherwise.

    A header with several ranges is answered with the whole content (allowed by RFC 9110).
    """
    start, stop, status = 0, row.size, 200
    wanted = request.range
    if wanted is not None and len(wanted.ranges) == 1:
        bounds = wanted.range_for_length(row.size)
        if bounds is None:
            return _range_not_satisfiable(row.size)
        start, stop = bounds
        status = 206
    reader = PartsReader(stored_paths(row), start, stop)
    response = Response(
        wrap_file(request.environ, cast("IO[bytes]", reader), PIECE),
        status=status,
        content_type=row.content_type,
        direct_passthrough=True,
    )
    response.content_length = stop - start
    response.last_modified = row.updated  # type: ignore[assignment]
    response.headers["Accept-Ranges"] = "bytes"
    response.headers["Cache-Control"] = "no-cache"
    if status == 206:
        response.headers["Content-Range"] = f"bytes {start}-{stop - 1}/{row.size}"
    return _decorate(response, kind, filename or row.file_name)


def serve_raw(row: ArtifactRow) -> Response:
    """What REST ``.../zip/raw`` serves: a ZIP as an attachment, any other single file as stored.

    As Gitea (since artifacts keep their media type): the bytes are never wrapped in an archive, so a
    file uploaded with ``skipArchive`` comes back with its content type, inline under its own name.
    """
    if row.content_type in ZIP_TYPES:
        name = row.file_name if row.file_name.lower().endswith(".zip") else row.file_name + ".zip"
        return serve_stored(row, kind="attachment", filename=name)
    return serve_stored(row, kind="inline")
