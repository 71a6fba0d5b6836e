"""Repositories: lookups, creation over a fresh bare Git repository, deletion and the commit lock.

Who may see or change a repository is :mod:`..permissions`; Gitea's ``Repository`` is :mod:`.presenters`.
"""

from __future__ import annotations

import logging
import re
import secrets
import sqlite3
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import current_app

from .. import gitcache
from ..auth import Principal
from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..db import Row
from ..errors import BadRequest, Forbidden, Unprocessable
from ..events import RepoCreatedEvent, RepoDeletedEvent
from ..gitcli import Git, GitError, Identity, valid_branch_name
from ..labels.models import initialize_labels
from ..templates.repo_init import creation_templates
from ..users import models as users
from . import store
from .errors import RepoAlreadyExists, RepoNotFound

__all__ = [
    "Repo",
    "create_repo",
    "create_repo_from_git",
    "delete_repo",
    "fork_owned_by",
    "get_repo",
    "get_repo_by_id",
    "list_forks",
    "repo_lock",
    "repos_of_owner",
    "validate_repo_name",
]

log = logging.getLogger(__name__)

MAX_REPO_NAME = 100
_REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
RESERVED_REPO_NAMES = frozenset({".", "..", "-"})
RESERVED_REPO_SUFFIXES = (".git", ".rss", ".atom", ".wiki")
README_TEMPLATES = ("Default",)


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


def repos_of_owner(owner_id: int) -> list[Repo]:
    """Every repository of a user or organization."""
    return [_from_row(row) for row in store.repos_of_owner(owner_id)]


def list_repos_of_owner(owner_id: int, limit: int, offset: int, *, public_only: bool = False) -> tuple[list[Repo], int]:
    """One page of an owner's repositories by name, and the total (only public ones for a ``public-only`` token)."""
    rows = store.repos_of_owner_page(owner_id, limit, offset, public_only=public_only)
    return [_from_row(row) for row in rows], store.count_repos_of_owner(owner_id, public_only=public_only)


# -- creation and deletion -----------------------------------------------------------------------


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


def _options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated ``CreateRepoOption`` values (422 on anything the reference does not accept)."""
    name = validate_repo_name(options.get("name"))
    description = optional_text(options, "description", 2048)
    branch = optional_text(options, "default_branch", 100) or "main"
    if not valid_branch_name(branch):
        raise Unprocessable(f"[DefaultBranch]: invalid branch name {branch!r}")
    readme = optional_text(options, "readme", 100) or "Default"
    if optional_flag(options, "auto_init") and readme not in README_TEMPLATES:
        raise BadRequest(f"readme template does not exist, available templates: [{' '.join(README_TEMPLATES)}]")
    templates = creation_templates(options)
    object_format = optional_text(options, "object_format_name", 10) or "sha1"
    if object_format != "sha1":
        raise Unprocessable(f"[ObjectFormatName]: unsupported object format {object_format!r}")
    trust_model = optional_text(options, "trust_model", 20) or "default"
    if trust_model not in ("default", "collaborator", "committer", "collaboratorcommitter"):
        raise Unprocessable(f"[TrustModel]: unknown trust model {trust_model!r}")
    return {
        "name": name,
        "description": description,
        "private": optional_flag(options, "private"),
        "template": optional_flag(options, "template"),
        "auto_init": optional_flag(options, "auto_init"),
        "default_branch": branch,
        "templates": templates,
    }


def _initial_commit(
    git: Git, name: str, description: str, branch: str, doer: users.User, *, files: Mapping[str, bytes] | None = None
) -> None:
    """README.md plus the template files (LICENSE, .gitignore) in one commit."""
    now = now_seconds()
    who = Identity(doer.name, doer.email or f"{doer.name.lower()}@noreply.invalid", now)
    readme = f"# {name}\n\n{description}\n".encode()
    changes: dict[str, bytes | None] = {"README.md": readme, **(files or {})}
    git.commit(branch=branch, parent=None, changes=changes, message="Initial commit\n", author=who, committer=who)


def create_repo(owner: users.User, options: Mapping[str, Any], doer: Principal) -> Repo:
    """Create the row and its bare Git repository together; 409 when the owner already has the name.

    The Git repository is built in a scratch directory and renamed into place before the row commits,
    so a failure leaves neither behind.
    """
    if owner.id < 0:
        raise Forbidden("the built-in Actions user cannot own repositories")
    values = _options(options)
    target = git_path_for(owner.name, values["name"])
    scratch = target.parent / f".tmp-{secrets.token_hex(8)}.git"
    with forge().db.transaction():
        if store.repo_by_name(owner.name, values["name"]) is not None:
            raise RepoAlreadyExists("The repository with the same name already exists.")
        try:
            repo_id = store.insert_repo(
                owner_id=owner.id,
                name=values["name"],
                description=values["description"],
                private=values["private"],
                is_template=values["template"],
                default_branch=values["default_branch"],
                now=now_seconds(),
            )
        except sqlite3.IntegrityError as exc:
            raise RepoAlreadyExists("The repository with the same name already exists.") from exc
        if values["templates"].issue_labels:
            initialize_labels(repo_id, values["templates"].issue_labels)
        git = Git(scratch)
        try:
            git.init_bare(values["default_branch"])
            if values["auto_init"]:
                creator = users.get_user(doer.user_id)
                files = values["templates"].initial_files(owner, values["name"], creator.email)
                _initial_commit(
                    git, values["name"], values["description"], values["default_branch"], creator, files=files
                )
            if target.exists():
                log.warning("removing stale Git directory %s that no repository row owned", target)
                Git(target).remove()
            scratch.rename(target)
        except (GitError, OSError):
            git.remove()
            raise
    forge().events.publish(RepoCreatedEvent(repo_id, "initialised" if values["auto_init"] else "empty", doer.user_id))
    return get_repo_by_id(repo_id)


def create_repo_from_git(
    owner: users.User,
    options: Mapping[str, Any],
    populate: Callable[[Git], str],
    *,
    fork_of: int | None = None,
    mirror: bool = False,
    original_url: str = "",
) -> Repo:
    """Create a repository whose Git data ``populate`` fills (a fork's copy, a migration's fetch).

    ``populate`` runs on a scratch bare repository before any row is written or lock taken (a fetch may
    call this very server) and returns the default branch; the row and the renamed directory then
    appear together, and a failure leaves neither behind.
    """
    if owner.id < 0:
        raise Forbidden("the built-in Actions user cannot own repositories")
    values = _options(options)
    if store.repo_by_name(owner.name, values["name"]) is not None:
        raise RepoAlreadyExists("The repository with the same name already exists.")
    target = git_path_for(owner.name, values["name"])
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.parent / f".tmp-{secrets.token_hex(8)}.git"
    git = Git(scratch)
    try:
        default_branch = populate(git)
        with forge().db.transaction():
            if store.repo_by_name(owner.name, values["name"]) is not None:
                raise RepoAlreadyExists("The repository with the same name already exists.")
            repo_id = store.insert_repo(
                owner_id=owner.id,
                name=values["name"],
                description=values["description"],
                private=values["private"],
                is_template=False,
                default_branch=default_branch,
                now=now_seconds(),
                fork_of=fork_of,
                is_mirror=mirror,
                original_url=original_url,
            )
            if target.exists():
                log.warning("removing stale Git directory %s that no repository row owned", target)
                Git(target).remove()
            scratch.rename(target)
    except BaseException:
        git.remove()
        raise
    return get_repo_by_id(repo_id)


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
    threading.Thread(target=Git(trash).remove, name="repo-trash", daemon=True).start()


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
