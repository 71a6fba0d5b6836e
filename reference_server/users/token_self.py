"""``GET|DELETE /token``: the calling access token looks at itself or deletes itself (Gitea 1.27).

Only a token presented in ``Authorization: token|bearer`` counts: a caller signed in some other way
(basic auth, ``?token=``) is answered 404, as Gitea does, because there is no "current token" to
speak of. A running task's job token is not an access token, so it is not found either.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request

from ..auth import current_principal
from ..db import Row
from ..rest import empty, json_response
from ..timefmt import iso, iso_or_zero
from . import store
from .errors import AccessTokenNotFound
from .tokens import token_hash

__all__ = ["current_token_to_api"]

API = "/api/v1"


def _presented_token() -> Row:
    """The stored row of the token in the Authorization header; 401 anonymous, 404 for any other credential."""
    principal = current_principal()
    scheme, _, value = request.headers.get("Authorization", "").strip().partition(" ")
    value = value.strip()
    if scheme.lower() not in ("token", "bearer") or not value:
        raise AccessTokenNotFound("invalid access token")
    row = store.token_by_hash(token_hash(value))
    if row is None or principal.token_id != row["id"]:
        raise AccessTokenNotFound("token not found")
    return row


def current_token_to_api(row: Row) -> dict[str, Any]:
    """Gitea's ``CurrentAccessToken``: the token's id, name, scopes, times and owner (``UserMeta``)."""
    return {
        "id": row["id"],
        "name": row["name"],
        "scopes": [scope for scope in row["scopes"].split(",") if scope],
        "created_at": iso(row["created"]),
        "last_used_at": iso_or_zero(row["last_used"]),
        "user": {"id": row["user_id"], "login": row["user_name"]},
    }


def get_current_token() -> Response:
    """The calling token's metadata (no scope needed: a token may always see itself)."""
    return json_response(current_token_to_api(_presented_token()))


def delete_current_token() -> Response:
    """Delete the calling token; the next request with it is unauthenticated (401)."""
    store.delete_token(_presented_token()["id"])
    return empty()
