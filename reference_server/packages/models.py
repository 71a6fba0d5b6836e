"""Rules of the package registry: who may read or write an owner's packages, the generic registry's names,
uploads stored once per SHA-256, and the REST API's lookups, links and deletions.

Gitea's ``determineAccessMode``: an owner has every right on their own packages; in an organization the best
of a member's team levels counts, and below write the teams' ``repo.packages`` unit; whoever may see the owner
reads (anonymous callers only a public owner's); site administrators pass every check. The generic registry
(``routers/api/packages/generic``) validates names as Gitea does and answers 409 for a file already in the
version; a size over ``package_generic_max_bytes`` is Gitea's 403 ``ErrQuotaTypeSize``.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from sqlite3 import Row
from typing import IO

from ..auth import Principal, has_scope
from ..context import forge, now_seconds
from ..events import AccountDeletedEvent, RepoDeletedEvent
from ..orgs import store as orgs_store
from ..permissions import is_visible_to, permission, rank
from ..repos.errors import RepoNotFound
from ..repos.models import Repo, get_repo, get_repo_by_id
from ..users.models import User
from . import store
from .errors import (
    InvalidPackageArgument,
    PackageAccessDenied,
    PackageFileExists,
    PackageFileNotFound,
    PackageNotFound,
    PackagePermissionDenied,
    PackageQuotaExceeded,
    PackageUnauthorized,
    PackageValidationError,
)

__all__ = [
    "GENERIC",
    "PackageVersion",
    "StoredFile",
    "access_mode",
    "blob_key",
    "delete_generic_file",
    "delete_generic_version",
    "delete_package",
    "delete_version",
    "files_of",
    "generic_file",
    "get_version",
    "latest_version",
    "link",
    "linked_repo",
    "on_account_deleted",
    "on_repo_deleted",
    "require_api_access",
    "require_surface_access",
    "unlink",
    "upload_generic",
    "versions_page",
]

GENERIC = "generic"
CHUNK = 1024 * 1024
_NAME = re.compile(r"\A[-_+.A-Za-z0-9]+\Z")
_FILENAME = re.compile(r"\A[-_+=:;.()\[\]{}~!@#$%^& A-Za-z0-9]+\Z")


@dataclass(frozen=True)
class PackageVersion:
    """One version of a package as Gitea's ``PackageDescriptor`` holds it."""

    id: int
    package_id: int
    owner_id: int
    repo_id: int
    type: str
    name: str
    lower_name: str
    version: str
    lower_version: str
    creator_id: int
    created: int

    @classmethod
    def from_row(cls, row: Row) -> PackageVersion:
        return cls(
            id=row["id"],
            package_id=row["package_id"],
            owner_id=row["owner_id"],
            repo_id=row["repo_id"],
            type=row["type"],
            name=row["name"],
            lower_name=row["lower_name"],
            version=row["version"],
            lower_version=row["lower_version"],
            creator_id=row["creator_id"],
            created=row["created"],
        )


@dataclass(frozen=True)
class StoredFile:
    """A file of a version and the blob it points at."""

    id: int
    name: str
    created: int
    size: int
    md5: str
    sha1: str
    sha256: str
    sha512: str

    @classmethod
    def from_row(cls, row: Row) -> StoredFile:
        return cls(
            id=row["id"],
            name=row["name"],
            created=row["created"],
            size=row["size"],
            md5=row["hash_md5"],
            sha1=row["hash_sha1"],
            sha256=row["hash_sha256"],
            sha512=row["hash_sha512"],
        )


def blob_key(sha256: str) -> str:
    """Where a blob lives: by its SHA-256, split as Gitea's content store splits keys."""
    return f"packages/{sha256[:2]}/{sha256[2:4]}/{sha256}"


# -- access --------------------------------------------------------------------------------------


def _org_mode(org: User, user_id: int) -> str:
    """The best team level of a member, and below write the best ``repo.packages`` unit of its teams."""
    teams = orgs_store.teams_of_member(org.id, user_id)
    best = "none"
    for team in teams:
        level = str(team["access"])
        if rank(level) > rank(best):
            best = level
    if rank(best) < rank("write"):
        for team in teams:
            for unit in orgs_store.units_of(team["id"]):
                if unit["unit"] == "repo.packages" and rank(str(unit["access"])) > rank(best):
                    best = str(unit["access"])
    return best


def access_mode(owner: User, principal: Principal | None) -> str:
    """What the caller may do with the owner's packages: none, read, write, admin or owner."""
    if principal is None:
        return "read" if owner.visibility == "public" else "none"
    if owner.is_org:
        mode = _org_mode(owner, principal.user_id) if principal.task_id is None else "none"
        if mode == "none" and is_visible_to(owner, principal):
            mode = "read"
        return mode
    if principal.user_id == owner.id:
        return "owner"
    return "read" if owner.visibility in ("public", "limited") else "none"


def _may(owner: User, principal: Principal | None, need: str) -> bool:
    return (principal is not None and principal.is_admin) or rank(access_mode(owner, principal)) >= rank(need)


