"""The request body limit of every route, enforced before any work and without cutting a body short.

Flask's ``MAX_CONTENT_LENGTH`` alone refuses a declared ``Content-Length`` over the limit only when
a handler reads the body (a route that looks something up first answers 404 instead), and Werkzeug
silently cuts a body sent without a length (chunked, as Git sends large pushes) at the limit, so a
handler sees truncated JSON (422) or a truncated pack. Here a declared length over the limit is 413
at once, and a body without a length is read first (spooled to disk past 1 MiB) up to the limit:
over it, 413; within it, the app sees an ordinary body of known length.
"""

from __future__ import annotations

import tempfile
from typing import IO

from flask import Flask, g, request
from werkzeug.exceptions import RequestEntityTooLarge

__all__ = ["install_body_limit"]

CHUNK = 1024 * 1024


def _too_large(limit: int) -> RequestEntityTooLarge:
    return RequestEntityTooLarge(f"the request body exceeds the limit of {limit} bytes")


def _spool(source: IO[bytes], limit: int) -> tuple[IO[bytes], int]:
    """Read ``source`` to its end into a spooled file; 413 as soon as it passes ``limit``."""
    spool = tempfile.SpooledTemporaryFile(max_size=CHUNK)  # noqa: SIM115 - closed at the request's end
    size = 0
    try:
        while piece := source.read(min(CHUNK, limit + 1 - size)):
            size += len(piece)
            if size > limit:
                raise _too_large(limit)
            spool.write(piece)
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    return spool, size


def install_body_limit(app: Flask, *, exempt: tuple[str, ...] = ()) -> None:
    """Refuse bodies over ``app.config["MAX_CONTENT_LENGTH"]`` on every path not starting with ``exempt``."""

    @app.before_request
    def limit_body() -> None:
        if request.path.startswith(exempt):
            return
        limit: int = app.config["MAX_CONTENT_LENGTH"]
        length = request.content_length
        if length is not None:
            if length > limit:
                raise _too_large(limit)
            return
        environ = request.environ
        if environ.get("wsgi.input_terminated") and request.method not in ("GET", "HEAD", "OPTIONS"):
            spool, size = _spool(environ["wsgi.input"], limit)
            g.spooled_body = spool
            environ["wsgi.input"] = spool
            environ["CONTENT_LENGTH"] = str(size)

    @app.teardown_request
    def close_spool(_: BaseException | None) -> None:
        spool = g.pop("spooled_body", None)
        if spool is not None:
            spool.close()
