"""Unadopted repositories (``/admin/unadopted``, site administrators): Git directories under the repository root
that no repository record claims, for instance left by a restored backup or a failed deletion.

An administrator lists them (``owner/name``, filtered by a glob pattern: ``owner/name`` globs each part, a
single glob either), adopts one (a private repository record over the existing Git data, its default branch
what HEAD names) or deletes one (its directory goes). A directory whose owner account does not exist is not
listed: Gitea cannot adopt it either. Both answer 404 for a directory that is missing or already claimed.
"""

from __future__ import annotations

import fnmatch
import shutil
import sqlite3
from pathlib import Path

from flask import Response, request

from ..access import ADMIN
from ..auth import current_principal
from ..context import forge, now_seconds
from ..endpoints import API, EMPTY, Endpoint
from ..errors import NotFound
from ..events import RepoCreatedEvent
from ..gitcli import Git
from ..rest import empty, page_params, paged_response
from ..users import models as users
from . import store
from .errors import RepoAlreadyExists
from .models import git_path_for

__all__ = ["ENDPOINTS", "unadopted_names"]

GIT_SUFFIX = ".git"


def _root() -> Path:
    return forge().config.data_dir / "git"


def unadopted_names(pattern: str = "") -> list[str]:
    """``owner/name`` of every unclaimed repository directory of an existing account, sorted."""
    found = []
    root = _root()
    for owner_dir in sorted(root.iterdir()) if root.is_dir() else []:
        account = users.find_account(owner_dir.name) if owner_dir.is_dir() else None
        if account is None:
            continue
        for repo_dir in sorted(owner_dir.glob("*" + GIT_SUFFIX)):
            name = repo_dir.name.removesuffix(GIT_SUFFIX)
            if name.lower().endswith(".wiki"):
                continue  # a wiki is its repository's, never a repository of its own
            if (
                repo_dir.is_dir()
                and store.repo_by_name(account.name, name) is None
                and _matches(pattern, account, name)
            ):
                found.append(f"{account.name}/{name}")
    return found


def _matches(pattern: str, account: users.User, name: str) -> bool:
    if not pattern:
        return True
    owner_glob, _, repo_glob = pattern.lower().partition("/")
    if not repo_glob:
        return fnmatch.fnmatchcase(account.name.lower(), owner_glob) or fnmatch.fnmatchcase(name, owner_glob)
    return fnmatch.fnmatchcase(account.name.lower(), owner_glob) and fnmatch.fnmatchcase(name, repo_glob)


def _unclaimed(owner: str, name: str) -> tuple[users.User, Path]:
    """The owner and the directory of an unadopted repository, else 404."""
    account = users.find_account(owner)
    path = git_path_for(owner, name) if account is not None else None
    if account is None or path is None or not path.is_dir() or store.repo_by_name(owner, name) is not None:
        raise NotFound("The target couldn't be found.")
    return account, path


def admin_unadopted_list() -> Response:
    """Gitea reads ``query`` although it documents ``pattern``; both are honoured."""
    page = page_params()
    names = unadopted_names(request.args.get("pattern") or request.args.get("query") or "")
    return paged_response(names[page.offset : page.offset + page.limit], page, len(names))


def admin_adopt_repository(owner: str, repo: str) -> Response:
    account, path = _unclaimed(owner, repo)
    head = Git(path).run("symbolic-ref", "--short", "HEAD", check=False).stdout.decode().strip() or "main"
    with forge().db.transaction():
        try:
            repo_id = store.insert_repo(
                owner_id=account.id,
                name=path.name.removesuffix(GIT_SUFFIX),
                description="",
                private=True,
                is_template=False,
                default_branch=head,
                now=now_seconds(),
            )
        except sqlite3.IntegrityError as exc:
            raise RepoAlreadyExists("The repository with the same name already exists.") from exc
    forge().events.publish(RepoCreatedEvent(repo_id, "adopted", current_principal().user_id))
    return empty()


def admin_delete_unadopted_repository(owner: str, repo: str) -> Response:
    _, path = _unclaimed(owner, repo)
    shutil.rmtree(path)
    return empty()


UNADOPTED = API + "/admin/unadopted/<owner>/<repo>"
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/admin/unadopted",
        "adminUnadoptedList",
        admin_unadopted_list,
        "admin",
        ADMIN,
        returns="string_list",
    ),
    Endpoint(
        "POST",
        UNADOPTED,
        "adminAdoptRepository",
        admin_adopt_repository,
        "admin",
        ADMIN,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        UNADOPTED,
        "adminDeleteUnadoptedRepository",
        admin_delete_unadopted_repository,
        "admin",
        ADMIN,
        status=204,
        returns=EMPTY,
        errors=(403,),
    ),
)