def require_surface_access(owner: User, principal: Principal | None, *, write: bool) -> None:
    """The package surface's ``reqPackageAccess``: a token needs the ``package`` scope at the level, then the
    caller the access; both refusals are 401 (the client then offers credentials)."""
    if principal is not None and not has_scope(principal, "package", write):
        raise PackageUnauthorized()
    if not _may(owner, principal, "write" if write else "read"):
        raise PackageUnauthorized()


def require_api_access(owner: User, principal: Principal | None, *, write: bool) -> None:
    """The REST API's ``reqPackageAccess``: 403 for a caller who may not read the owner's packages, or
    (``write``) not write them."""
    if not _may(owner, principal, "write" if write else "read"):
        raise PackageAccessDenied()


# -- the generic registry ------------------------------------------------------------------------


def _check_generic_names(name: str, version: str, filename: str) -> None:
    """Gitea's checks: name of ``-_+.`` and ASCII letters and digits (one character must be one of these
    letters or digits, never ``..``); file name of a wider set, not padded, not ``.``/``..``; version not
    padded."""
    if not _NAME.match(name) or name == ".." or (len(name) == 1 and not name.isalnum()):
        raise PackageValidationError("invalid package name")
    if not _FILENAME.match(filename) or filename.strip() != filename or filename in (".", ".."):
        raise PackageValidationError("invalid filename")
    if version.strip() != version:
        raise PackageValidationError("invalid package version")


def _hashed(stream: IO[bytes], hashes: dict[str, hashlib._Hash], limit: int | None) -> Iterator[bytes]:
    """The body in chunks, feeding the hashes; past ``limit`` the upload stops with Gitea's quota refusal."""
    size = 0
    while piece := stream.read(CHUNK):
        size += len(piece)
        if limit is not None and size > limit:
            raise PackageQuotaExceeded()
        for digest in hashes.values():
            digest.update(piece)
        yield piece


def upload_generic(owner: User, creator: Principal, body: IO[bytes], *, name: str, version: str, filename: str) -> None:
    """Store one file in a version (created with its package on first upload); the bytes are written once
    per SHA-256 whoever uploads them. 409 when the version already has the file: nothing is replaced."""
    _check_generic_names(name, version, filename)
    existing = store.version_by_name(owner.id, GENERIC, name, version)
    if existing is not None and store.file_exists(int(existing["id"]), filename):
        raise PackageFileExists()  # refused before the body is read
    hashes = {"md5": hashlib.md5(usedforsecurity=False), "sha1": hashlib.sha1(usedforsecurity=False)}
    hashes["sha512"] = hashlib.sha512()
    limit = forge().config.limits.package_generic_max_bytes
    staged = forge().blobs.write(f"packages/uploads/{uuid.uuid4().hex}", _hashed(body, hashes, limit))
    digests = {key: digest.hexdigest() for key, digest in hashes.items()} | {"sha256": staged.sha256}
    now = now_seconds()
    moved: Path | None = None
    try:
        with forge().db.transaction():
            package_id = store.ensure_package(owner.id, GENERIC, name)
            version_id = store.ensure_version(package_id, version, creator.user_id, now)
            if store.file_exists(version_id, filename):
                raise PackageFileExists()
            blob = store.blob_by_sha256(staged.sha256)
            blob_id = int(blob["id"]) if blob is not None else store.insert_blob(staged.size, digests, now)
            target = forge().blobs.path(blob_key(staged.sha256))
            if blob is None or not target.is_file():  # moved while this transaction holds the write lock
                target.parent.mkdir(parents=True, exist_ok=True)
                staged.path.replace(target)
                moved = target if blob is None else None
            store.insert_file(version_id, blob_id, filename, now)
    except BaseException:
        if moved is not None:  # the blob's row was rolled back: its bytes go too
            moved.unlink(missing_ok=True)
        raise
    finally:
        staged.path.unlink(missing_ok=True)


def _version_row(owner: User, package_type: str, name: str, version: str) -> Row:
    row = store.version_by_name(owner.id, package_type, name, version)
    if row is None:
        raise PackageNotFound()
    return row


def generic_file(owner: User, name: str, version: str, filename: str) -> tuple[Path, StoredFile]:
    """The file on disk and its record; 404 for an unknown version or file."""
    row = _version_row(owner, GENERIC, name, version)
    for found in store.files_of_version(int(row["id"])):
        if str(found["name"]).lower() == filename.lower():
            return forge().blobs.path(blob_key(str(found["hash_sha256"]))), StoredFile.from_row(found)
    raise PackageFileNotFound()


def _drop_unreferenced_blobs() -> None:
    """Remove the blobs no file uses any more, rows and bytes, inside the caller's transaction (an upload
    that would reuse one waits for it, so no stored file ever loses its bytes)."""
    for blob in store.unreferenced_blobs():
        store.delete_blob(int(blob["id"]))
        forge().blobs.delete(blob_key(str(blob["hash_sha256"])))


