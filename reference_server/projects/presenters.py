"""Gitea's ``Project`` (with the issue counts the caller may see) and ``ProjectColumn``; above the models."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..auth import optional_principal
from ..context import forge
from ..issues.errors import IssueNotFound
from ..issues.models import get_issue_by_id
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..timefmt import iso
from ..users import models as users
from ..users.presenters import poster_to_api
from . import store
from .columns import Column
from .models import Project
from .scopes import Scope, can_read_repo

__all__ = ["column_to_api", "issue_counts", "issue_projects_to_api", "project_to_api", "web_path"]


def web_path(scope: Scope, project: Project) -> str:
    """``owner/repo/projects/N`` for a repository's board, ``owner/-/projects/N`` otherwise (Gitea's links)."""
    if scope.repo is not None:
        return f"{quote(scope.repo.owner_name)}/{quote(scope.repo.name)}/projects/{project.id}"
    return f"{quote(scope.owner.name)}/-/projects/{project.id}"


def issue_counts(project: Project) -> tuple[int, int]:
    """Open and closed issues on the board that the caller may see (as Gitea counts them for the doer)."""
    viewer = optional_principal()
    readable: dict[int, bool] = {}
    open_count = closed_count = 0
    for card in store.cards_of_project(project.id):
        repo_id = card["repo_id"]
        if repo_id not in readable:
            try:
                readable[repo_id] = can_read_repo(viewer, repos.get_repo_by_id(repo_id))
            except RepoNotFound:
                readable[repo_id] = False
        if not readable[repo_id]:
            continue
        try:
            issue = get_issue_by_id(card["issue_id"])
        except IssueNotFound:
            continue
        if issue.is_closed:
            closed_count += 1
        else:
            open_count += 1
    return open_count, closed_count


def project_to_api(scope: Scope, project: Project) -> dict[str, Any]:
    """Gitea's ``Project`` (development line); ``closed_at`` only on a closed board (Gitea omits it)."""
    open_count, closed_count = issue_counts(project)
    body: dict[str, Any] = {
        "id": project.id,
        "title": project.title,
        "description": project.description,
        "owner_id": project.owner_id,
        "repo_id": project.repo_id,
        "creator": poster_to_api(project.creator_id),
        "creator_id": project.creator_id,
        "state": project.state,
        "is_closed": project.is_closed,
        "template_type": project.template_type,
        "card_type": project.card_type,
        "type": project.kind,
        "num_open_issues": open_count,
        "num_closed_issues": closed_count,
        "num_issues": open_count + closed_count,
        "created_at": iso(project.created),
        "updated_at": iso(project.updated),
        "html_url": forge().url(web_path(scope, project)),
    }
    if project.is_closed:
        body["closed_at"] = iso(project.closed)
    return body


def issue_projects_to_api(issue_id: int) -> list[dict[str, Any]]:
    """The boards an issue or pull request is on, as Gitea's ``Issue.projects`` lists them (by id)."""
    found = []
    for row in store.projects_of_issue(issue_id):
        project = Project.from_row(row)
        if project.repo_id:
            repo = repos.get_repo_by_id(project.repo_id)
            scope = Scope("repository", users.get_user(repo.owner_id), repo, can_write=False)
        else:
            owner = users.get_user(project.owner_id)
            scope = Scope("organization" if owner.is_org else "individual", owner, None, can_write=False)
        found.append(project_to_api(scope, project))
    return found


def column_to_api(column: Column) -> dict[str, Any]:
    """Gitea's ``ProjectColumn``; ``color`` only when the column has one (Gitea omits an empty one)."""
    body: dict[str, Any] = {
        "id": column.id,
        "title": column.title,
        "default": column.is_default,
        "sorting": column.sorting,
        "project_id": column.project_id,
        "creator": poster_to_api(column.creator_id),
        "created_at": iso(column.created),
        "updated_at": iso(column.updated),
    }
    if column.color:
        body["color"] = column.color
    return body
