"""Repositories as records: lookups, name rules, forks, deletion and the commit lock. This module needs
storage and Git only, so the permissions (:mod:`..permissions`) can build on it; creating a repository is
:mod:`.creation`, Gitea's ``Repository`` is :mod:`.presenters`.
"""

from __future__ import annotations

import re
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import current_app

from .. import gitcache
from ..context import forge, now_seconds
from ..db import Row
from ..errors import Unprocessable
from ..events import RepoDeletedEvent
from ..gitcli import Git
from ..workers import IdleWorker
from . import store
from .errors import RepoNotFound

__all__ = [
    "Repo",
    "all_repos",
    "delete_repo",
    "fork_owned_by",
    "get_repo",
    "get_repo_by_id",
    "list_forks",
    "repo_lock",
    "repos_of_owner",
    "validate_repo_name",
]

MAX_REPO_NAME = 100
_REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
RESERVED_REPO_NAMES = frozenset({".", "..", "-"})
RESERVED_REPO_SUFFIXES = (".git", ".rss", ".atom", ".wiki")


@dataclass(frozen=True)
class Repo:
    """A repository row with its owner's name and where its bare Git repository lives."""

    id: int
    owner_id: int
    owner_name: str
    name: str
    full_name: str
    default_branch: str
    private: bool
    git_path: Path
    created: int
    updated: int
    description: str = ""
    owner_is_org: bool = False
    is_template: bool = False
    owner_visibility: str = "public"
    fork_of: int | None = None
    is_mirror: bool = False
    original_url: str = ""
    website: str = ""
    archived: bool = False
    archived_at: int = 0
    has_issues: bool = True
    has_pull_requests: bool = True

    @property
    def git(self) -> Git:
        return Git(self.git_path)


def git_path_for(owner_name: str, name: str) -> Path:
    """``<data_dir>/git/<owner>/<name>.git``, lower-cased like Gitea's repository root."""
    return forge().config.data_dir / "git" / owner_name.lower() / f"{name.lower()}.git"


def _from_row(row: Row) -> Repo:
    return Repo(
        id=row["id"],
        owner_id=row["owner_id"],
        owner_name=row["owner_name"],
        name=row["name"],
        full_name=f"{row['owner_name']}/{row['name']}",
        default_branch=row["default_branch"],
        private=bool(row["private"]),
        git_path=git_path_for(row["owner_name"], row["name"]),
        created=row["created"],
        updated=row["updated"],
        description=row["description"],
        owner_is_org=bool(row["owner_is_org"]),
        is_template=bool(row["is_template"]),
        owner_visibility=row["owner_visibility"],
        fork_of=row["fork_of"],
        is_mirror=bool(row["is_mirror"]),
        original_url=row["original_url"],
        website=row["website"],
        archived=bool(row["archived"]),
        archived_at=row["archived_at"],
        has_issues=bool(row["has_issues"]),
        has_pull_requests=bool(row["has_pull_requests"]),
    )


def get_repo(owner: str, name: str) -> Repo:
    """The repository ``owner/name`` (case-insensitive); 404 ``RepoNotFound`` otherwise."""
    row = store.repo_by_name(owner, name)
    if row is None:
        raise RepoNotFound(f"repository does not exist [owner: {owner}, name: {name}]")
    return _from_row(row)


def get_repo_by_id(repo_id: int) -> Repo:
    """The repository with this id; 404 ``RepoNotFound`` otherwise."""
    row = store.repo_by_id(repo_id)
    if row is None:
        raise RepoNotFound(f"repository does not exist [id: {repo_id}]")
    return _from_row(row)


def all_repos() -> list[Repo]:
    """Every repository of the instance, oldest first (instance-wide maintenance, the search)."""
    return [_from_row(row) for row in store.all_repos()]


def repos_of_owner(owner_id: int) -> list[Repo]:
    """Every repository of a user or organization."""
    return [_from_row(row) for row in store.repos_of_owner(owner_id)]


