"""Editing a repository (``PATCH /repos/{o}/{r}``, Gitea's ``EditRepoOption``): rename with its Git
directory, description, website, visibility, template flag, default branch, units and archiving.

Only fields present in the body change; everything is validated before anything is written, and the
row and the Git directory move together (a failed directory rename rolls the row back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import gitcache
from ..auth import optional_principal
from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..errors import Unprocessable
from ..events import DefaultBranchChangedEvent, RepoRenamedEvent
from ..gitcli import valid_branch_name
from . import models, store

__all__ = ["edit_repo"]

MAX_DESCRIPTION = 2048
MAX_WEBSITE = 1024
FLAGS = {"private": "private", "template": "is_template"}
UNITS = ("has_issues", "has_pull_requests")


def _flag(options: Mapping[str, Any], key: str) -> bool | None:
    """A boolean field, or None when the body leaves it out (422 when it is not a boolean)."""
    return None if options.get(key) is None else optional_flag(options, key)


def _new_name(repo: models.Repo, options: Mapping[str, Any]) -> str | None:
    """The validated new name, or None when unchanged; 422 when taken by another repository of the owner."""
    raw = options.get("name")
    if raw is None or raw == repo.name:
        return None
    name = models.validate_repo_name(raw)
    if name.lower() != repo.name.lower() and store.repo_by_name(repo.owner_name, name) is not None:
        raise Unprocessable(f"repo name is already taken [name: {name}]")
    return name


def _new_default_branch(repo: models.Repo, options: Mapping[str, Any]) -> str | None:
    """Gitea changes the default branch only to one that exists (any valid name while the repository is
    empty) and leaves it unchanged otherwise."""
    raw = options.get("default_branch")
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise Unprocessable("[DefaultBranch]: must be a string")
    if raw == repo.default_branch or not raw:
        return None
    branches = repo.git.branches()
    if branches:
        return raw if raw in branches else None
    if not valid_branch_name(raw):
        raise Unprocessable(f"[DefaultBranch]: invalid branch name {raw!r}")
    return raw


def edit_repo(repo: models.Repo, options: Mapping[str, Any]) -> models.Repo:
    """Apply an ``EditRepoOption``; the edited repository. Publishes ``DefaultBranchChangedEvent`` when the
    default branch changed."""
    columns: dict[str, object] = {}
    if options.get("description") is not None:
        columns["description"] = optional_text(options, "description", MAX_DESCRIPTION)
    if options.get("website") is not None:
        columns["website"] = optional_text(options, "website", MAX_WEBSITE)
    for key, column in FLAGS.items():
        value = _flag(options, key)
        if value is not None:
            columns[column] = int(value)
    settings: dict[str, int] = {}
    for key in UNITS:
        value = _flag(options, key)
        if value is not None:
            settings[key] = int(value)
    archived = _flag(options, "archived")
    now = now_seconds()
    if archived is not None and archived != repo.archived:
        settings["archived"] = int(archived)
        settings["archived_at"] = now if archived else 0
    with models.repo_lock(repo):
        name = _new_name(repo, options)
        branch = _new_default_branch(repo, options)
        if name is not None:
            columns["name"] = name
        if branch is not None:
            columns["default_branch"] = branch
        with forge().db.transaction():
            if columns:
                store.update_repo_columns(repo.id, columns, now)
            store.update_repo_settings(repo.id, settings)
            if name is not None:
                _move_git_directory(repo, name)
                doer = optional_principal()
                forge().events.publish(RepoRenamedEvent(repo.id, repo.name, name, doer.user_id if doer else 0))
        if branch is not None:
            models.get_repo_by_id(repo.id).git.set_head(branch)
    if branch is not None:
        forge().events.publish(DefaultBranchChangedEvent(repo.id, repo.default_branch, branch))
    return models.get_repo_by_id(repo.id)


def _move_git_directory(repo: models.Repo, name: str) -> None:
    """Rename the bare repository with the row (inside its transaction: an error undoes the row change)."""
    target = models.git_path_for(repo.owner_name, name)
    if target == repo.git_path:
        return
    if target.exists():
        raise Unprocessable(f"repo name is already taken [name: {name}]")
    gitcache.forget(repo.git_path)
    repo.git_path.rename(target)
