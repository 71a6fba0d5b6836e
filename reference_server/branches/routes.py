"""REST routes of branches (thin: scope check, parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response, request

from ..auth import check_scope, current_principal, optional_principal
from ..repos import models as repos
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models

__all__ = ["register"]

API = "/api/v1"


def repo_list_branches(owner: str, repo: str) -> Response:
    """List a repository's branches by name (``q`` filters), paged with ``X-Total-Count``."""
    check_scope("repository", anonymous_ok=True)
    found = repos.require_repo(owner, repo, "read")
    page = page_params()
    chunk, total = models.list_branches(found, request.args.get("q", ""), page.offset, page.limit)
    viewer = optional_principal()
    return paged_response([models.branch_to_api(found, name, sha, viewer) for name, sha in chunk], page, total)


def repo_get_branch(owner: str, repo: str, branch: str) -> Response:
    """One branch with its head commit."""
    check_scope("repository", anonymous_ok=True)
    found = repos.require_repo(owner, repo, "read")
    sha = models.get_branch(found, branch)
    return json_response(models.branch_to_api(found, branch, sha, optional_principal()))


def repo_create_branch(owner: str, repo: str) -> Response:
    """Create a branch from a branch, tag or commit (201 ``Branch``)."""
    check_scope("repository")
    principal = current_principal()
    found = repos.require_repo(owner, repo, "write")
    name, sha = models.create_branch(found, principal, json_body())
    return json_response(models.branch_to_api(found, name, sha, principal), status=201)


def repo_delete_branch(owner: str, repo: str, branch: str) -> Response:
    """Delete a branch (never the default one)."""
    check_scope("repository")
    principal = current_principal()
    models.delete_branch(repos.require_repo(owner, repo, "write"), principal, branch)
    return empty()


def repo_rename_branch(owner: str, repo: str, branch: str) -> Response:
    """Rename a branch (``{"name"}``; 204)."""
    check_scope("repository")
    principal = current_principal()
    found = repos.require_repo(owner, repo, "write")
    models.rename_branch(found, principal, branch, json_body(required=("name",)))
    return empty()


def repo_update_branch(owner: str, repo: str, branch: str) -> Response:
    """Move a branch to another commit (``new_commit_id``, optional ``old_commit_id`` check, ``force``; 204)."""
    check_scope("repository")
    principal = current_principal()
    found = repos.require_repo(owner, repo, "write")
    models.update_branch(found, principal, branch, json_body())
    return empty()


def register(app: Flask) -> None:
    """Attach the branch routes; endpoint names are Gitea's operation ids."""
    base = f"{API}/repos/<owner>/<repo>/branches"
    one = f"{base}/<path:branch>"
    app.add_url_rule(base, "repoListBranches", repo_list_branches, methods=["GET"])
    app.add_url_rule(base, "repoCreateBranch", repo_create_branch, methods=["POST"])
    app.add_url_rule(one, "repoGetBranch", repo_get_branch, methods=["GET"])
    app.add_url_rule(one, "repoDeleteBranch", repo_delete_branch, methods=["DELETE"])
    app.add_url_rule(one, "repoRenameBranch", repo_rename_branch, methods=["PATCH"])
    app.add_url_rule(one, "repoUpdateBranch", repo_update_branch, methods=["PUT"])
