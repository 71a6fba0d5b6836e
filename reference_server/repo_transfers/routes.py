"""REST routes of repository transfers, and the redirect a transferred repository's old place answers."""

from __future__ import annotations

from urllib.parse import quote

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal, optional_principal
from ..endpoints import Endpoint
from ..permissions import current_repo, permission
from ..repos.presenters import repo_to_api
from ..rest import json_body, json_response
from . import models

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
BASE = API + "/repos/<owner>/<repo>/transfer"


def repo_transfer(owner: str, repo: str) -> Response:
    """Transfer the repository: 202 when it moved, 201 when the new owner has to accept (Gitea's codes)."""
    moved_repo, moved = models.start_transfer(current_repo(), json_body(), current_principal())
    return json_response(repo_to_api(moved_repo), status=202 if moved else 201)


def accept_repo_transfer(owner: str, repo: str) -> Response:
    """The new owner accepts the pending transfer (202 with the moved repository)."""
    return json_response(repo_to_api(models.accept_transfer(current_repo(), current_principal())), status=202)


def reject_repo_transfer(owner: str, repo: str) -> Response:
    """The new owner rejects the pending transfer (200 with the repository where it was)."""
    return json_response(repo_to_api(models.reject_transfer(current_repo(), current_principal())))


def redirect_transferred_repo() -> Response | None:
    """Gitea's ``RedirectToRepo``: a path naming a transferred repository's old place answers 307 to its new
    one, for a caller who may read it (anybody else gets the 404 of a missing repository)."""
    args = request.view_args or {}
    owner, name = args.get("owner"), args.get("repo")
    if not request.path.startswith(API + "/") or not isinstance(owner, str) or not isinstance(name, str):
        return None
    moved = models.redirected_repo(owner, name)
    if moved is None or not permission(optional_principal(), moved).can_read:
        return None
    old, new = (
        f"{quote(owner, safe='')}/{quote(name, safe='')}",
        f"{quote(moved.owner_name, safe='')}/{quote(moved.name, safe='')}",
    )
    location = request.script_root + request.path.replace(old, new, 1)
    query = request.query_string.decode("latin-1")
    response = Response(b"", status=307)
    response.headers["Location"] = f"{location}?{query}" if query else location
    return response


def register(app: Flask) -> None:
    """The old place of a transferred repository redirects to the new one."""
    app.before_request(redirect_transferred_repo)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        BASE,
        "repoTransfer",
        repo_transfer,
        "repository",
        token("repository", repo="owner"),
        body="TransferRepoOption",
        status=202,
        returns="repository",
        errors=(403, 404, 409, 422),
    ),
    Endpoint(
        "POST",
        BASE + "/accept",
        "acceptRepoTransfer",
        accept_repo_transfer,
        "repository",
        token("repository", repo="read"),
        status=202,
        returns="repository",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "POST",
        BASE + "/reject",
        "rejectRepoTransfer",
        reject_repo_transfer,
        "repository",
        token("repository", repo="read"),
        returns="repository",
        errors=(403, 404),
    ),
)