def list_repos_of_owner(owner_id: int, limit: int, offset: int, *, public_only: bool = False) -> tuple[list[Repo], int]:
    """One page of an owner's repositories by name, and the total (only public ones for a ``public-only`` token)."""
    rows = store.repos_of_owner_page(owner_id, limit, offset, public_only=public_only)
    return [_from_row(row) for row in rows], store.count_repos_of_owner(owner_id, public_only=public_only)


# -- names, forks, deletion -----------------------------------------------------------------------


def validate_repo_name(name: object) -> str:
    """Gitea's rules: letters, digits, ``-``, ``_``, ``.``; at most 100; not ``.``/``..``; no ``.git`` suffix."""
    if not isinstance(name, str) or not name:
        raise Unprocessable("[Name]: Required")
    if len(name) > MAX_REPO_NAME:
        raise Unprocessable(f"[Name]: MaxSize({MAX_REPO_NAME})")
    if not _REPO_NAME.match(name):
        raise Unprocessable("[Name]: AlphaDashDot: only letters, digits, '-', '_' and '.' are allowed")
    lower = name.lower()
    if lower in RESERVED_REPO_NAMES:
        raise Unprocessable(f"name is reserved [name: {name}]")
    for suffix in RESERVED_REPO_SUFFIXES:
        if lower.endswith(suffix):
            raise Unprocessable(f"name pattern is not allowed [pattern: *{suffix}]")
    return name


def list_forks(repo: Repo, limit: int, offset: int) -> tuple[list[Repo], int]:
    """One page of a repository's direct forks (oldest first) and their total."""
    return [_from_row(row) for row in store.forks_of_page(repo.id, limit, offset)], store.count_forks(repo.id)


def fork_owned_by(repo: Repo, owner_id: int) -> Repo | None:
    """The fork of ``repo`` that ``owner_id`` owns, if any (an owner has at most one)."""
    row = store.fork_of_owner(repo.id, owner_id)
    return None if row is None else _from_row(row)


def delete_repo(repo: Repo) -> None:
    """Announce the deletion (families drop what hangs off the repository), then remove the row and the Git data."""
    forge().events.publish(RepoDeletedEvent(repo.id))
    with forge().db.transaction():
        store.delete_repo(repo.id)
    gitcache.forget(repo.git_path)
    trash_root = repo.git_path.parent.parent / ".trash"
    trash = trash_root / f"{repo.git_path.stem}-{secrets.token_hex(8)}"
    try:
        trash_root.mkdir(exist_ok=True)
        repo.git_path.rename(trash)
    except OSError:
        Git(repo.git_path).remove()
        return
    # The directory left the repository's place at once; its files go in the background so the
    # request does not wait for them (and the owner's directory is empty now, not later).
    _TRASH.submit(trash)


def _remove_trash(path: Path) -> None:
    Git(path).remove()


_TRASH: IdleWorker[Path] = IdleWorker(
    _remove_trash, name="repo-trash", what="removing a deleted repository's files", idle=5.0
)
"""One thread removes deleted repositories' files, one after another (starting a thread per deletion cost
the request more than the rename that took the files out of the way)."""


def touch(repo: Repo) -> None:
    """Record that the repository changed now."""
    store.touch_repo(repo.id, now_seconds())


def set_default_branch(repo: Repo, branch: str) -> None:
    """Make ``branch`` the default (HEAD and the row)."""
    repo.git.set_head(branch)
    store.set_default_branch(repo.id, branch, now_seconds())


def repo_lock(repo: Repo) -> threading.Lock:
    """The lock that serialises commits to one repository within this app."""
    registry: dict[int, threading.Lock] = current_app.extensions.setdefault("repo_locks", {})
    guard: threading.Lock = current_app.extensions.setdefault("repo_locks_guard", threading.Lock())
    with guard:
        return registry.setdefault(repo.id, threading.Lock())
