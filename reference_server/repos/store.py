"""Table and SQL of repositories (the Git data itself lives in bare repositories under ``<data_dir>/git``)."""

from __future__ import annotations

from ..context import forge
from ..db import Database, Row

__all__ = ["SCHEMA", "upgrade"]


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
CREATE TABLE IF NOT EXISTS repo_settings (
    repo_id INTEGER PRIMARY KEY REFERENCES repos(id) ON DELETE CASCADE,
    archived INTEGER NOT NULL DEFAULT 0,
    archived_at INTEGER NOT NULL DEFAULT 0,
    has_issues INTEGER NOT NULL DEFAULT 1,
    has_pull_requests INTEGER NOT NULL DEFAULT 1
);
"""

ADDED_COLUMNS = {
    "fork_of": "INTEGER REFERENCES repos(id) ON DELETE SET NULL",
    "is_mirror": "INTEGER NOT NULL DEFAULT 0",
    "original_url": "TEXT NOT NULL DEFAULT ''",
}
"""Columns added after the first release of the table: ``upgrade`` adds them to existing databases."""


def upgrade(db: Database) -> None:
    """Add the columns of :data:`ADDED_COLUMNS` that an existing ``repos`` table lacks (fresh ones too)."""
    present = {row["name"] for row in db.all("PRAGMA table_info(repos)")}
    for name, declaration in ADDED_COLUMNS.items():
        if name not in present:
            db.execute(f"ALTER TABLE repos ADD COLUMN {name} {declaration}")


_SELECT = (
    "SELECT r.*, a.name AS owner_name, a.is_org AS owner_is_org, a.visibility AS owner_visibility,"
    " COALESCE(s.archived, 0) AS archived, COALESCE(s.archived_at, 0) AS archived_at,"
    " COALESCE(s.has_issues, 1) AS has_issues, COALESCE(s.has_pull_requests, 1) AS has_pull_requests"
    " FROM repos r JOIN accounts a ON a.id = r.owner_id LEFT JOIN repo_settings s ON s.repo_id = r.id"
)


def repo_by_name(owner: str, name: str) -> Row | None:
    return forge().db.one(f"{_SELECT} WHERE a.lower_name = ? AND r.lower_name = ?", (owner.lower(), name.lower()))


def repo_by_id(repo_id: int) -> Row | None:
    return forge().db.one(f"{_SELECT} WHERE r.id = ?", (repo_id,))


def all_repos() -> list[Row]:
    return forge().db.all(f"{_SELECT} ORDER BY r.id")


def repos_of_owner(owner_id: int) -> list[Row]:
    return forge().db.all(f"{_SELECT} WHERE r.owner_id = ? ORDER BY r.id", (owner_id,))


def repos_of_owner_page(owner_id: int, limit: int, offset: int, *, public_only: bool = False) -> list[Row]:
    return forge().db.all(
        f"{_SELECT} WHERE r.owner_id = ? AND (? = 0 OR r.private = 0) ORDER BY r.lower_name LIMIT ? OFFSET ?",
        (owner_id, int(public_only), limit, offset),
    )


def count_repos_of_owner(owner_id: int, *, public_only: bool = False) -> int:
    return _count(
        "SELECT COUNT(*) FROM repos WHERE owner_id = ? AND (? = 0 OR private = 0)", (owner_id, int(public_only))
    )


def insert_repo(
    *,
    owner_id: int,
    name: str,
    description: str,
    private: bool,
    is_template: bool,
    default_branch: str,
    now: int,
    fork_of: int | None = None,
    is_mirror: bool = False,
    original_url: str = "",
) -> int:
    cursor = forge().db.execute(
        "INSERT INTO repos (owner_id, name, lower_name, description, private, is_template, default_branch,"
        " created, updated, fork_of, is_mirror, original_url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            owner_id,
            name,
            name.lower(),
            description,
            int(private),
            int(is_template),
            default_branch,
            now,
            now,
            fork_of,
            int(is_mirror),
            original_url,
        ),
    )
    return int(cursor.lastrowid or 0)


def forks_of_page(repo_id: int, limit: int, offset: int) -> list[Row]:
    return forge().db.all(f"{_SELECT} WHERE r.fork_of = ? ORDER BY r.id LIMIT ? OFFSET ?", (repo_id, limit, offset))


def count_forks(repo_id: int) -> int:
    return _count("SELECT COUNT(*) FROM repos WHERE fork_of = ?", (repo_id,))


def fork_of_owner(repo_id: int, owner_id: int) -> Row | None:
    return forge().db.one(f"{_SELECT} WHERE r.fork_of = ? AND r.owner_id = ?", (repo_id, owner_id))


def delete_repo(repo_id: int) -> None:
    forge().db.execute("DELETE FROM repos WHERE id = ?", (repo_id,))


def touch_repo(repo_id: int, now: int) -> None:
    forge().db.execute("UPDATE repos SET updated = ? WHERE id = ?", (now, repo_id))


def set_default_branch(repo_id: int, branch: str, now: int) -> None:
    forge().db.execute("UPDATE repos SET default_branch = ?, updated = ? WHERE id = ?", (branch, now, repo_id))


def update_repo_columns(repo_id: int, values: dict[str, object], now: int) -> None:
    """Set columns of the ``repos`` row (names come from the edit code, never from a client)."""
    allowed = {"name", "owner_id", "description", "website", "private", "is_template", "default_branch"}
    columns = [column for column in values if column in allowed]
    assignments = [f"{column} = ?" for column in columns]
    params: list[object] = [values[column] for column in columns]
    if "name" in values:
        assignments.append("lower_name = ?")
        params.append(str(values["name"]).lower())
    forge().db.execute(
        f"UPDATE repos SET {', '.join([*assignments, 'updated = ?'])} WHERE id = ?",  # noqa: S608 - fixed column names
        (*params, now, repo_id),
    )


def update_repo_settings(repo_id: int, values: dict[str, int]) -> None:
    """Set the edit-only settings (archived, issue and pull request units) of a repository."""
    allowed = ("archived", "archived_at", "has_issues", "has_pull_requests")
    columns = [column for column in allowed if column in values]
    if not columns:
        return
    forge().db.execute("INSERT OR IGNORE INTO repo_settings (repo_id) VALUES (?)", (repo_id,))
    forge().db.execute(
        f"UPDATE repo_settings SET {', '.join(f'{column} = ?' for column in columns)} WHERE repo_id = ?",  # noqa: S608 - fixed column names
        (*(values[column] for column in columns), repo_id),
    )
