"""Staged upload data on disk and its assembly into the final artifact blob.

An upload in progress lives under ``artifacts/staging/<artifact id>/``: one file per block, named by
the SHA-256 of the block id (so no block id can reach outside the folder), and ``append.bin`` for
``comp=appendBlock`` uploads. Finalize concatenates the staged data into ``artifacts/files/<id>/<nonce>.bin``
(temp file + rename), computing size, SHA-256 and CRC-32 in one pass of 1 MiB pieces.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..blobs import BlobStore
from .errors import InvalidArgumentError, PreconditionError

__all__ = [
    "FILES_ROOT",
    "STAGING_ROOT",
    "Assembled",
    "append_data",
    "assemble",
    "block_exists",
    "drop_staging",
    "new_file_key",
    "sources_for",
    "store_block",
]

STAGING_ROOT = "artifacts/staging"
FILES_ROOT = "artifacts/files"
PIECE = 1024 * 1024

_append_locks: dict[int, threading.Lock] = {}
_append_locks_guard = threading.Lock()


@dataclass(frozen=True)
class Assembled:
    """The final blob written by :func:`assemble`."""

    key: str
    size: int
    sha256: str
    crc32: int


class BodyTooLargeError(InvalidArgumentError):
    """A block or append body above the configured maximum."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body exceeds the maximum block size of {limit} bytes")


def staging_prefix(artifact_id: int) -> str:
    return f"{STAGING_ROOT}/{artifact_id}"


def _block_key(artifact_id: int, block_id: str) -> str:
    digest = hashlib.sha256(block_id.encode("utf-8")).hexdigest()
    return f"{staging_prefix(artifact_id)}/blocks/{digest}"


def _append_key(artifact_id: int) -> str:
    return f"{staging_prefix(artifact_id)}/append.bin"


def new_file_key(artifact_id: int) -> str:
    """A fresh key for one finalize attempt, so a lost race never overwrites a committed blob."""
    return f"{FILES_ROOT}/{artifact_id}/{secrets.token_hex(8)}.bin"


def _pieces(stream: BinaryIO, limit: int) -> Iterator[bytes]:
    """Read ``stream`` in large pieces, refusing more than ``limit`` bytes in total."""
    total = 0
    while True:
        piece = stream.read(PIECE)
        if not piece:
            return
        total += len(piece)
        if total > limit:
            raise BodyTooLargeError(limit)
        yield piece


def store_block(blobs: BlobStore, artifact_id: int, block_id: str, stream: BinaryIO, limit: int) -> int:
    """Stage one block (replacing an earlier block of the same id atomically); returns its size."""
    return blobs.write(_block_key(artifact_id, block_id), _pieces(stream, limit)).size


def block_exists(blobs: BlobStore, artifact_id: int, block_id: str) -> bool:
    return blobs.exists(_block_key(artifact_id, block_id))


def _append_lock(artifact_id: int) -> threading.Lock:
    with _append_locks_guard:
        return _append_locks.setdefault(artifact_id, threading.Lock())


def append_data(blobs: BlobStore, artifact_id: int, stream: BinaryIO, limit: int) -> int:
    """Append a body to the artifact's append file (one append at a time per artifact); returns bytes added.

    A failed body (too large, client gone) is cut off again so the file only ever holds whole appends.
    """
    path = blobs.path(_append_key(artifact_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    with _append_lock(artifact_id), path.open("ab") as out:
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


def _staged_blocks(blobs: BlobStore, artifact_id: int) -> list[Path]:
    folder = blobs.path(f"{staging_prefix(artifact_id)}/blocks")
    return sorted(folder.iterdir()) if folder.is_dir() else []


def sources_for(blobs: BlobStore, artifact_id: int, block_list: Sequence[str] | None) -> list[Path]:
    """The files to concatenate, in order: the committed block list, else the single block or the appends."""
    if block_list is not None:
        paths = [blobs.path(_block_key(artifact_id, block_id)) for block_id in block_list]
        missing = [block_id for block_id, path in zip(block_list, paths, strict=True) if not path.is_file()]
        if missing:
            raise PreconditionError(f"the committed block list names blocks that were not uploaded: {missing[0]!r}")
        return paths
    blocks = _staged_blocks(blobs, artifact_id)
    appended = blobs.path(_append_key(artifact_id))
    if blocks and appended.is_file():
        raise PreconditionError("both blocks and appended data were uploaded; commit a block list to say which counts")
    if len(blocks) > 1:
        raise PreconditionError("more than one block was uploaded; commit a block list (comp=blocklist) first")
    if blocks:
        return blocks
    if appended.is_file():
        return [appended]
    raise PreconditionError("no data was uploaded for this artifact")


def assemble(blobs: BlobStore, key: str, sources: Sequence[Path]) -> Assembled:
    """Concatenate ``sources`` into the blob ``key`` atomically, with size, SHA-256 and CRC-32."""
    crc = 0

    def pieces() -> Iterator[bytes]:
        nonlocal crc
        for source in sources:
            with source.open("rb", buffering=0) as handle:
                while piece := handle.read(PIECE):
                    crc = zlib.crc32(piece, crc)
                    yield piece

    written = blobs.write(key, pieces())
    return Assembled(key=key, size=written.size, sha256=written.sha256, crc32=crc)


def drop_staging(blobs: BlobStore, artifact_id: int) -> None:
    blobs.delete_tree(staging_prefix(artifact_id))
    with _append_locks_guard:
        _append_locks.pop(artifact_id, None)
