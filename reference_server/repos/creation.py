"""Creating a repository: a fresh bare Git repository (with the templates' first commit and labels), or one
filled from elsewhere (a fork's copy, a migration's fetch). Above the repository records, which the
permissions build on, because creating one reaches into the users, labels and templates families."""

from __future__ import annotations

import logging
import secrets
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from ..auth import Principal
from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..errors import BadRequest, Forbidden, Unprocessable
from ..events import RepoCreatedEvent
from ..gitcli import Git, GitError, Identity, valid_branch_name
from ..labels.models import initialize_labels
from ..templates.repo_init import creation_templates
from ..users import models as users
from ..users import store as users_store
from . import store
from .errors import RepoAlreadyExists
from .models import Repo, get_repo_by_id, git_path_for, validate_repo_name

__all__ = ["create_repo", "create_repo_from_git"]

log = logging.getLogger(__name__)

README_TEMPLATES = ("Default",)


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
) -> tuple[str, tuple[str, ...]]:
    """README.md plus the template files (LICENSE, .gitignore) in one commit; its SHA and the paths it holds."""
    now = now_seconds()
    who = Identity(doer.name, doer.email or f"{doer.name.lower()}@noreply.invalid", now)
    readme = f"# {name}\n\n{description}\n".encode()
    contents: dict[str, bytes] = {"README.md": readme, **(files or {})}
    commit = git.write_first_commit(branch, contents, "Initial commit\n", author=who, committer=who)
    return commit, tuple(contents)


def _check_repository_limit(owner: users.User) -> None:
    """Gitea's ``CanCreateRepo``: a user below its ``max_repo_creation`` (set by an administrator; -1 is the
    instance's limit, which the reference does not set), or any site administrator."""
    limit = users_store.limits_of(owner.id)["max_repo_creation"]
    if limit >= 0 and not owner.is_admin and not owner.is_org and store.count_repos_of_owner(owner.id) >= limit:
        raise Forbidden(f"user has reached maximum limit of repositories [limit: {limit}]")


def create_repo(owner: users.User, options: Mapping[str, Any], doer: Principal) -> Repo:
    """Create the row and its bare Git repository together; 409 when the owner already has the name.

    The Git repository is built in a scratch directory and renamed into place before the row commits,
    so a failure leaves neither behind.
    """
    if owner.id < 0:
        raise Forbidden("the built-in Actions user cannot own repositories")
    _check_repository_limit(owner)
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
        first: tuple[str, tuple[str, ...]] | None = None
        try:
            git.init_bare(values["default_branch"])
            if values["auto_init"]:
                creator = users.get_user(doer.user_id)
                files = values["templates"].initial_files(owner, values["name"], creator.email)
                first = _initial_commit(
                    git, values["name"], values["description"], values["default_branch"], creator, files=files
                )
            if target.exists():
                log.warning("removing stale Git directory %s that no repository row owned", target)
                Git(target).remove()
            scratch.rename(target)
        except (GitError, OSError, ValueError):
            git.remove()
            raise
    kind = "initialised" if first is not None else "empty"
    commit, paths = first if first is not None else ("", ())
    forge().events.publish(RepoCreatedEvent(repo_id, kind, doer.user_id, commit=commit, paths=paths))
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
    _check_repository_limit(owner)
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
