"""SHA-256 of an upload's blocks computed while they arrive, so finalize has (almost) nothing left to hash.

The final order of the blocks is known only when the block list comes, but every client seen (the
Azure SDK, the kit's mock runner) names block ``n`` ``<fixed prefix><n, zero-padded>`` (base64), so ids
sort by ``n`` once decoded, and the ids say which block comes right after which: a chain of SHA-256
states, one after each block, follows that guessed order. Finalize takes the longest prefix of the
committed list that matches the chain (same ids, in that order, none re-uploaded since) and continues
from the state there; a wrong guess only costs re-hashing, never a wrong digest.

Who hashes: the request thread storing a block hashes it while writing it when it is certainly the
next one of the chain (:func:`claim`), so the bytes are read once; otherwise one background thread
re-reads stored blocks from the page cache, in order. A block is certainly next when it is numbered
as the successor of the chain's last block, or starts a numbering (its number a multiple of a
million, as index 0 padded to 12 or 16 digits is). Ids without such numbering are hashed only once
``LOOKAHEAD`` blocks sorting after them have arrived (an earlier one may still be on its way).
Finalize waits for a block being hashed in its committed order instead of hashing it a second time.
States live in memory: after a restart finalize hashes everything, as it would without this module.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import logging
import mmap
import os
import queue
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Claim", "Resume", "abandon", "block_stored", "claim", "forget", "hash_file", "resume_point"]

PIECE = 1024 * 1024
MAPPED_WINDOW = 64 * 1024 * 1024
"""Bytes of a stored file mapped at once for hashing (blocks are 8 MiB; append files may be far larger)."""
MAX_TRACKED_UPLOADS = 256
LOOKAHEAD = 8
"""Unnumbered blocks sorting last are not hashed ahead: with concurrent uploads an earlier one may
still arrive. Waiting until this many later blocks have arrived avoids re-hashing after out-of-order
arrivals; the last ``LOOKAHEAD`` of them are left to finalize."""
SERIES_START = 10**6
"""A trailing number that is a multiple of this starts a numbered series (index 0, zero-padded)."""

_TRAILING_DIGITS = re.compile(rb"[0-9]+\Z")

log = logging.getLogger("reference_server.artifacts")


@dataclass(frozen=True)
class Resume:
    """How far finalize can skip: the first ``count`` parts hash to ``state`` and total ``size`` bytes."""

    count: int
    size: int
    state: Any  # a hashlib sha256 object (a copy: the caller may update it)


@dataclass(frozen=True)
class _Key:
    """A block id's sort key (its decoded bytes) and the number it ends with, if any."""

    raw: bytes
    stem: bytes
    number: int | None
    width: int

    @classmethod
    def of(cls, block_id: str) -> _Key:
        normalized = block_id.replace("-", "+").replace("_", "/").rstrip("=")
        raw = base64.b64decode(normalized + "=" * (-len(normalized) % 4))
        match = _TRAILING_DIGITS.search(raw)
        if match is None:
            return cls(raw, raw, None, 0)
        digits = match.group()
        return cls(raw, raw[: match.start()], int(digits), len(digits))

    def follows(self, previous: _Key | None) -> bool:
        """Whether this block is certainly the one right after ``previous`` (None: the first of the upload)."""
        if self.number is None:
            return False
        if previous is None:
            return self.width >= 6 and self.number % SERIES_START == 0
        return (
            previous.number is not None
            and (previous.stem, previous.width) == (self.stem, self.width)
            and self.number == previous.number + 1
        )


@dataclass
class _Entry:
    block_id: str
    key: _Key
    version: int
    size: int  # bytes of the chain up to and including this block
    state: Any


