"""REST routes of deploy tokens (thin: scope check, repository admin, parse, call the model, render).

Created at ``POST /repos/{o}/{r}/keys/tokens`` (Gitea's development line), listed, read and deleted with the
repository's keys (``/keys``, ``/keys/{id}``), regenerated in place at ``POST /keys/tokens/{id}/regenerate``
(the reference's route: Gitea has none yet).
"""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import token
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..errors import BadRequest
from ..events import RepoDeletedEvent
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .errors import DeployKeyNotFound
from .presenters import token_to_api

__all__ = ["ENDPOINTS", "register"]

KEYS = "/api/v1/repos/<owner>/<repo>/keys"


def _key_id(raw: str) -> int:
    """A key id from the path; a non-number names no key (404, as Gitea)."""
    if not raw.isdigit() or len(raw) > 18:
        raise DeployKeyNotFound()
    return int(raw)


def repo_create_deploy_token(owner: str, repo: str) -> Response:
    """Create a deploy token (the plaintext is in ``key`` of this answer only)."""
    found = current_repo()
    created = models.create_token(found, json_body())
    return json_response(token_to_api(created.token, found, created.plaintext), status=201)


def repo_create_key(owner: str, repo: str) -> Response:
    """Add an SSH deploy key (listed, read and deleted with the tokens under ``/keys``)."""
    found = current_repo()
    created = models.create_key(found, json_body())
    return json_response(token_to_api(created, found, with_repository=False), status=201)


def repo_list_keys(owner: str, repo: str) -> Response:
    """List a repository's deploy keys and tokens (``key_id`` filters by id)."""
    found = current_repo()
    page = page_params()
    raw = request.args.get("key_id", "")
    if raw and not raw.lstrip("-").isdigit():
        raise BadRequest(f"invalid value of key_id: {raw!r}")
    key_id = int(raw) if raw and int(raw) != 0 else None
    tokens, total = models.list_tokens(found, page, key_id)
    return paged_response([token_to_api(token, found) for token in tokens], page, total)


def repo_get_key(owner: str, repo: str, key_id: str) -> Response:
    """A repository's deploy key or token by id."""
    found = current_repo()
    return json_response(token_to_api(models.get_token(found, _key_id(key_id)), found))


def repo_delete_key(owner: str, repo: str, key_id: str) -> Response:
    """Delete a deploy key or token: it stops working at once."""
    found = current_repo()
    models.delete_token(found, _key_id(key_id))
    return empty()


def repo_regenerate_deploy_token(owner: str, repo: str, key_id: str) -> Response:
    """Give a deploy token a new secret in place (same id); the old secret stops working at once."""
    found = current_repo()
    regenerated = models.regenerate_token(found, _key_id(key_id))
    return json_response(token_to_api(regenerated.token, found, regenerated.plaintext))


def register(app: Flask) -> None:
    """Add the SSH key columns to the table; drop a deleted repository's tokens and keys."""
    models.prepare_table()
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/keys",
        "repoListKeys",
        repo_list_keys,
        "repository",
        token("repository", repo="admin"),
        returns="deploy_key_list",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/keys",
        "repoCreateKey",
        repo_create_key,
        "repository",
        token("repository", repo="admin"),
        body="CreateKeyOption",
        status=201,
        returns="deploy_key",
        errors=(404, 422),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/keys/tokens",
        "repoCreateDeployToken",
        repo_create_deploy_token,
        "repository",
        token("repository", repo="admin"),
        body="CreateDeployTokenOption",
        status=201,
        returns="deploy_token_created",
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/keys/tokens/<key_id>/regenerate",
        "repoRegenerateDeployToken",
        repo_regenerate_deploy_token,
        "repository",
        token("repository", repo="admin"),
        returns="deploy_token_created",
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/keys/<key_id>",
        "repoGetKey",
        repo_get_key,
        "repository",
        token("repository", repo="admin"),
        returns="deploy_key",
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/keys/<key_id>",
        "repoDeleteKey",
        repo_delete_key,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
    ),
)
