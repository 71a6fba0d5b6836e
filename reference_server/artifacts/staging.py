"""Upload data on disk: staged blocks, and their publication as the artifact's stored parts.

An upload in progress lives under ``artifacts/staging/<artifact id>/``: one file per block under
``blocks/``, named by the SHA-256 of the block id (so no block id can reach outside the folder), and
``append.bin`` for ``comp=appendBlock`` uploads. Finalize does not copy them: it hashes the parts in
order (resuming from what :mod:`.prehash` hashed while the blocks arrived), then renames the whole
folder to ``artifacts/files/<id>/<nonce>/`` (one atomic rename) and the row records the ordered part
names. Downloads stream the parts one after the other. A gigabyte is thus written once, not twice.
Data is never fsync'ed: crash safety here means surviving a killed process.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..blobs import BlobStore
from . import prehash
from .errors import PayloadTooLargeError, PreconditionError

__all__ = [
    "FILES_ROOT",
    "STAGING_ROOT",
    "Digest",
    "append_data",
    "block_exists",
    "digest_parts",
    "drop_staging",
    "new_file_key",
    "parts_for",
    "publish",
    "read_at_most",
    "store_block",
    "unpublish",
    "upload_lock",
]

STAGING_ROOT = "artifacts/staging"
FILES_ROOT = "artifacts/files"
APPEND_PART = "append.bin"
PIECE = 1024 * 1024
HASH_WAIT_SECONDS = 60.0
"""How long finalize waits for the block being hashed ahead in its order, rather than hashing it twice."""

_buffers = threading.local()
_LOCK_STRIPES = tuple(threading.Lock() for _ in range(64))


@dataclass(frozen=True)
class Digest:
    """Size and SHA-256 of an artifact's parts taken in order."""

    size: int
    sha256: str


