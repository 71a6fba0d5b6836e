"""REST routes of repository collaborators (thin: scope, caller, repository, call the model, render)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response

from ..auth import check_scope, current_principal
from ..repos.models import Repo, require_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users import models as users
from . import models

__all__ = ["register"]

API = "/api/v1"
BASE = f"{API}/repos/<owner>/<repo>/collaborators"


def _repo(owner: str, repo: str) -> Repo:
    """Scope first (403 before any lookup), a token (401), then the repository the caller may read (404)."""
    check_scope("repository")
    current_principal()
    return require_repo(owner, repo, "read")


def repo_list_collaborators(owner: str, repo: str) -> Response:
    """A repository's collaborators."""
    found = _repo(owner, repo)
    page = page_params()
    collaborators, total = models.list_collaborators(found, page.limit, page.offset)
    return paged_response([users.user_to_api(user) for user in collaborators], page, total)


def repo_check_collaborator(owner: str, repo: str, collaborator: str) -> Response:
    """204 when the user is a collaborator of the repository, else 404."""
    models.is_collaborator(_repo(owner, repo), collaborator)
    return empty()


def repo_add_collaborator(owner: str, repo: str, collaborator: str) -> Response:
    """Add or update a collaborator (repository admins)."""
    found = _repo(owner, repo)
    models.require_repo_admin(found, current_principal())
    models.put_collaborator(found, collaborator, json_body())
    return empty()


def repo_delete_collaborator(owner: str, repo: str, collaborator: str) -> Response:
    """Remove a collaborator (repository admins)."""
    found = _repo(owner, repo)
    models.require_repo_admin(found, current_principal())
    models.remove_collaborator(found, collaborator)
    return empty()


def repo_get_repo_permissions(owner: str, repo: str, collaborator: str) -> Response:
    """A user's permission on the repository."""
    found = _repo(owner, repo)
    return json_response(models.permission_to_api(found, collaborator, current_principal()))


def register(app: Flask) -> None:
    """Attach the collaborator routes; endpoint names are Gitea's operation ids."""
    rules: list[tuple[str, str, Callable[..., Response], str]] = [
        ("", "repoListCollaborators", repo_list_collaborators, "GET"),
        ("/<collaborator>", "repoCheckCollaborator", repo_check_collaborator, "GET"),
        ("/<collaborator>", "repoAddCollaborator", repo_add_collaborator, "PUT"),
        ("/<collaborator>", "repoDeleteCollaborator", repo_delete_collaborator, "DELETE"),
        ("/<collaborator>/permission", "repoGetRepoPermissions", repo_get_repo_permissions, "GET"),
    ]
    for path, endpoint, view, method in rules:
        app.add_url_rule(f"{BASE}{path}", endpoint=endpoint, view_func=view, methods=[method])
