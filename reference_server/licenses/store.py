"""Table and SQL of detected repository licenses (one row per repository that was ever examined)."""

from __future__ import annotations

from ..context import forge

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS repo_license (
    repo_id INTEGER PRIMARY KEY,
    licenses TEXT NOT NULL DEFAULT '',
    commit_sha TEXT NOT NULL DEFAULT '',
    updated INTEGER NOT NULL
);
"""


def licenses_of_repo(repo_id: int) -> list[str]:
    value = forge().db.scalar("SELECT licenses FROM repo_license WHERE repo_id = ?", (repo_id,))
    return [name for name in str(value or "").split(",") if name]


def save_licenses(repo_id: int, licenses: list[str], commit_sha: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO repo_license (repo_id, licenses, commit_sha, updated) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (repo_id) DO UPDATE SET licenses = excluded.licenses, commit_sha = excluded.commit_sha,"
        " updated = excluded.updated",
        (repo_id, ",".join(licenses), commit_sha, now),
    )


def move_licenses_to(repo_id: int, commit_sha: str, now: int) -> None:
    """The stored licenses now describe ``commit_sha`` (a commit that changed no license file); one UPDATE,
    so a concurrent recomputation's licenses are never overwritten with older ones."""
    forge().db.execute(
        "UPDATE repo_license SET commit_sha = ?, updated = ? WHERE repo_id = ?", (commit_sha, now, repo_id)
    )


def delete_licenses(repo_id: int) -> None:
    forge().db.execute("DELETE FROM repo_license WHERE repo_id = ?", (repo_id,))
