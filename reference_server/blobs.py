"""Blobs on disk: written to a temporary file and renamed into place, so a crash never leaves half a blob."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

__all__ = ["BlobStore", "WrittenBlob"]

CHUNK = 1024 * 1024


class WrittenBlob:
    """Size and SHA-256 of what was written, computed on the fly."""

    def __init__(self, path: Path, size: int, sha256: str) -> None:
        self.path = path
        self.size = size
        self.sha256 = sha256


class BlobStore:
    """A folder of immutable blobs addressed by relative keys (``artifacts/12/34.bin``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tmp = root / ".tmp"
        self.tmp.mkdir(parents=True, exist_ok=True)

    def path(self, key: str) -> Path:
        target = (self.root / key).resolve()
        if not target.is_relative_to(self.root.resolve()):
            raise ValueError(f"blob key escapes the store: {key!r}")
        return target

    def write(self, key: str, chunks: Iterable[bytes]) -> WrittenBlob:
        """Stream ``chunks`` into ``key`` atomically, hashing as it goes."""
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        size = 0
        fd, tmp_name = tempfile.mkstemp(dir=self.tmp)
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in chunks:
                    digest.update(chunk)
                    size += len(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            Path(tmp_name).replace(target)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise
        return WrittenBlob(target, size, digest.hexdigest())

    def write_stream(self, key: str, stream: BinaryIO, limit: int | None = None) -> WrittenBlob:
        """Copy a readable stream (at most ``limit`` bytes) into ``key``."""

        def chunks() -> Iterable[bytes]:
            remaining = limit
            while remaining is None or remaining > 0:
                piece = stream.read(CHUNK if remaining is None else min(CHUNK, remaining))
                if not piece:
                    return
                if remaining is not None:
                    remaining -= len(piece)
                yield piece

        return self.write(key, chunks())

    def exists(self, key: str) -> bool:
        return self.path(key).is_file()

    def delete(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)

    def delete_tree(self, prefix: str) -> None:
        """Remove a folder of blobs (for example the staged blocks of one upload)."""
        folder = self.path(prefix)
        if folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