def _remove_version(found: PackageVersion) -> None:
    with forge().db.transaction():
        store.delete_version(found.id)
        store.delete_package_if_empty(found.package_id)
        _drop_unreferenced_blobs()


def delete_generic_version(owner: User, name: str, version: str) -> None:
    """Remove a version and its files (the package too when it was its last version)."""
    _remove_version(PackageVersion.from_row(_version_row(owner, GENERIC, name, version)))


def delete_generic_file(owner: User, name: str, version: str, filename: str) -> None:
    """Remove one file; removing a version's last file removes the version, as Gitea does."""
    found = PackageVersion.from_row(_version_row(owner, GENERIC, name, version))
    files = store.files_of_version(found.id)
    match = [row for row in files if str(row["name"]).lower() == filename.lower()]
    if not match:
        raise PackageFileNotFound()
    if len(files) == 1:
        _remove_version(found)
        return
    with forge().db.transaction():
        store.delete_file(int(match[0]["id"]))
        _drop_unreferenced_blobs()


# -- the REST API --------------------------------------------------------------------------------


def versions_page(
    owner: User, *, package_type: str, query: str, limit: int, offset: int
) -> tuple[list[PackageVersion], int]:
    """The owner's package versions, newest first, by type and a name substring."""
    rows, total = store.versions_page(
        owner.id, package_type=package_type, query=query, package_id=None, limit=limit, offset=offset
    )
    return [PackageVersion.from_row(row) for row in rows], total


def _package(owner: User, package_type: str, name: str) -> Row:
    row = store.package_by_name(owner.id, package_type, name)
    if row is None:
        raise PackageNotFound()
    return row


def package_versions(
    owner: User, package_type: str, name: str, limit: int, offset: int
) -> tuple[list[PackageVersion], int]:
    """One package's versions, newest first; 404 for an unknown package."""
    package_id = int(_package(owner, package_type, name)["id"])
    rows, total = store.versions_page(
        owner.id, package_type="", query="", package_id=package_id, limit=limit, offset=offset
    )
    return [PackageVersion.from_row(row) for row in rows], total


def latest_version(owner: User, package_type: str, name: str) -> PackageVersion:
    """The package's most recently created version."""
    found, _ = package_versions(owner, package_type, name, 1, 0)
    if not found:
        raise PackageNotFound()
    return found[0]


def get_version(owner: User, package_type: str, name: str, version: str) -> PackageVersion:
    return PackageVersion.from_row(_version_row(owner, package_type, name, version))


def files_of(found: PackageVersion) -> list[StoredFile]:
    return [StoredFile.from_row(row) for row in store.files_of_version(found.id)]


def delete_version(found: PackageVersion) -> None:
    _remove_version(found)


def delete_package(owner: User, package_type: str, name: str) -> None:
    """Remove every version of a package, and the package."""
    package_id = int(_package(owner, package_type, name)["id"])
    with forge().db.transaction():
        store.delete_package(package_id)
        _drop_unreferenced_blobs()


def linked_repo(found: PackageVersion, viewer: Principal | None) -> Repo | None:
    """The repository the package is linked to, when the viewer may read it (else Gitea answers none)."""
    if not found.repo_id:
        return None
    try:
        repo = get_repo_by_id(found.repo_id)
    except RepoNotFound:
        return None
    return repo if permission(viewer, repo).can_read else None


def link(owner: User, package_type: str, name: str, repo_name: str, principal: Principal) -> None:
    """Link the package to one of its owner's repositories: 400 when it is already linked, 403 without
    write access on the repository."""
    package = _package(owner, package_type, name)
    repo = get_repo(owner.name, repo_name)
    if int(package["repo_id"]) > 0:
        raise InvalidPackageArgument()
    if not permission(principal, repo).can_write:
        raise PackagePermissionDenied()
    with forge().db.transaction():
        store.set_repo(int(package["id"]), repo.id)


def unlink(owner: User, package_type: str, name: str, principal: Principal) -> None:
    """Unlink the package: 400 when it is not linked, 403 without write access on the repository."""
    package = _package(owner, package_type, name)
    repo_id = int(package["repo_id"])
    if repo_id <= 0:
        raise InvalidPackageArgument()
    try:
        repo: Repo | None = get_repo_by_id(repo_id)
    except RepoNotFound:
        repo = None
    if repo is not None and not permission(principal, repo).can_write:
        raise PackagePermissionDenied()
    with forge().db.transaction():
        store.set_repo(int(package["id"]), 0)


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's packages stay, unlinked (Gitea sets their ``repo_id`` to 0)."""
    store.unlink_repo_everywhere(event.repo_id)


def on_account_deleted(event: AccountDeletedEvent) -> None:
    """A deleted account's packages go with it, and the bytes no other file uses (inside the deletion's
    transaction)."""
    with forge().db.transaction():
        store.delete_packages_of_owner(event.account_id)
        _drop_unreferenced_blobs()
