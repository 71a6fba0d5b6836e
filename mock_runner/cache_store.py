"""The actions cache's entries on disk: an SQLite index and one blob per entry, as act_runner's artifactcache.

An entry is reserved (key, version, announced size) by a job of one repository, filled by chunks written at
their offsets (concurrently, each chunk streamed to disk in pieces, never held whole in memory), and
committed once the chunks cover exactly ``0..size-1``. Only committed entries are found, and only by jobs
of the repository that reserved them. Blob paths are built from the integer id alone, so no name a client
sends ever reaches the file system.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

__all__ = [
    "KEY_MAX_LENGTH",
    "MAX_ENTRY_SIZE",
    "PIECE",
    "CacheEntry",
    "CacheError",
    "CacheStore",
]

KEY_MAX_LENGTH = 512
"""The longest key GitHub's cache accepts (``@actions/cache`` refuses longer ones before asking)."""
VERSION_MAX_LENGTH = 512
MAX_ENTRY_SIZE = 10 * 1024**3
"""GitHub's limit for one cache entry (10 GiB), the default bound on a reservation and on written bytes."""
PIECE = 1024 * 1024
STALE_RESERVATION = 5 * 60
"""Seconds after which a reservation never committed is dropped (act_runner's ``keepTemp``)."""
KEEP_UNUSED = 7 * 24 * 3600
"""Seconds an entry nobody used is kept (act_runner's ``keepUnused``)."""
KEEP_USED = 30 * 24 * 3600
"""Seconds any entry is kept after its creation (act_runner's ``keepUsed``)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo TEXT NOT NULL,
    key TEXT NOT NULL,
    version TEXT NOT NULL,
    size INTEGER NOT NULL,
    complete INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    used_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_lookup ON entries (repo, version, complete, key);
CREATE TABLE IF NOT EXISTS chunks (
    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    start INTEGER NOT NULL,
    length INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_entry ON chunks (entry_id);
"""