class BodyTooLargeError(PayloadTooLargeError):
    """A block or append body above the configured maximum."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body exceeds the maximum block size of {limit} bytes")


def staging_prefix(artifact_id: int) -> str:
    return f"{STAGING_ROOT}/{artifact_id}"


def _block_key(artifact_id: int, block_id: str) -> str:
    return f"{staging_prefix(artifact_id)}/{_block_part(block_id)}"


def _append_key(artifact_id: int) -> str:
    return f"{staging_prefix(artifact_id)}/{APPEND_PART}"


def new_file_key(artifact_id: int) -> str:
    """A fresh folder key for one finalize attempt, so a lost race never overwrites committed data."""
    return f"{FILES_ROOT}/{artifact_id}/{secrets.token_hex(8)}"


def _thread_buffer() -> bytearray:
    """This worker thread's reusable 1 MiB buffer.

    Reading into one long-lived buffer per thread, instead of allocating a fresh megabyte per piece,
    keeps the allocator from growing a heap arena per thread: memory stays flat however much flows.
    """
    buffer: bytearray | None = getattr(_buffers, "piece", None)
    if buffer is None:
        buffer = bytearray(PIECE)
        _buffers.piece = buffer
    return buffer


Linker = Callable[[Path], "int | None"]
"""Names the whole request body at a new path; its size, or None when it cannot (see ``spool.link_body``)."""


class ReadsInto(Protocol):
    """A body stream that can fill a caller's buffer (files, WSGI input, werkzeug's limited stream)."""

    def readinto(self, buffer: bytearray | memoryview, /) -> int | None: ...


def _pieces(stream: ReadsInto, limit: int) -> Iterator[memoryview]:
    """Read ``stream`` in large pieces (views of one reused buffer), refusing more than ``limit`` bytes."""
    buffer = _thread_buffer()
    view = memoryview(buffer)
    total = 0
    while count := stream.readinto(buffer):
        total += count
        if total > limit:
            raise BodyTooLargeError(limit)
        yield view[:count]


def read_at_most(stream: ReadsInto, count: int) -> bytes:
    """Up to ``count`` bytes of a stream, looping over short reads until it ends or ``count`` is reached.

    Reads 64 KiB at a time, so a small body (an RPC, a block list) never costs a large allocation.
    """
    out = bytearray()
    chunk = memoryview(bytearray(64 * 1024))
    while len(out) < count and (got := stream.readinto(chunk[: min(len(chunk), count - len(out))])):
        out += chunk[:got]
    return bytes(out)


def _write_staged(target: Path, pieces: Iterator[memoryview], hasher: Any = None) -> int:
    """Write a staged part through a temp file and a rename, not fsync'ed; ``hasher`` sees every byte.

    Unlike :meth:`BlobStore.write`, staged data needs no digest of its own (finalize hashes the parts
    in order, or :mod:`.prehash` does while they arrive, through ``hasher``) and is not fsync'ed: a
    killed server process loses nothing (the page cache survives it), and waiting for the disk would
    halve upload speed. Only a power cut can lose recent artifact bytes.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=".part-")
    size = 0
    try:
        with os.fdopen(fd, "wb") as out:
            for piece in pieces:
                if hasher is not None:
                    hasher.update(piece)
                out.write(piece)
                size += len(piece)
        Path(tmp_name).replace(target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return size


def _link_staged(target: Path, link: Linker) -> int | None:
    """Give the request body the name ``target`` (through a temporary name, replacing atomically); its
    size, or None when the body cannot be linked (it is then read and written as usual)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / f".part-{secrets.token_hex(8)}"
    size = link(temporary)
    if size is None:
        return None
    try:
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return size


def store_block(
    blobs: BlobStore, artifact_id: int, block_id: str, stream: ReadsInto, limit: int, *, link: Linker | None = None
) -> int:
    """Stage one block (replacing an earlier block of the same id atomically); returns its size.

    ``link`` names the request body at a path when the server spooled it where the blobs live (see
    :mod:`reference_server.spool`): the block is then stored without copying it.

    The block is hashed while written when it is the next of the upload's guessed order, else ahead
    in the background (see :mod:`.prehash`).
    """
    folder = blobs.path(staging_prefix(artifact_id))
    path = folder / _block_part(block_id)
    claim = prehash.claim(folder, artifact_id, block_id)
    try:
        size = _link_staged(path, link) if link is not None else None
        if size is None:
            size = _write_staged(path, _pieces(stream, limit), claim.state if claim is not None else None)
        elif claim is not None:
            prehash.hash_file(path, claim.state, _thread_buffer())
    except BaseException:
        if claim is not None:
            prehash.abandon(claim)
        raise
    prehash.block_stored(folder, artifact_id, block_id, path, claim=claim, size=size)
    return size


def block_exists(blobs: BlobStore, artifact_id: int, block_id: str) -> bool:
    return blobs.exists(_block_key(artifact_id, block_id))


def upload_lock(artifact_id: int) -> threading.Lock:
    """The lock serializing appends, finalize and restart of one upload (striped: no per-artifact state).

    Take it before any database transaction, never the other way round, so the two cannot deadlock.
    """
    return _LOCK_STRIPES[artifact_id % len(_LOCK_STRIPES)]


def append_data(blobs: BlobStore, artifact_id: int, stream: ReadsInto, limit: int) -> int:
    """Append a body to the artifact's append file (one append at a time per artifact); returns bytes added.

    A failed body (too large, client gone) is cut off again so the file only ever holds whole appends.
    """
    path = blobs.path(_append_key(artifact_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    with upload_lock(artifact_id), path.open("ab") as out:
        start = out.tell()
        added = 0
        try:
            for piece in _pieces(stream, limit):
                out.write(piece)
                added += len(piece)
        except BaseException:
            out.truncate(start)
            raise
    return added


def _staged_blocks(blobs: BlobStore, artifact_id: int) -> list[str]:
    folder = blobs.path(f"{staging_prefix(artifact_id)}/blocks")
    if not folder.is_dir():
        return []
    return sorted(f"blocks/{path.name}" for path in folder.iterdir() if not path.name.startswith("."))


def _block_part(block_id: str) -> str:
    return "blocks/" + hashlib.sha256(block_id.encode("utf-8")).hexdigest()


def parts_for(blobs: BlobStore, artifact_id: int, block_list: Sequence[str] | None) -> list[str]:
    """The staged parts in order (relative names): the committed block list, else the single block or the appends."""
    folder = blobs.path(staging_prefix(artifact_id))
    if block_list is not None:
        parts = [_block_part(block_id) for block_id in block_list]
        missing = [block_id for block_id, part in zip(block_list, parts, strict=True) if not (folder / part).is_file()]
        if missing:
            raise PreconditionError(f"the committed block list names blocks that were not uploaded: {missing[0]!r}")
        return parts
    blocks = _staged_blocks(blobs, artifact_id)
    appended = (folder / APPEND_PART).is_file()
    if blocks and appended:
        raise PreconditionError("both blocks and appended data were uploaded; commit a block list to say which counts")
    if len(blocks) > 1:
        raise PreconditionError("more than one block was uploaded; commit a block list (comp=blocklist) first")
    if blocks:
        return blocks
    if appended:
        return [APPEND_PART]
    raise PreconditionError("no data was uploaded for this artifact")


def digest_parts(blobs: BlobStore, artifact_id: int, parts: Sequence[str], block_list: Sequence[str] | None) -> Digest:
    """Size and SHA-256 of the staged parts in order, resuming from what :mod:`.prehash` hashed ahead."""
    folder = blobs.path(staging_prefix(artifact_id))
    resume = (
        prehash.resume_point(folder, artifact_id, block_list, wait=HASH_WAIT_SECONDS)
        if block_list
        else prehash.Resume(0, 0, hashlib.sha256())
    )
    digest = resume.state
    size = resume.size
    try:
        for part in parts[resume.count :]:
            size += prehash.hash_file(folder / part, digest, _thread_buffer())
    except FileNotFoundError as exc:
        raise PreconditionError("staged data vanished during finalize (upload restarted or deleted)") from exc
    return Digest(size=size, sha256=digest.hexdigest())


def publish(blobs: BlobStore, artifact_id: int, key: str) -> None:
    """Move the staging folder to ``key`` in one rename."""
    target = blobs.path(key)
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = blobs.path(staging_prefix(artifact_id))
    staged.mkdir(parents=True, exist_ok=True)  # an empty block list stages nothing
    staged.rename(target)
    prehash.forget(artifact_id)


def unpublish(blobs: BlobStore, artifact_id: int, key: str) -> None:
    """Undo :func:`publish` (the commit failed): the data goes back to staging for a retry."""
    staged = blobs.path(staging_prefix(artifact_id))
    if not staged.exists():
        blobs.path(key).rename(staged)
    else:
        blobs.delete_tree(key)


def drop_staging(blobs: BlobStore, artifact_id: int) -> None:
    prehash.forget(artifact_id)
    blobs.delete_tree(staging_prefix(artifact_id))
