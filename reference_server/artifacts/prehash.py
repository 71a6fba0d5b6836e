"""SHA-256 of an upload's blocks computed while they arrive, so finalize only hashes what is left.

The final order of the blocks is known only when the block list comes, but every client seen (the
Azure SDK, the kit's mock runner) names block ``n`` so that ids sort by ``n`` once base64-decoded.
While blocks arrive, a background thread hashes them in that guessed order, keeping the SHA-256 state
after each block. Finalize takes the longest prefix of the committed list that matches what was hashed
(same ids, in that order, none re-uploaded since) and continues from the state there; a wrong guess
only costs re-hashing, never a wrong digest. States live in memory: after a restart finalize hashes
everything, as it would without this module.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import logging
import queue
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Resume", "block_stored", "forget", "resume_point"]

PIECE = 1024 * 1024
MAX_TRACKED_UPLOADS = 256
LOOKAHEAD = 8
"""Blocks sorting last are not hashed ahead: with concurrent uploads an earlier block may still arrive.

Waiting until this many later blocks have arrived avoids re-hashing after out-of-order arrivals; the
last ``LOOKAHEAD`` blocks are left to finalize."""

log = logging.getLogger("reference_server.artifacts")


@dataclass(frozen=True)
class Resume:
    """How far finalize can skip: the first ``count`` parts hash to ``state`` and total ``size`` bytes."""

    count: int
    size: int
    state: Any  # a hashlib sha256 object (a copy: the caller may update it)


@dataclass
class _Entry:
    block_id: str
    version: int
    size: int  # bytes of the chain up to and including this block
    state: Any


def _order_key(block_id: str) -> bytes:
    normalized = block_id.replace("-", "+").replace("_", "/").rstrip("=")
    return base64.b64decode(normalized + "=" * (-len(normalized) % 4))


@dataclass
class _Upload:
    """One pending upload: the blocks seen (sorted by decoded id, each with a version bumped at each put)
    and the hashed chain, which is always the first ``len(chain)`` blocks of that order."""

    folder: Path
    order: list[tuple[bytes, str]] = field(default_factory=list)
    versions: dict[str, int] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    chain: list[_Entry] = field(default_factory=list)
    hashing: bool = False
    mutex: threading.Lock = field(default_factory=threading.Lock)

    def stored(self, block_id: str, path: Path) -> bool:
        """Record a (re-)put block stored at ``path``; True when the worker should be asked to hash."""
        item = (_order_key(block_id), block_id)
        with self.mutex:
            position = bisect.bisect_left(self.order, item)
            if block_id not in self.versions:
                self.order.insert(position, item)
            self.versions[block_id] = self.versions.get(block_id, 0) + 1
            self.paths[block_id] = path
            del self.chain[position:]  # it sorts inside the chain or replaces a hashed block
            if self.hashing:
                return False
            self.hashing = True
            return True

    def _next(self) -> tuple[str, int, Path, _Entry | None] | None:
        """The next block to hash (the first after the chain), its version, path and the chain's tail."""
        if len(self.order) - len(self.chain) <= LOOKAHEAD:
            return None  # a block sorting before the last ones may still be on its way: leave them to finalize
        block = self.order[len(self.chain)][1]
        tail = self.chain[-1] if self.chain else None
        return block, self.versions[block], self.paths[block], tail

    def run(self, buffer: bytearray) -> None:
        """Hash blocks in guessed order until none is eligible (on the worker thread)."""
        try:
            while True:
                with self.mutex:
                    job = self._next()
                    if job is None:
                        self.hashing = False
                        return
                block, version, path, tail = job
                state = tail.state.copy() if tail is not None else hashlib.sha256()
                size = (tail.size if tail is not None else 0) + _hash_file(path, state, buffer)
                with self.mutex:
                    current = self.chain[-1] if self.chain else None
                    still_next = len(self.order) > len(self.chain) and self.order[len(self.chain)][1] == block
                    if current is tail and still_next and self.versions.get(block) == version:
                        self.chain.append(_Entry(block, version, size, state))
        except OSError:
            with self.mutex:
                self.hashing = False  # a block vanished (upload restarted or deleted): finalize hashes it all


def _hash_file(path: Path, state: Any, buffer: bytearray) -> int:
    size = 0
    view = memoryview(buffer)
    with path.open("rb", buffering=0) as handle:
        while count := handle.readinto(buffer):
            state.update(view[:count])
            size += count
    return size


def _work() -> None:
    """The one hashing thread: takes uploads with new blocks and hashes ahead, with one reused buffer."""
    buffer = bytearray(PIECE)
    while True:
        upload = _queue.get()
        try:
            upload.run(buffer)
        except Exception:  # never let one upload stop the worker; finalize then hashes everything itself
            log.exception("hashing ahead failed")
            with upload.mutex:
                upload.hashing = False


_queue: queue.SimpleQueue[_Upload] = queue.SimpleQueue()
_worker: threading.Thread | None = None
_uploads: OrderedDict[int, _Upload] = OrderedDict()
_uploads_guard = threading.Lock()


def block_stored(folder: Path, artifact_id: int, block_id: str, path: Path) -> None:
    """Note that a block of ``artifact_id`` (staged under ``folder``) was stored at ``path``; hash ahead."""
    with _uploads_guard:
        upload = _uploads.get(artifact_id)
        if upload is None or upload.folder != folder:
            upload = _uploads[artifact_id] = _Upload(folder)
        _uploads.move_to_end(artifact_id)
        while len(_uploads) > MAX_TRACKED_UPLOADS:
            _uploads.popitem(last=False)
    if upload.stored(block_id, path):
        _start_worker()
        _queue.put(upload)


def _start_worker() -> None:
    global _worker  # noqa: PLW0603 (one worker per process, started on first use)
    with _uploads_guard:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="artifact-prehash", daemon=True)
            _worker.start()


def resume_point(folder: Path, artifact_id: int, block_ids: Sequence[str]) -> Resume:
    """The longest prefix of ``block_ids`` (staged under ``folder``) already hashed, unchanged since."""
    with _uploads_guard:
        upload = _uploads.get(artifact_id)
    if upload is None or upload.folder != folder:
        return Resume(0, 0, hashlib.sha256())
    with upload.mutex:
        count, size, state = 0, 0, None
        for entry, block in zip(upload.chain, block_ids, strict=False):
            if entry.block_id != block or upload.versions.get(block) != entry.version:
                break
            count, size, state = count + 1, entry.size, entry.state
        return Resume(count, size, state.copy() if state is not None else hashlib.sha256())


def forget(artifact_id: int) -> None:
    """Drop what is known of an upload (finalized, restarted or deleted)."""
    with _uploads_guard:
        _uploads.pop(artifact_id, None)
