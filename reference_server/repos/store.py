"""Table and SQL of repositories (the Git data itself lives in bare repositories under ``<data_dir>/git``)."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]


def _count(sql: str, params: tuple[object, ...]) -> int:
    value = forge().db.scalar(sql, params)
    return value if isinstance(value, int) else 0


SCHEMA = """
CREATE TABLE IF NOT EXISTS repos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT '',
    private INTEGER NOT NULL DEFAULT 0,
    is_template INTEGER NOT NULL DEFAULT 0,
    default_branch TEXT NOT NULL DEFAULT 'main',
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    UNIQUE (owner_id, lower_name)
);
"""

_SELECT = (
    "SELECT r.*, a.name AS owner_name, a.is_org AS owner_is_org, a.visibility AS owner_visibility"
    " FROM repos r JOIN accounts a ON a.id = r.owner_id"
)


def repo_by_name(owner: str, name: str) -> Row | None:
    return forge().db.one(f"{_SELECT} WHERE a.lower_name = ? AND r.lower_name = ?", (owner.lower(), name.lower()))


def repo_by_id(repo_id: int) -> Row | None:
    return forge().db.one(f"{_SELECT} WHERE r.id = ?", (repo_id,))


def repos_of_owner(owner_id: int) -> list[Row]:
    return forge().db.all(f"{_SELECT} WHERE r.owner_id = ? ORDER BY r.id", (owner_id,))


def repos_of_owner_page(owner_id: int, limit: int, offset: int) -> list[Row]:
    return forge().db.all(
        f"{_SELECT} WHERE r.owner_id = ? ORDER BY r.lower_name LIMIT ? OFFSET ?", (owner_id, limit, offset)
    )


def count_repos_of_owner(owner_id: int) -> int:
    return _count("SELECT COUNT(*) FROM repos WHERE owner_id = ?", (owner_id,))


def insert_repo(
    *, owner_id: int, name: str, description: str, private: bool, is_template: bool, default_branch: str, now: int
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO repos (owner_id, name, lower_name, description, private, is_template, default_branch,"
        " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (owner_id, name, name.lower(), description, int(private), int(is_template), default_branch, now, now),
    )
    return int(cursor.lastrowid or 0)


def delete_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM repos WHERE id = ?", (repo_id,))


def touch_repo(repo_id: int, now: int) -> None:
    forge().db.execute("UPDATE repos SET updated = ? WHERE id = ?", (now, repo_id))


def set_default_branch(repo_id: int, branch: str, now: int) -> None:
    forge().db.execute("UPDATE repos SET default_branch = ?, updated = ? WHERE id = ?", (branch, now, repo_id))