class CacheError(Exception):
    """A refused cache request, with the HTTP status it is answered with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class CacheEntry:
    """One row of the index."""

    id: int
    repo: str
    key: str
    version: str
    size: int
    complete: bool
    created_at: float
    used_at: float


def _entry(row: sqlite3.Row) -> CacheEntry:
    return CacheEntry(
        id=int(row["id"]),
        repo=str(row["repo"]),
        key=str(row["key"]),
        version=str(row["version"]),
        size=int(row["size"]),
        complete=bool(row["complete"]),
        created_at=float(row["created_at"]),
        used_at=float(row["used_at"]),
    )


def _check_text(name: str, value: object, limit: int) -> str:
    if not isinstance(value, str) or not value:
        raise CacheError(400, f"{name} is required and must be a string")
    if len(value) > limit:
        raise CacheError(400, f"{name} is longer than {limit} characters")
    if any(ord(char) < 0x20 or 0xD800 <= ord(char) <= 0xDFFF for char in value):
        raise CacheError(400, f"{name} contains a control character or a lone surrogate")
    return value


def normalise_key(key: object) -> str:
    """A key as stored and compared: checked, then lower-cased (cache keys are case-insensitive)."""
    text = _check_text("key", key, KEY_MAX_LENGTH)
    if "," in text:
        raise CacheError(400, "key cannot contain commas")
    return text.lower()


def covered(chunks: Sequence[tuple[int, int]], size: int) -> bool:
    """Whether chunks ``(start, length)`` cover ``0..size-1`` with no hole (overlaps from retries are fine)."""
    reached = 0
    for start, length in sorted(chunks):
        if start > reached:
            return False
        reached = max(reached, start + length)
    return reached == size


class CacheStore:
    """Entries under ``root``: ``index.sqlite``, ``parts/<id>`` while uploading, ``blobs/<id>`` once committed."""

    def __init__(
        self, root: str | Path, *, max_entry_size: int = MAX_ENTRY_SIZE, clock: Callable[[], float] = time.time
    ) -> None:
        self.root = Path(root)
        self.max_entry_size = max_entry_size
        self.clock = clock
        (self.root / "blobs").mkdir(parents=True, exist_ok=True)
        (self.root / "parts").mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._writing: dict[int, int] = {}
        """Chunks being written per entry: a commit waits for none, so no write lands in a committed blob."""
        self._committing: set[int] = set()
        self._db = sqlite3.connect(self.root / "index.sqlite", check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def blob_path(self, entry_id: int) -> Path:
        return self.root / "blobs" / str(int(entry_id))

    def _part_path(self, entry_id: int) -> Path:
        return self.root / "parts" / str(int(entry_id))

    def get(self, entry_id: int) -> CacheEntry | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone()
        return _entry(row) if row is not None else None

    def _owned(self, repo: str, entry_id: int) -> CacheEntry:
        """The entry a job may write: reserved (400 otherwise, as act_runner), of its repository (403).

        Called with the lock held, so that checking and claiming the entry are one step.
        """
        row = self._db.execute("SELECT * FROM entries WHERE id = ?", (entry_id,)).fetchone()
        entry = _entry(row) if row is not None else None
        if entry is None:
            raise CacheError(400, f"cache {entry_id}: not reserved")
        if entry.repo != repo:
            raise CacheError(403, f"cache {entry_id}: forbidden")
        if entry.complete:
            raise CacheError(400, f"cache {entry_id} {entry.key!r}: already complete")
        if entry_id in self._committing:
            raise CacheError(400, f"cache {entry_id} {entry.key!r}: being committed")
        return entry

    # --- the protocol's operations --------------------------------------------------------------
    def reserve(self, repo: str, key: object, version: object, size: object) -> int:
        """A new entry for ``key``/``version`` (a second reservation of the same pair gets its own id)."""
        key_text = normalise_key(key)
        version_text = _check_text("version", version, VERSION_MAX_LENGTH)
        if size is None:
            announced = -1  # old clients (actions/cache@v2) do not say; the commit then takes what was written
        elif isinstance(size, int) and not isinstance(size, bool) and size >= 0:
            announced = size
        else:
            raise CacheError(400, "cacheSize must be a non-negative integer")
        if announced > self.max_entry_size:
            raise CacheError(400, f"cache size of {announced} bytes is over the limit of {self.max_entry_size} bytes")
        self.prune()
        now = self.clock()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO entries (repo, key, version, size, created_at, used_at) VALUES (?, ?, ?, ?, ?, ?)",
                (repo, key_text, version_text, announced, now, now),
            )
            entry_id = int(cursor.lastrowid or 0)
        self._part_path(entry_id).touch()
        return entry_id

    def write(self, repo: str, entry_id: int, start: int, end: int, body: IO[bytes]) -> int:
        """Write one chunk (bytes ``start..end`` inclusive) streamed from ``body``; the bytes written."""
        with self._lock:
            entry = self._owned(repo, entry_id)
            self._writing[entry_id] = self._writing.get(entry_id, 0) + 1
        try:
            return self._write(entry, start, end, body)
        finally:
            with self._lock:
                self._writing[entry_id] -= 1
                if not self._writing[entry_id]:
                    del self._writing[entry_id]

    def _write(self, entry: CacheEntry, start: int, end: int, body: IO[bytes]) -> int:
        entry_id = entry.id
        length = end - start + 1
        if start < 0 or length <= 0:
            raise CacheError(400, f"Content-Range bytes {start}-{end} is not a range")
        limit = entry.size if entry.size >= 0 else self.max_entry_size
        if end >= limit:
            raise CacheError(400, f"Content-Range bytes {start}-{end} goes past the reserved size of {limit} bytes")
        written = 0
        with open(self._part_path(entry_id), "r+b") as part:  # noqa: PTH123 (one descriptor, many offsets)
            part.seek(start)
            while written < length:
                piece = body.read(min(PIECE, length - written))
                if not piece:
                    break
                part.write(piece)
                written += len(piece)
            if written == length and body.read(1):
                written += 1
        if written != length:
            raise CacheError(400, f"Content-Range announced {length} bytes but the body has {written}")
        with self._transaction() as db:
            db.execute("INSERT INTO chunks (entry_id, start, length) VALUES (?, ?, ?)", (entry_id, start, length))
            db.execute("UPDATE entries SET used_at = ? WHERE id = ?", (self.clock(), entry_id))
        return written

    def commit(self, repo: str, entry_id: int, size: object) -> int:
        """Make the entry findable once its chunks cover exactly the announced size; the size kept."""
        with self._lock:
            entry = self._owned(repo, entry_id)
            if self._writing.get(entry_id):
                raise CacheError(400, f"cache {entry_id}: chunks are still being written")
            self._committing.add(entry_id)
        try:
            return self._commit(entry, size)
        finally:
            with self._lock:
                self._committing.discard(entry_id)

    def _commit(self, entry: CacheEntry, size: object) -> int:
        entry_id = entry.id
        with self._lock:
            rows = self._db.execute("SELECT start, length FROM chunks WHERE entry_id = ?", (entry_id,)).fetchall()
        chunks = [(int(row["start"]), int(row["length"])) for row in rows]
        written = max((start + length for start, length in chunks), default=0)
        if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size < 0):
            raise CacheError(400, "size must be a non-negative integer")
        expected = entry.size if entry.size >= 0 else (size if isinstance(size, int) else written)
        if isinstance(size, int) and size != expected:
            raise CacheError(400, f"cache {entry_id}: commit says {size} bytes, {expected} were reserved")
        if not covered(chunks, expected):
            raise CacheError(400, f"cache {entry_id}: broken file: the chunks written do not cover {expected} bytes")
        part = self._part_path(entry_id)
        with contextlib.suppress(FileNotFoundError), open(part, "r+b") as handle:  # noqa: PTH123
            handle.truncate(expected)
        try:
            part.replace(self.blob_path(entry_id))
        except FileNotFoundError as exc:
            raise CacheError(400, f"cache {entry_id}: not reserved") from exc
        with self._transaction() as db:
            db.execute(
                "UPDATE entries SET complete = 1, size = ?, used_at = ? WHERE id = ?",
                (expected, self.clock(), entry_id),
            )
            db.execute("DELETE FROM chunks WHERE entry_id = ?", (entry_id,))
        return expected

    def find(self, repo: str, keys: Sequence[str], version: str) -> CacheEntry | None:
        """The entry a restore gets: for each key in order, an exact match, else the newest with it as prefix."""
        with self._lock:
            for raw in keys:
                key = raw.lower()
                if not key:
                    continue
                row = self._db.execute(
                    "SELECT * FROM entries WHERE repo = ? AND version = ? AND complete = 1 AND key = ? "
                    "ORDER BY created_at DESC, id DESC LIMIT 1",
                    (repo, version, key),
                ).fetchone()
                if row is None:
                    row = self._db.execute(
                        "SELECT * FROM entries WHERE repo = ? AND version = ? AND complete = 1 "
                        "AND substr(key, 1, ?) = ? ORDER BY created_at DESC, id DESC LIMIT 1",
                        (repo, version, len(key), key),
                    ).fetchone()
                if row is not None and self.blob_path(int(row["id"])).is_file():
                    return _entry(row)
        return None

    def touch(self, entry_id: int) -> None:
        """Note a use (a download), which keeps the entry alive longer."""
        with self._transaction() as db:
            db.execute("UPDATE entries SET used_at = ? WHERE id = ?", (self.clock(), entry_id))

    def prune(self) -> list[int]:
        """Drop what act_runner's collector drops: stale reservations, unused or too old entries; the ids."""
        now = self.clock()
        with self._transaction() as db:
            rows = db.execute(
                "SELECT id FROM entries WHERE (complete = 0 AND used_at < ?) OR used_at < ? OR created_at < ?",
                (now - STALE_RESERVATION, now - KEEP_UNUSED, now - KEEP_USED),
            ).fetchall()
            ids = [int(row["id"]) for row in rows if int(row["id"]) not in self._writing]
            db.executemany("DELETE FROM entries WHERE id = ?", [(entry_id,) for entry_id in ids])
        for entry_id in ids:
            self._part_path(entry_id).unlink(missing_ok=True)
            self.blob_path(entry_id).unlink(missing_ok=True)
        return ids
