"""REST routes of branches (thin: scope check, parse, call the model, render)."""

from __future__ import annotations

from flask import Response, request

from ..access import token
from ..auth import current_principal, optional_principal
from ..endpoints import EMPTY, Endpoint
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .presenters import branch_to_api

__all__ = ["ENDPOINTS"]

API = "/api/v1"


def repo_list_branches(owner: str, repo: str) -> Response:
    """List a repository's branches by name (``q`` filters), paged with ``X-Total-Count``."""
    found = current_repo()
    page = page_params()
    chunk, total = models.list_branches(found, request.args.get("q", ""), page.offset, page.limit)
    viewer = optional_principal()
    return paged_response([branch_to_api(found, name, sha, viewer) for name, sha in chunk], page, total)


def repo_get_branch(owner: str, repo: str, branch: str) -> Response:
    """One branch with its head commit."""
    found = current_repo()
    sha = models.get_branch(found, branch)
    return json_response(branch_to_api(found, branch, sha, optional_principal()))


def repo_create_branch(owner: str, repo: str) -> Response:
    """Create a branch from a branch, tag or commit (201 ``Branch``)."""
    principal = current_principal()
    found = current_repo()
    name, sha = models.create_branch(found, principal, json_body())
    return json_response(branch_to_api(found, name, sha, principal), status=201)


def repo_delete_branch(owner: str, repo: str, branch: str) -> Response:
    """Delete a branch (never the default one)."""
    principal = current_principal()
    models.delete_branch(current_repo(), principal, branch)
    return empty()


def repo_rename_branch(owner: str, repo: str, branch: str) -> Response:
    """Rename a branch (``{"name"}``; 204)."""
    principal = current_principal()
    found = current_repo()
    models.rename_branch(found, principal, branch, json_body())
    return empty()


def repo_update_branch(owner: str, repo: str, branch: str) -> Response:
    """Move a branch to another commit (``new_commit_id``, optional ``old_commit_id`` check, ``force``; 204)."""
    principal = current_principal()
    found = current_repo()
    models.update_branch(found, principal, branch, json_body())
    return empty()


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/branches",
        "repoListBranches",
        repo_list_branches,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[branch]",
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/branches",
        "repoCreateBranch",
        repo_create_branch,
        "repository",
        token("repository", repo="write"),
        body="CreateBranchRepoOption",
        status=201,
        returns="branch",
        errors=(403, 404, 409, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/branches/<path:branch>",
        "repoGetBranch",
        repo_get_branch,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="branch",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/branches/<path:branch>",
        "repoDeleteBranch",
        repo_delete_branch,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
        errors=(403, 404, 423),
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/branches/<path:branch>",
        "repoRenameBranch",
        repo_rename_branch,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
        body="RenameBranchRepoOption",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/branches/<path:branch>",
        "repoUpdateBranch",
        repo_update_branch,
        "repository",
        token("repository", repo="write"),
        status=204,
        returns=EMPTY,
        body="UpdateBranchRepoOption",
        errors=(403, 404, 409, 422),
    ),
)
