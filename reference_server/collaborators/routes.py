"""REST routes of repository collaborators (thin: scope, caller, repository, call the model, render)."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal
from ..endpoints import EMPTY, Endpoint
from ..permissions import current_repo, require_repo_admin
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users.presenters import user_to_api
from . import models
from .presenters import permission_to_api

__all__ = ["ENDPOINTS"]

API = "/api/v1"
BASE = f"{API}/repos/<owner>/<repo>/collaborators"


def repo_list_collaborators(owner: str, repo: str) -> Response:
    """A repository's collaborators."""
    found = current_repo()
    page = page_params()
    collaborators, total = models.list_collaborators(found, page.limit, page.offset)
    return paged_response([user_to_api(user) for user in collaborators], page, total)


def repo_check_collaborator(owner: str, repo: str, collaborator: str) -> Response:
    """204 when the user is a collaborator of the repository, else 404."""
    models.is_collaborator(current_repo(), collaborator)
    return empty()


def repo_add_collaborator(owner: str, repo: str, collaborator: str) -> Response:
    """Add or update a collaborator (repository admins)."""
    found = current_repo()
    require_repo_admin(found, current_principal())
    models.put_collaborator(found, collaborator, json_body())
    return empty()


def repo_delete_collaborator(owner: str, repo: str, collaborator: str) -> Response:
    """Remove a collaborator (repository admins)."""
    found = current_repo()
    require_repo_admin(found, current_principal())
    models.remove_collaborator(found, collaborator)
    return empty()


def repo_get_repo_permissions(owner: str, repo: str, collaborator: str) -> Response:
    """A user's permission on the repository."""
    found = current_repo()
    return json_response(permission_to_api(found, collaborator, current_principal()))


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/collaborators",
        "repoListCollaborators",
        repo_list_collaborators,
        "repository",
        token("repository", repo="read"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/collaborators/<collaborator>",
        "repoCheckCollaborator",
        repo_check_collaborator,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(404, 422),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/collaborators/<collaborator>",
        "repoAddCollaborator",
        repo_add_collaborator,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        body="AddCollaboratorOption",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/collaborators/<collaborator>",
        "repoDeleteCollaborator",
        repo_delete_collaborator,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/collaborators/<collaborator>/permission",
        "repoGetRepoPermissions",
        repo_get_repo_permissions,
        "repository",
        token("repository", repo="read"),
        returns="repo_collaborator_permission",
        errors=(403, 404),
    ),
)
