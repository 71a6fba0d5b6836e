"""Large request bodies spooled beside the blobs, so a stored body can be given a name instead of copied.

waitress reads a whole request body before the application sees it, and keeps one larger than its
``inbuf_overflow`` (512 KiB) in an anonymous temporary file. :func:`create_server` makes waitress put
that file in a folder of the data directory, opened with ``O_TMPFILE`` (no name, so it disappears when
closed, even if the process is killed) but without ``O_EXCL``, so the application may keep it:
:func:`link_body` gives the complete body a name with ``link`` through ``/proc/self/fd``. An artifact
block is then stored without a byte being copied. Where that cannot work (no ``O_TMPFILE`` or
``/proc``, another file system, the test client, a chunked body), :func:`link_body` says so and the
caller reads the body as usual.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path
from typing import IO, Any

import waitress.server
from waitress.adjustments import Adjustments
from waitress.buffers import FileBasedBuffer, OverflowableBuffer
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.receiver import FixedStreamReceiver

from .dispatch import PriorityDispatcher

__all__ = ["SpoolFile", "create_server", "link_body", "open_spool"]

O_TMPFILE: int = getattr(os, "O_TMPFILE", 0)
"""Linux's flag for an unnamed file in a folder (0 where the system has none)."""


class SpoolFile(io.BufferedRandom):
    """An unnamed file in the spool folder that holds one request body and may be linked into place."""


def open_spool(folder: Path) -> IO[bytes]:
    """A new unnamed read-write file in ``folder``: a :class:`SpoolFile`, or a plain temporary file
    (never linkable) when the system cannot make one."""
    if O_TMPFILE:
        try:
            fd = os.open(folder, os.O_RDWR | O_TMPFILE | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError:
            pass
        else:
            return SpoolFile(io.FileIO(fd, "r+"))
    return tempfile.TemporaryFile("w+b", dir=folder)


class _SpoolBuffer(FileBasedBuffer):  # type: ignore[misc]
    """waitress' file buffer over a file of the spool folder; when the spool's disk is full, over a file of the
    system's temporary folder instead (where waitress keeps bodies), so the request still reaches the
    application, whose own write then fails with a clear 507, instead of the connection being dropped."""

    file: IO[bytes]

    def __init__(self, folder: Path, from_buffer: Any) -> None:
        self.folder: Path | None = folder
        self.received = 0
        try:
            super().__init__(self.newfile(), from_buffer)
        except OSError:
            self.folder = None
            super().__init__(self.newfile(), from_buffer)
        self.received = int(self.file.tell()) + self.remain

    def newfile(self) -> IO[bytes]:
        return open_spool(self.folder) if self.folder is not None else tempfile.TemporaryFile("w+b")

    def append(self, data: bytes) -> None:
        try:
            super().append(data)
        except OSError:
            if self.folder is None:
                raise
            self._leave_the_spool()
            super().append(data)
        self.received += len(data)

    def _leave_the_spool(self) -> None:
        """Copy what was received into a file of the system's temporary folder and go on there."""
        spooled, read_position = self.file, self.received - self.remain
        self.folder = None
        moved = self.newfile()
        spooled.seek(0)
        left = self.received
        while left > 0 and (chunk := spooled.read(min(left, 1 << 20))):
            moved.write(chunk)
            left -= len(chunk)
        moved.seek(read_position)
        self.file = moved
        with contextlib.suppress(OSError):
            spooled.close()


class _SpooledBody(OverflowableBuffer):  # type: ignore[misc]
    """A request body buffer: in memory while small, in the spool folder once past ``overflow``."""

    def __init__(self, overflow: int, folder: Path) -> None:
        super().__init__(overflow)
        self.folder = folder

    def _set_large_buffer(self) -> None:
        previous: Any = self.__dict__.get("buf")
        self.buf = _SpoolBuffer(self.folder, previous)
        if hasattr(previous, "close"):
            previous.close()
        self.overflowed = True


class _SpoolingParser(HTTPRequestParser):  # type: ignore[misc]
    """waitress' request parser, with a body of known length spooled in ``spool_folder``."""

    spool_folder: Path

    def parse_header(self, header_plus: bytes) -> None:
        super().parse_header(header_plus)
        receiver = self.body_rcv
        if isinstance(receiver, FixedStreamReceiver) and len(receiver.buf) == 0:
            receiver.buf = _SpooledBody(self.adj.inbuf_overflow, self.spool_folder)


def create_server(
    application: Any, spool_folder: Path, *, channel_class: type[HTTPChannel] = HTTPChannel, **settings: Any
) -> Any:
    """``waitress.server.create_server`` whose request bodies past ``inbuf_overflow`` go to ``spool_folder``;
    its channels are ``channel_class``'s (waitress' own by default) with the spooling parser, and its
    thread pool serves REST API requests first (:mod:`reference_server.dispatch`)."""
    spool_folder.mkdir(parents=True, exist_ok=True)
    socket_map: dict[int, Any] = {}
    dispatcher = PriorityDispatcher()
    dispatcher.set_thread_count(int(settings.get("threads", Adjustments.threads)))
    try:
        server = waitress.server.create_server(application, map=socket_map, _dispatcher=dispatcher, **settings)
    except BaseException:
        dispatcher.shutdown()
        raise
    parser = type("SpoolingParser", (_SpoolingParser,), {"spool_folder": spool_folder})
    listeners = {id(item): item for item in [server, *socket_map.values()]}  # one, or one per address
    for listener in listeners.values():
        if isinstance(listener, waitress.server.BaseWSGIServer):
            listener.channel_class = type("SpoolingChannel", (channel_class,), {"parser_class": parser})
    return server


def link_body(environ: dict[str, Any], target: Path) -> int | None:
    """Give the whole request body the new name ``target`` (which must not exist); its size, or None
    when the body is not a complete, untouched spool file that can be linked there."""
    body = environ.get("wsgi.input")
    declared = environ.get("CONTENT_LENGTH") or ""
    if not isinstance(body, SpoolFile) or not declared.isdigit() or body.tell() != 0:
        return None
    body.flush()
    size = os.fstat(body.fileno()).st_size
    if size != int(declared):
        return None
    try:
        descriptors = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:  # linkat(AT_SYMLINK_FOLLOW) on the descriptor's entry: os.link follows it only given a src_dir_fd
        os.link(str(body.fileno()), target, src_dir_fd=descriptors, follow_symlinks=True)
    except OSError:
        return None
    finally:
        os.close(descriptors)
    return size