@dataclass
class _Upload:
    """One pending upload: the blocks seen (sorted by decoded id, each with a version bumped at each put)
    and the hashed chain, which is always the first ``len(chain)`` blocks of that order.

    ``hashing`` is held by whoever extends the chain (the worker, or a request thread's claim);
    ``current`` is the block it is hashing, so finalize can wait for it instead of hashing it again.
    """

    folder: Path
    order: list[tuple[bytes, str]] = field(default_factory=list)
    keys: dict[str, _Key] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    chain: list[_Entry] = field(default_factory=list)
    hashing: bool = False
    current: str | None = None
    forgotten: bool = False
    changed: threading.Condition = field(default_factory=threading.Condition)

    def _tail(self) -> _Entry | None:
        return self.chain[-1] if self.chain else None

    def _eligible(self, key: _Key) -> bool:
        """Whether the block sorting right after the chain, with this key, may be hashed now."""
        tail = self._tail()
        return key.follows(tail.key if tail is not None else None) or len(self.order) - len(self.chain) > LOOKAHEAD

    def _next(self) -> tuple[str, int, Path, _Entry | None] | None:
        """The next block to hash (the first after the chain), its version, path and the chain's tail."""
        if self.forgotten or len(self.order) <= len(self.chain):
            return None
        block = self.order[len(self.chain)][1]
        if not self._eligible(self.keys[block]):
            return None
        return block, self.versions[block], self.paths[block], self._tail()

    def _release(self) -> bool:
        """Give up ``hashing``; True when the worker should take over (it then holds it). Under ``changed``."""
        self.hashing = self._next() is not None
        self.current = None  # set by the worker once it runs: finalize does not wait for a queued one
        self.changed.notify_all()
        return self.hashing

    def claim(self, block_id: str, key: _Key) -> Claim | None:
        """The right to hash ``block_id`` while it is written, when it is certainly the chain's next block."""
        with self.changed:
            if self.hashing or self.forgotten or block_id in self.versions:
                return None
            if bisect.bisect_left(self.order, (key.raw, block_id)) != len(self.chain):
                return None
            tail = self._tail()
            if not key.follows(tail.key if tail is not None else None):
                return None
            self.hashing, self.current = True, block_id
            state = tail.state.copy() if tail is not None else hashlib.sha256()
            return Claim(self, block_id, tail, state, tail.size if tail is not None else 0)

    def stored(self, block_id: str, path: Path, claim: Claim | None, size: int) -> bool:
        """Record a (re-)put block stored at ``path`` (hashed by ``claim`` when given); True: wake the worker."""
        key = _Key.of(block_id)
        item = (key.raw, block_id)
        with self.changed:
            position = bisect.bisect_left(self.order, item)
            if block_id not in self.versions:
                self.order.insert(position, item)
                self.keys[block_id] = key
            self.versions[block_id] = self.versions.get(block_id, 0) + 1
            self.paths[block_id] = path
            del self.chain[position:]  # it sorts inside the chain or replaces a hashed block
            if claim is None:
                if self.hashing:
                    return False  # the worker or a claim will come to it
                return self._release()
            if self._tail() is claim.tail and position == len(self.chain):
                self.chain.append(_Entry(block_id, key, self.versions[block_id], claim.size + size, claim.state))
            return self._release()

    def abandon(self) -> bool:
        """A claimed block was not stored after all; True: wake the worker."""
        with self.changed:
            return self._release()

    def run(self, buffer: bytearray) -> None:
        """Hash blocks in guessed order until none is eligible (on the worker thread, holding ``hashing``)."""
        with self.changed:
            job = self._next()
            if job is None:
                self._release()
                return
            self.current = job[0]
        try:
            while job is not None:
                block, version, path, tail = job
                state = tail.state.copy() if tail is not None else hashlib.sha256()
                size = (tail.size if tail is not None else 0) + hash_file(path, state, buffer)
                with self.changed:
                    still_next = len(self.order) > len(self.chain) and self.order[len(self.chain)][1] == block
                    if self._tail() is tail and still_next and self.versions.get(block) == version:
                        self.chain.append(_Entry(block, self.keys[block], version, size, state))
                    job = self._next()
                    if job is None:
                        self._release()
                    else:
                        self.current = job[0]
                        self.changed.notify_all()
        except OSError:
            with self.changed:  # a block vanished (upload restarted or deleted): finalize hashes it all
                self.hashing, self.current = False, None
                self.changed.notify_all()

    def resume(self, block_ids: Sequence[str], wait: float) -> Resume:
        """The longest hashed prefix of ``block_ids``, after waiting up to ``wait`` s for the one being hashed."""
        deadline = time.monotonic() + wait
        with self.changed:
            while True:
                count, size, state = 0, 0, None
                for entry, block in zip(self.chain, block_ids, strict=False):
                    if entry.block_id != block or self.versions.get(block) != entry.version:
                        break
                    count, size, state = count + 1, entry.size, entry.state
                in_progress = (
                    self.hashing
                    and count == len(self.chain)
                    and count < len(block_ids)
                    and self.current == block_ids[count]
                )
                remaining = deadline - time.monotonic()
                if not in_progress or remaining <= 0:
                    return Resume(count, size, state.copy() if state is not None else hashlib.sha256())
                self.changed.wait(remaining)


