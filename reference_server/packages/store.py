"""Tables and SQL of the package registry: packages, their versions, files, and the blobs files share.

As Gitea's ``package``, ``package_version``, ``package_file`` and ``package_blob``: a blob is stored once per
SHA-256 and any number of files (of any owner) point at it; names and versions are matched without regard to
case through their ``lower_*`` columns.
"""

from __future__ import annotations

from sqlite3 import Row

from ..context import forge

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS package (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL DEFAULT 0,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL,
    UNIQUE (owner_id, type, lower_name)
);
CREATE TABLE IF NOT EXISTS package_version (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    package_id INTEGER NOT NULL REFERENCES package(id) ON DELETE CASCADE,
    creator_id INTEGER NOT NULL,
    version TEXT NOT NULL,
    lower_version TEXT NOT NULL,
    created INTEGER NOT NULL,
    UNIQUE (package_id, lower_version)
);
CREATE TABLE IF NOT EXISTS package_blob (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    size INTEGER NOT NULL,
    hash_md5 TEXT NOT NULL,
    hash_sha1 TEXT NOT NULL,
    hash_sha256 TEXT NOT NULL UNIQUE,
    hash_sha512 TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS package_file (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id INTEGER NOT NULL REFERENCES package_version(id) ON DELETE CASCADE,
    blob_id INTEGER NOT NULL REFERENCES package_blob(id),
    name TEXT NOT NULL,
    lower_name TEXT NOT NULL,
    created INTEGER NOT NULL,
    UNIQUE (version_id, lower_name)
);
CREATE INDEX IF NOT EXISTS package_file_blob ON package_file(blob_id);
"""

_VERSION_COLUMNS = """
    v.id AS id, v.version AS version, v.lower_version AS lower_version, v.created AS created,
    v.creator_id AS creator_id, p.id AS package_id, p.owner_id AS owner_id, p.repo_id AS repo_id,
    p.type AS type, p.name AS name, p.lower_name AS lower_name
"""
_VERSIONS = f"SELECT {_VERSION_COLUMNS} FROM package_version v JOIN package p ON p.id = v.package_id"  # noqa: S608 - fixed text


# -- packages ------------------------------------------------------------------------------------


def package_by_name(owner_id: int, package_type: str, name: str) -> Row | None:
    return forge().db.one(
        "SELECT * FROM package WHERE owner_id = ? AND type = ? AND lower_name = ?",
        (owner_id, package_type, name.lower()),
    )


def ensure_package(owner_id: int, package_type: str, name: str) -> int:
    """The package's id, created on first upload (its name keeps the case of that upload)."""
    forge().db.execute(
        "INSERT OR IGNORE INTO package (owner_id, type, name, lower_name) VALUES (?, ?, ?, ?)",
        (owner_id, package_type, name, name.lower()),
    )
    row = package_by_name(owner_id, package_type, name)
    assert row is not None
    return int(row["id"])


def set_repo(package_id: int, repo_id: int) -> None:
    forge().db.execute("UPDATE package SET repo_id = ? WHERE id = ?", (repo_id, package_id))


def unlink_repo_everywhere(repo_id: int) -> None:
    forge().db.execute("UPDATE package SET repo_id = 0 WHERE repo_id = ?", (repo_id,))


def delete_package(package_id: int) -> None:
    forge().db.execute("DELETE FROM package WHERE id = ?", (package_id,))


def delete_packages_of_owner(owner_id: int) -> None:
    forge().db.execute("DELETE FROM package WHERE owner_id = ?", (owner_id,))


def delete_package_if_empty(package_id: int) -> None:
    forge().db.execute(
        "DELETE FROM package WHERE id = ? AND NOT EXISTS (SELECT 1 FROM package_version WHERE package_id = ?)",
        (package_id, package_id),
    )


# -- versions ------------------------------------------------------------------------------------


def version_by_name(owner_id: int, package_type: str, name: str, version: str) -> Row | None:
    return forge().db.one(
        _VERSIONS + " WHERE p.owner_id = ? AND p.type = ? AND p.lower_name = ? AND v.lower_version = ?",
        (owner_id, package_type, name.lower(), version.lower()),
    )


def ensure_version(package_id: int, version: str, creator_id: int, now: int) -> int:
    """The version's id, created by the first upload into it."""
    forge().db.execute(
        "INSERT OR IGNORE INTO package_version (package_id, creator_id, version, lower_version, created)"
        " VALUES (?, ?, ?, ?, ?)",
        (package_id, creator_id, version, version.lower(), now),
    )
    found = forge().db.scalar(
        "SELECT id FROM package_version WHERE package_id = ? AND lower_version = ?", (package_id, version.lower())
    )
    return int(found) if isinstance(found, int) else 0


def versions_page(
    owner_id: int, *, package_type: str, query: str, package_id: int | None, limit: int, offset: int
) -> tuple[list[Row], int]:
    """The owner's versions, newest first (Gitea's default order: created, then id, both descending), filtered by
    type, by a name substring, or to one package."""
    where = ["p.owner_id = ?"]
    params: list[object] = [owner_id]
    if package_type:
        where.append("p.type = ?")
        params.append(package_type)
    if query:
        where.append("instr(p.lower_name, ?) > 0")
        params.append(query.lower())
    if package_id is not None:
        where.append("p.id = ?")
        params.append(package_id)
    clause = " WHERE " + " AND ".join(where)
    total = forge().db.scalar(
        "SELECT COUNT(*) FROM package_version v JOIN package p ON p.id = v.package_id" + clause,  # noqa: S608 - fixed conditions
        params,
    )
    rows = forge().db.all(
        _VERSIONS + clause + " ORDER BY v.created DESC, v.id DESC LIMIT ? OFFSET ?", [*params, limit, offset]
    )
    return rows, total if isinstance(total, int) else 0


def version_ids_of_package(package_id: int) -> list[int]:
    rows = forge().db.all("SELECT id FROM package_version WHERE package_id = ?", (package_id,))
    return [int(row["id"]) for row in rows]


def delete_version(version_id: int) -> None:
    forge().db.execute("DELETE FROM package_version WHERE id = ?", (version_id,))


# -- files and blobs -----------------------------------------------------------------------------


def files_of_version(version_id: int) -> list[Row]:
    """The version's files with their blob's size and hashes, in upload order."""
    return forge().db.all(
        "SELECT f.id AS id, f.name AS name, f.created AS created, f.blob_id AS blob_id, b.size AS size,"
        " b.hash_md5 AS hash_md5, b.hash_sha1 AS hash_sha1, b.hash_sha256 AS hash_sha256,"
        " b.hash_sha512 AS hash_sha512 FROM package_file f JOIN package_blob b ON b.id = f.blob_id"
        " WHERE f.version_id = ? ORDER BY f.id",
        (version_id,),
    )


def file_exists(version_id: int, name: str) -> bool:
    sql = "SELECT 1 FROM package_file WHERE version_id = ? AND lower_name = ?"
    return forge().db.scalar(sql, (version_id, name.lower())) is not None


def insert_file(version_id: int, blob_id: int, name: str, now: int) -> None:
    forge().db.execute(
        "INSERT INTO package_file (version_id, blob_id, name, lower_name, created) VALUES (?, ?, ?, ?, ?)",
        (version_id, blob_id, name, name.lower(), now),
    )


def delete_file(file_id: int) -> None:
    forge().db.execute("DELETE FROM package_file WHERE id = ?", (file_id,))


def blob_by_sha256(sha256: str) -> Row | None:
    return forge().db.one("SELECT * FROM package_blob WHERE hash_sha256 = ?", (sha256,))


def insert_blob(size: int, hashes: dict[str, str], now: int) -> int:
    cursor = forge().db.execute(
        "INSERT INTO package_blob (size, hash_md5, hash_sha1, hash_sha256, hash_sha512, created)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (size, hashes["md5"], hashes["sha1"], hashes["sha256"], hashes["sha512"], now),
    )
    return int(cursor.lastrowid or 0)


def unreferenced_blobs() -> list[Row]:
    """Blobs no file points at any more (Gitea's cleanup removes them; here they go at once)."""
    return forge().db.all(
        "SELECT id, hash_sha256 FROM package_blob b"
        " WHERE NOT EXISTS (SELECT 1 FROM package_file f WHERE f.blob_id = b.id)"
    )


def delete_blob(blob_id: int) -> None:
    forge().db.execute("DELETE FROM package_blob WHERE id = ?", (blob_id,))
