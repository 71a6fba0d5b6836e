"""Tables and SQL of topics: one row per topic name with its repository count, and the repository links."""

from __future__ import annotations

from collections.abc import Iterable

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS topic (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    repo_count INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS topic_repo_count ON topic (repo_count DESC, name);
CREATE TABLE IF NOT EXISTS repo_topic (
    repo_id INTEGER NOT NULL,
    topic_id INTEGER NOT NULL REFERENCES topic (id) ON DELETE CASCADE,
    PRIMARY KEY (repo_id, topic_id)
);
CREATE INDEX IF NOT EXISTS repo_topic_topic ON repo_topic (topic_id);
"""

_LIKE_ESCAPE = str.maketrans({"\\": "\\\\", "%": "\\%", "_": "\\_"})


def names_of_repo(repo_id: int, limit: int, offset: int) -> list[str]:
    """One page of a repository's topic names, by name (as Gitea lists a repository's topics)."""
    rows = forge().db.all(
        "SELECT t.name FROM topic t JOIN repo_topic rt ON rt.topic_id = t.id WHERE rt.repo_id = ?"
        " ORDER BY t.name LIMIT ? OFFSET ?",
        (repo_id, limit, offset),
    )
    return [row["name"] for row in rows]


def _count(sql: str, params: tuple[object, ...]) -> int:
    found = forge().db.scalar(sql, params)
    return found if isinstance(found, int) else 0


def count_of_repo(repo_id: int) -> int:
    return _count("SELECT COUNT(*) FROM repo_topic WHERE repo_id = ?", (repo_id,))


def all_names_of_repo(repo_id: int) -> list[str]:
    rows = forge().db.all(
        "SELECT t.name FROM topic t JOIN repo_topic rt ON rt.topic_id = t.id WHERE rt.repo_id = ? ORDER BY t.name",
        (repo_id,),
    )
    return [row["name"] for row in rows]


def search(keyword: str, limit: int, offset: int) -> tuple[list[Row], int]:
    """Topics whose name contains ``keyword`` (all when empty), most used first, and how many match."""
    pattern = f"%{keyword.lower().translate(_LIKE_ESCAPE)}%"
    where = "WHERE name LIKE ? ESCAPE '\\'"
    rows = forge().db.all(
        f"SELECT * FROM topic {where} ORDER BY repo_count DESC, name LIMIT ? OFFSET ?",  # noqa: S608 - fixed text
        (pattern, limit, offset),
    )
    total = _count(f"SELECT COUNT(*) FROM topic {where}", (pattern,))  # noqa: S608 - fixed text
    return rows, total


def topic_id(name: str, now: int) -> int:
    """The id of the topic ``name``, created (with no repositories yet) when new."""
    forge().db.execute(
        "INSERT INTO topic (name, repo_count, created, updated) VALUES (?, 0, ?, ?) ON CONFLICT (name) DO NOTHING",
        (name, now, now),
    )
    found = forge().db.scalar("SELECT id FROM topic WHERE name = ?", (name,))
    assert isinstance(found, int)
    return found


def link(repo_id: int, names: Iterable[str], now: int) -> None:
    """Attach the topics to the repository; each newly attached topic counts one more repository."""
    for name in names:
        tid = topic_id(name, now)
        added = forge().db.execute(
            "INSERT INTO repo_topic (repo_id, topic_id) VALUES (?, ?) ON CONFLICT DO NOTHING", (repo_id, tid)
        )
        if added.rowcount:
            forge().db.execute("UPDATE topic SET repo_count = repo_count + 1, updated = ? WHERE id = ?", (now, tid))


def unlink(repo_id: int, names: Iterable[str], now: int) -> int:
    """Detach the topics from the repository; answers how many were attached."""
    removed = 0
    for name in names:
        row = forge().db.one(
            "SELECT t.id FROM topic t JOIN repo_topic rt ON rt.topic_id = t.id WHERE rt.repo_id = ? AND t.name = ?",
            (repo_id, name),
        )
        if row is None:
            continue
        forge().db.execute("DELETE FROM repo_topic WHERE repo_id = ? AND topic_id = ?", (repo_id, row["id"]))
        forge().db.execute(
            "UPDATE topic SET repo_count = MAX(repo_count - 1, 0), updated = ? WHERE id = ?", (now, row["id"])
        )
        removed += 1
    return removed
