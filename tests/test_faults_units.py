"""The pieces behind the fault tests' guarantees, checked without a server process.

A full disk is recognised whichever layer reports it, and a transaction whose COMMIT fails never leaves
its connection inside the transaction (it would keep SQLite's write lock and block every other writer).
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from reference_server.db import Database
from reference_server.diskfull import is_disk_full
from reference_server.gitcli import GitError


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.ENOSPC, "No space left on device"),
        OSError(errno.EDQUOT, "Disk quota exceeded"),
        sqlite3.OperationalError("database or disk is full"),
        GitError(["hash-object", "-w"], 128, "error: unable to write file: No space left on device"),
    ],
)
def test_a_full_disk_is_recognised_from_every_layer(error: Exception) -> None:
    assert is_disk_full(error)


def test_a_full_disk_behind_another_error_is_recognised() -> None:
    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as inner:
            raise RuntimeError("commit failed") from inner
    except RuntimeError as outer:
        assert is_disk_full(outer)


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.EACCES, "Permission denied"),
        sqlite3.OperationalError("database is locked"),
        GitError(["update-ref"], 1, "cannot lock ref"),
        ValueError("no space here"),
    ],
)
def test_other_errors_are_not_a_full_disk(error: Exception) -> None:
    assert not is_disk_full(error)


def test_a_failed_commit_leaves_no_open_transaction(tmp_path: Path) -> None:
    """A deferred foreign key makes COMMIT itself fail, as a full disk can; the write lock must be released."""
    db = Database(tmp_path / "forge.db")
    db.apply_schema(
        [
            "CREATE TABLE parent (id INTEGER PRIMARY KEY);"
            "CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));"
        ]
    )
    with pytest.raises(sqlite3.IntegrityError), db.transaction():
        db.execute("PRAGMA defer_foreign_keys = ON")
        db.execute("INSERT INTO child (id, parent_id) VALUES (1, 42)")
    assert not db.conn.in_transaction
    assert db.scalar("SELECT COUNT(*) FROM child") == 0
    other = sqlite3.connect(tmp_path / "forge.db", timeout=0.5, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # would raise "database is locked" if the failed transaction held on
    other.execute("INSERT INTO parent (id) VALUES (1)")
    other.execute("COMMIT")
    other.close()
    db.close()
