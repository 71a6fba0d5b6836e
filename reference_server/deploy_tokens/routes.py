"""REST routes of deploy tokens (thin: scope check, repository admin, parse, call the model, render).

Created at ``POST /repos/{o}/{r}/keys/tokens`` (Gitea's development line), listed, read and deleted with the
repository's keys (``/keys``, ``/keys/{id}``), regenerated in place at ``POST /keys/tokens/{id}/regenerate``
(the reference's route: Gitea has none yet).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, request

from ..auth import check_scope, current_principal
from ..context import forge
from ..errors import BadRequest
from ..events import RepoDeletedEvent
from ..repos import models as repos
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .errors import DeployKeyNotFound

__all__ = ["register"]

KEYS = "/api/v1/repos/<owner>/<repo>/keys"


def _admin_repo(owner: str, repo: str) -> repos.Repo:
    check_scope("repository")
    current_principal()
    return repos.require_repo(owner, repo, "admin")


def _key_id(raw: str) -> int:
    """A key id from the path; a non-number names no key (404, as Gitea)."""
    if not raw.isdigit() or len(raw) > 18:
        raise DeployKeyNotFound()
    return int(raw)


def repo_create_deploy_token(owner: str, repo: str) -> Response:
    """Create a deploy token (the plaintext is in ``key`` of this answer only)."""
    found = _admin_repo(owner, repo)
    created = models.create_token(found, json_body())
    return json_response(models.token_to_api(created.token, found, created.plaintext), status=201)


def repo_list_keys(owner: str, repo: str) -> Response:
    """List a repository's deploy keys and tokens (``key_id`` filters by id)."""
    found = _admin_repo(owner, repo)
    page = page_params()
    raw = request.args.get("key_id", "")
    if raw and not raw.lstrip("-").isdigit():
        raise BadRequest(f"invalid value of key_id: {raw!r}")
    key_id = int(raw) if raw and int(raw) != 0 else None
    tokens, total = models.list_tokens(found, page, key_id)
    return paged_response([models.token_to_api(token, found) for token in tokens], page, total)


def repo_get_key(owner: str, repo: str, key_id: str) -> Response:
    """A repository's deploy key or token by id."""
    found = _admin_repo(owner, repo)
    return json_response(models.token_to_api(models.get_token(found, _key_id(key_id)), found))


def repo_delete_key(owner: str, repo: str, key_id: str) -> Response:
    """Delete a deploy key or token: it stops working at once."""
    found = _admin_repo(owner, repo)
    models.delete_token(found, _key_id(key_id))
    return empty()


def repo_regenerate_deploy_token(owner: str, repo: str, key_id: str) -> Response:
    """Give a deploy token a new secret in place (same id); the old secret stops working at once."""
    found = _admin_repo(owner, repo)
    regenerated = models.regenerate_token(found, _key_id(key_id))
    return json_response(models.token_to_api(regenerated.token, found, regenerated.plaintext))


def register(app: Flask) -> None:
    """Mount the deploy-token routes and drop a deleted repository's tokens."""
    rules: list[tuple[str, str, Callable[..., Response], list[str]]] = [
        (KEYS, "repoListKeys", repo_list_keys, ["GET"]),
        (f"{KEYS}/tokens", "repoCreateDeployToken", repo_create_deploy_token, ["POST"]),
        (f"{KEYS}/tokens/<key_id>/regenerate", "repoRegenerateDeployToken", repo_regenerate_deploy_token, ["POST"]),
        (f"{KEYS}/<key_id>", "repoGetKey", repo_get_key, ["GET"]),
        (f"{KEYS}/<key_id>", "repoDeleteKey", repo_delete_key, ["DELETE"]),
    ]
    for path, endpoint, view, methods in rules:
        app.add_url_rule(path, endpoint=endpoint, view_func=view, methods=methods)
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