@dataclass(frozen=True)
class Claim:
    """The right to hash one block while storing it: update ``state`` with its bytes, then hand it back
    with :func:`block_stored` (or :func:`abandon` it)."""

    upload: _Upload
    block_id: str
    tail: _Entry | None
    state: Any  # the chain's state before this block (a copy), to update with the block's bytes
    size: int  # bytes of the chain before this block


def hash_file(path: Path, state: Any, buffer: bytearray | None = None) -> int:
    """Update ``state`` with a stored file's bytes; its size.

    The file is mapped, so SHA-256 reads the page cache where the bytes already are: reading it into a
    buffer instead cost about 0.6 s of CPU per GiB in copies on the development machine (as much as the
    hash itself). Mapping is safe here because nothing truncates a stored file while it is hashed (staged
    blocks are replaced by rename, the append file only under the upload's lock that finalize holds).
    Where a file cannot be mapped, ``buffer`` (or a new 1 MiB one) is read into as before.
    """
    with path.open("rb", buffering=0) as handle:
        size = os.fstat(handle.fileno()).st_size
        try:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else None
        except (OSError, ValueError):
            return _read_into(handle, state, buffer or bytearray(PIECE))
        if mapped is None:
            return 0
        with mapped, memoryview(mapped) as view:
            for start in range(0, len(view), MAPPED_WINDOW):
                state.update(view[start : start + MAPPED_WINDOW])
            return len(view)


def _read_into(handle: Any, state: Any, buffer: bytearray) -> int:
    size = 0
    view = memoryview(buffer)
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
            with upload.changed:
                upload.hashing, upload.current = False, None
                upload.changed.notify_all()


_queue: queue.SimpleQueue[_Upload] = queue.SimpleQueue()
_worker: threading.Thread | None = None
_uploads: OrderedDict[int, _Upload] = OrderedDict()
_uploads_guard = threading.Lock()


def _upload(folder: Path, artifact_id: int) -> _Upload:
    """The tracked upload of ``artifact_id`` staged under ``folder`` (a new one if another folder was seen)."""
    with _uploads_guard:
        upload = _uploads.get(artifact_id)
        if upload is None or upload.folder != folder:
            upload = _uploads[artifact_id] = _Upload(folder)
        _uploads.move_to_end(artifact_id)
        while len(_uploads) > MAX_TRACKED_UPLOADS:
            _uploads.popitem(last=False)[1].forgotten = True
    return upload


def _wake(upload: _Upload) -> None:
    global _worker  # noqa: PLW0603 (one worker per process, started on first use)
    with _uploads_guard:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="artifact-prehash", daemon=True)
            _worker.start()
    _queue.put(upload)


def claim(folder: Path, artifact_id: int, block_id: str) -> Claim | None:
    """Ask to hash a block while storing it; None when it is not (yet) known to be the chain's next block."""
    return _upload(folder, artifact_id).claim(block_id, _Key.of(block_id))


def block_stored(
    folder: Path, artifact_id: int, block_id: str, path: Path, *, claim: Claim | None = None, size: int = 0
) -> None:
    """Note that a block of ``artifact_id`` (staged under ``folder``) was stored at ``path``; hash ahead.

    With ``claim``, its state was updated with the ``size`` bytes of the block while they were written.
    """
    upload = _upload(folder, artifact_id)
    if claim is not None and claim.upload is not upload:
        abandon(claim)  # the upload restarted meanwhile: what was hashed belongs to the old one
        claim = None
    if upload.stored(block_id, path, claim, size):
        _wake(upload)


def abandon(claim: Claim) -> None:
    """Give a claim back unused (the block was not stored)."""
    if claim.upload.abandon():
        _wake(claim.upload)


def resume_point(folder: Path, artifact_id: int, block_ids: Sequence[str], *, wait: float = 0.0) -> Resume:
    """The longest prefix of ``block_ids`` (staged under ``folder``) already hashed, unchanged since.

    When the next block of that order is being hashed right now, wait up to ``wait`` seconds for it.
    """
    with _uploads_guard:
        upload = _uploads.get(artifact_id)
    if upload is None or upload.folder != folder:
        return Resume(0, 0, hashlib.sha256())
    return upload.resume(block_ids, wait)


def forget(artifact_id: int) -> None:
    """Drop what is known of an upload (finalized, restarted or deleted)."""
    with _uploads_guard:
        upload = _uploads.pop(artifact_id, None)
    if upload is not None:
        with upload.changed:
            upload.forgotten = True
