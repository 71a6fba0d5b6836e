"""The baseline server: the same WSGI server as ``reference-server``, storing and serving bytes with no protocol.

``PUT /blob/NAME`` streams the body to a file in the data directory (temporary name, renamed when
complete), ``GET /blob/NAME`` streams it back through the server's ``wsgi.file_wrapper``, ``DELETE``
removes it. No authentication, no hashing, no database: whatever the artifact path costs beyond this
is the protocol's cost.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from wsgiref.types import StartResponse, WSGIEnvironment

if __package__ in (None, ""):  # run as a script: make the ``benchmarks`` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import CHUNK
from reference_server import spool
from reference_server.cli import stop_on_sigint
from reference_server.keepalive import KeepAliveChannel

__all__ = ["RawBlobApp", "main", "waitress_settings"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


def waitress_settings(*, threads: int, max_body: int) -> dict[str, Any]:
    """The keyword arguments ``reference-server`` gives waitress (reference_server/cli.py), for a fair baseline.

    Only ``max_request_body_size`` differs: the baseline sends the whole file as one request, where the
    artifact path sends blocks, so it must be at least the largest size benchmarked.
    """
    return {
        "threads": threads,
        "recv_bytes": 256 * 1024,
        "max_request_body_size": max_body,
        "channel_timeout": 300,
        "connection_limit": 512,
        "clear_untrusted_proxy_headers": True,
    }


class RawBlobApp:
    """A WSGI application that is nothing but a streaming file store."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tmp = root / ".tmp"
        self.tmp.mkdir(parents=True, exist_ok=True)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", ""))
        name = path.removeprefix("/blob/") if path.startswith("/blob/") else ""
        if not _NAME.match(name):
            return self._reply(start_response, "404 Not Found", b"unknown path; use /blob/NAME\n")
        method = environ.get("REQUEST_METHOD", "GET")
        if method == "PUT":
            return self._put(environ, start_response, self.root / name)
        if method == "GET":
            return self._get(environ, start_response, self.root / name)
        if method == "DELETE":
            (self.root / name).unlink(missing_ok=True)
            return self._reply(start_response, "204 No Content", b"")
        return self._reply(start_response, "405 Method Not Allowed", b"use PUT, GET or DELETE\n")

    @staticmethod
    def _reply(start_response: StartResponse, status: str, body: bytes) -> list[bytes]:
        start_response(status, [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]

    def _put(self, environ: WSGIEnvironment, start_response: StartResponse, target: Path) -> list[bytes]:
        raw_length = str(environ.get("CONTENT_LENGTH") or "")
        if not raw_length.isdigit():
            return self._reply(start_response, "411 Length Required", b"Content-Length is required\n")
        remaining = int(raw_length)
        stream = environ["wsgi.input"]
        fd, tmp_name = tempfile.mkstemp(dir=self.tmp)
        try:
            with os.fdopen(fd, "wb") as out:
                while remaining > 0:
                    piece = stream.read(min(CHUNK, remaining))
                    if not piece:
                        break
                    out.write(piece)
                    remaining -= len(piece)
            if remaining:
                Path(tmp_name).unlink(missing_ok=True)
                return self._reply(start_response, "400 Bad Request", b"body shorter than Content-Length\n")
            Path(tmp_name).replace(target)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise
        return self._reply(start_response, "201 Created", b"")

    def _get(self, environ: WSGIEnvironment, start_response: StartResponse, target: Path) -> Iterable[bytes]:
        try:
            source = target.open("rb")
        except FileNotFoundError:
            return self._reply(start_response, "404 Not Found", b"no such blob\n")
        size = os.fstat(source.fileno()).st_size
        start_response(
            "200 OK",
            [("Content-Type", "application/octet-stream"), ("Content-Length", str(size))],
        )
        wrapper = environ.get("wsgi.file_wrapper")
        if wrapper is not None:
            return wrapper(source, CHUNK)  # type: ignore[no-any-return]
        return _read_chunks(source)


def _read_chunks(source: Any) -> Iterable[bytes]:
    """Fallback when the server offers no file wrapper (the Flask test client, for example)."""
    with source:
        while piece := source.read(CHUNK):
            yield piece


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="raw_server.py", description="Baseline blob server for the benchmark.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=16, help="waitress worker threads (reference-server's default)")
    parser.add_argument("--max-body", type=int, default=1 << 30, help="largest accepted PUT body in bytes")
    options = parser.parse_args(argv)
    stop_on_sigint()
    options.data_dir.mkdir(parents=True, exist_ok=True)
    server = spool.create_server(  # as reference-server: bodies spooled in the data directory (same disk)
        RawBlobApp(options.data_dir),
        options.data_dir / ".spool",
        channel_class=KeepAliveChannel,
        host=options.host,
        port=options.port,
        **waitress_settings(threads=options.threads, max_body=options.max_body),
    )
    port = server.effective_port
    print(f"raw-server listening on http://{options.host}:{port}/", flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # SIGINT is how the benchmark stops it
        server.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
