"""Request bodies spooled beside the blobs and linked into place (reference_server/spool.py), over real waitress."""

from __future__ import annotations

import base64
import contextlib
import errno
import http.client
import io
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from test_server_artifacts_support import Job, actions, app_context, block_list_xml, job, path_of, sha

from reference_server import spool
from reference_server.artifacts import staging

__all__ = ["actions", "app_context", "job"]

App = Callable[[dict[str, Any], Callable[..., Any]], list[bytes]]
BIG = 3 * 1024 * 1024
"""Above waitress' ``inbuf_overflow`` (512 KiB): such a body is spooled to a file."""


class Served:
    """A WSGI app served by :func:`spool.create_server` on a free loopback port, in a thread."""

    def __init__(self, app: App, folder: Path) -> None:
        self.folder = folder
        self.server = spool.create_server(app, folder, host="127.0.0.1", port=0, threads=2)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        with contextlib.suppress(OSError, ValueError):  # close() pulls the sockets from under run()
            self.server.run()

    def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.effective_port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def linking(tmp_path: Path) -> Iterator[tuple[Served, dict[str, Any]]]:
    """A server whose app links each body at ``linked.bin`` (first reading ``read`` bytes when asked)."""
    seen: dict[str, Any] = {}
    target = tmp_path / "linked.bin"

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        target.unlink(missing_ok=True)
        skip = int(environ.get("HTTP_X_READ_FIRST", "0"))
        if skip:
            environ["wsgi.input"].read(skip)
        seen["size"] = spool.link_body(environ, target)
        seen["linked"] = target.read_bytes() if target.exists() else None
        start_response("201 Created", [("Content-Length", "0")])
        return [b""]

    served = Served(app, tmp_path / "spool")
    yield served, seen
    served.close()


def test_a_large_body_is_linked_whole_and_leaves_nothing_in_the_spool(linking: tuple[Served, dict[str, Any]]) -> None:
    served, seen = linking
    body = os.urandom(BIG)
    assert served.request("PUT", "/blob", body) == 201
    assert seen == {"size": BIG, "linked": body}
    assert list(served.folder.iterdir()) == []  # spooled bodies have no name of their own


def test_a_small_body_stays_in_memory_and_is_not_linked(linking: tuple[Served, dict[str, Any]]) -> None:
    served, seen = linking
    assert served.request("PUT", "/blob", b"small") == 201
    assert seen == {"size": None, "linked": None}


def test_a_body_the_application_started_reading_is_not_linked(linking: tuple[Served, dict[str, Any]]) -> None:
    served, seen = linking
    assert served.request("PUT", "/blob", os.urandom(BIG), {"X-Read-First": "10"}) == 201
    assert seen == {"size": None, "linked": None}


def test_a_chunked_body_is_not_linked(linking: tuple[Served, dict[str, Any]]) -> None:
    served, seen = linking
    piece = os.urandom(1024 * 1024)
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(2)) + b"0\r\n\r\n"
    assert served.request("PUT", "/blob", chunked, {"Transfer-Encoding": "chunked"}) == 201
    assert seen == {"size": None, "linked": None}


def test_without_o_tmpfile_bodies_go_to_a_plain_temporary_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(spool, "O_TMPFILE", 0)
    folder = tmp_path / "spool"
    folder.mkdir()
    spooled = spool.open_spool(folder)
    assert not isinstance(spooled, spool.SpoolFile)
    spooled.write(b"still a working buffer")
    spooled.seek(0)
    assert spooled.read() == b"still a working buffer"
    spooled.close()
    assert list(folder.iterdir()) == []


def block_id(index: int) -> str:
    return base64.b64encode(f"{'f' * 32}{index:016d}".encode()).decode()


def test_an_artifact_block_spooled_by_the_server_is_stored_without_copying(
    job: Job, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_copy(*args: object, **kwargs: object) -> int:
        raise AssertionError("the block was copied instead of linked")

    monkeypatch.setattr(staging, "_write_staged", no_copy)
    blocks = [os.urandom(BIG), os.urandom(BIG)]
    url = path_of(job.create("linked"))
    served = Served(app.wsgi_app, app.extensions["forge"].blobs.tmp / "spool")  # type: ignore[arg-type]
    try:
        for index, data in enumerate(blocks):
            assert served.request("PUT", f"{url}&comp=block&blockid={block_id(index)}", data) == 201
    finally:
        served.close()
    assert job.put_block_list(url, block_list_xml([block_id(0), block_id(1)])).status_code == 201
    data = b"".join(blocks)
    assert job.finalize("linked", len(data), sha(data)).status_code == 200
    assert job.client.get(path_of(job.signed_url("linked"))).get_data() == data


class _FullDisk(io.BytesIO):
    """A spool file on a disk that fills up after ``room`` bytes."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, data: Any) -> int:
        if self.tell() + len(data) > self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(data)


def test_a_full_spool_disk_moves_the_body_to_the_system_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(spool, "open_spool", lambda folder: _FullDisk(room=10))
    buffer = spool._SpoolBuffer(tmp_path, None)
    for part in (b"first-", b"second-", b"third"):
        buffer.append(part)

    assert buffer.folder is None, "it left the full spool"
    assert not isinstance(buffer.file, _FullDisk)
    assert buffer.get(-1, skip=True) == b"first-second-third"
