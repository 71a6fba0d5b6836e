"""Disk side of the legacy (v3) artifacts: staged chunks, their merge into one stored file, removal.

A chunk of file ``<id>`` covering bytes ``S`` to ``E`` is staged as ``artifacts/legacy/<id>/staging/S-E``
(written to a temporary file and renamed, so a half-received chunk never counts). The size PATCH merges
the chunks of each file, in order of their start, into ``artifacts/legacy/<id>/<nonce>.bin`` by streaming
them one after the other; the chunks are dropped afterwards. Memory stays flat whatever the size.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..blobs import BlobStore
from .staging import ReadsInto

__all__ = [
    "LEGACY_ROOT",
    "Chunk",
    "ChunkMismatch",
    "contiguous_chunks",
    "drop_item",
    "drop_staging",
    "merge_chunks",
    "stage_chunk",
    "staged_chunks",
]

LEGACY_ROOT = "artifacts/legacy"
PIECE = 1024 * 1024
CHUNK_NAME = re.compile(r"(\d+)-(-1|\d+)")


class ChunkMismatch(ValueError):
    """A chunk's body is not what its headers announced (length or MD5)."""


@dataclass(frozen=True)
class Chunk:
    """A staged chunk: first and last byte offsets (inclusive) and its file."""

    start: int
    end: int
    path: Path


def _staging(item_id: int) -> str:
    return f"{LEGACY_ROOT}/{item_id}/staging"


def _pieces(stream: ReadsInto, expected: int, md5: Any) -> Iterator[bytes]:
    """The body in 1 MiB pieces, refusing one byte more than ``expected`` (checked again at the end)."""
    buffer = bytearray(min(PIECE, max(expected, 1)))
    total = 0
    while count := stream.readinto(buffer):
        total += count
        if total > expected:
            raise ChunkMismatch(f"the chunk body is longer than its Content-Range ({expected} bytes)")
        piece = bytes(buffer[:count])
        if md5 is not None:
            md5.update(piece)
        yield piece
    if total != expected:
        raise ChunkMismatch(f"the chunk body has {total} bytes, its Content-Range announces {expected}")


def stage_chunk(
    blobs: BlobStore, item_id: int, start: int, end: int, stream: ReadsInto, *, md5_b64: str | None
) -> None:
    """Write one chunk atomically; a body of the wrong length or MD5 leaves nothing staged."""
    md5 = hashlib.md5(usedforsecurity=False) if md5_b64 else None
    key = f"{_staging(item_id)}/{start}-{end}"
    written = blobs.write(key + ".part", _pieces(stream, end - start + 1, md5))
    if md5 is not None and md5_b64 is not None:
        actual = base64.b64encode(md5.digest()).decode("ascii")
        if actual != md5_b64.strip():
            written.path.unlink(missing_ok=True)
            raise ChunkMismatch("the chunk body does not match its x-actions-results-md5 header")
    written.path.replace(blobs.path(key))


def staged_chunks(blobs: BlobStore, item_id: int) -> list[Chunk]:
    """The staged chunks of a file, ordered by start (then end)."""
    folder = blobs.path(_staging(item_id))
    found: list[Chunk] = []
    if folder.is_dir():
        for path in folder.iterdir():
            match = CHUNK_NAME.fullmatch(path.name)
            if match is not None:
                found.append(Chunk(int(match.group(1)), int(match.group(2)), path))
    return sorted(found, key=lambda chunk: (chunk.start, chunk.end))


def contiguous_chunks(chunks: list[Chunk], total: int) -> list[Chunk] | None:
    """The chunks laying bytes 0 to ``total - 1`` end to end (a repeated chunk counts once), else None."""
    chosen: list[Chunk] = []
    next_start = 0
    for chunk in chunks:
        if chunk.start == next_start:
            chosen.append(chunk)
            next_start = chunk.end + 1
    return chosen if next_start == total else None


def merge_chunks(blobs: BlobStore, item_id: int, chunks: list[Chunk]) -> tuple[str, int]:
    """Stream the chunks into one new stored file; returns its key and size. The chunks stay (see drop)."""

    def pieces() -> Iterator[bytes]:
        for chunk in chunks:
            with chunk.path.open("rb") as handle:
                while piece := handle.read(PIECE):
                    yield piece

    key = f"{LEGACY_ROOT}/{item_id}/{secrets.token_hex(8)}.bin"
    written = blobs.write(key, pieces())
    return key, written.size


def drop_staging(blobs: BlobStore, item_id: int) -> None:
    blobs.delete_tree(_staging(item_id))


def drop_item(blobs: BlobStore, item_id: int) -> None:
    """Remove everything stored for a file: its merged file(s) and any staged chunks."""
    blobs.delete_tree(f"{LEGACY_ROOT}/{item_id}")
