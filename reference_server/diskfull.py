"""Recognising a full data disk, whichever layer noticed it (a file write, SQLite, a git command).

A write that finds no space left answers 507 Insufficient Storage with a message on every wire surface
(rendered in ``app.py``), instead of a bare 500: the condition is the server's, not the request's, and
a client should not retry it blindly (artifact clients retry 429/500/502/503/504 only).
"""

from __future__ import annotations

import errno
import sqlite3

from .gitcli import GitError

__all__ = ["INSUFFICIENT_STORAGE", "MESSAGE", "is_disk_full"]

INSUFFICIENT_STORAGE = 507
MESSAGE = "insufficient storage: the server's data disk is full; nothing of this request was stored"
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)


def _says_disk_full(error: BaseException) -> bool:
    if isinstance(error, OSError) and error.errno in _NO_SPACE:
        return True
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        return code == sqlite3.SQLITE_FULL or "database or disk is full" in str(error)
    if isinstance(error, GitError):
        text = str(error).lower()  # git's wording, and fast-import's "write error. Out of diskspace"
        return any(words in text for words in ("no space left on device", "disk quota exceeded", "out of diskspace"))
    return False


def is_disk_full(error: BaseException) -> bool:
    """True when ``error``, or an error it was raised from or while handling, says the disk is full."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if _says_disk_full(current):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
