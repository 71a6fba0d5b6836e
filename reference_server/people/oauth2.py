"""OAuth2 applications of an account: the client secret is answered once (on creation and on every update,
which regenerates it, as Gitea does) and only its SHA-256 is kept."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..bodies import optional_flag
from ..context import forge, now_seconds
from ..db import Row
from ..errors import Unprocessable
from . import store
from .errors import InvalidOAuth2Application, OAuth2AppNotFound

__all__ = ["OAuth2App", "create_app", "delete_app", "get_app", "list_apps", "update_app"]

SECRET_PREFIX = "gto_"  # noqa: S105 - the prefix of generated secrets, not a secret
REDIRECT_SCHEMES = ("http", "https")
"""Gitea's default: no custom schemes (``[oauth2] CUSTOM_SCHEMES`` is empty)."""


@dataclass(frozen=True)
class OAuth2App:
    """A stored application; ``client_secret`` is the plaintext only right after it was generated."""

    id: int
    user_id: int
    name: str
    client_id: str
    confidential_client: bool
    skip_secondary_authorization: bool
    redirect_uris: list[str]
    created: int
    client_secret: str = ""

    @classmethod
    def from_row(cls, row: Row, secret: str = "") -> OAuth2App:
        return cls(
            id=row["id"],
            user_id=row["user_id"],
            name=row["name"],
            client_id=row["client_id"],
            confidential_client=bool(row["confidential_client"]),
            skip_secondary_authorization=bool(row["skip_secondary_authorization"]),
            redirect_uris=list(json.loads(row["redirect_uris"])),
            created=row["created"],
            client_secret=secret,
        )


def _new_secret() -> tuple[str, str]:
    """A fresh secret (``gto_`` and 52 lowercase base32 characters, 56 in all as Gitea's) and its hash."""
    raw = base64.b32encode(secrets.token_bytes(32)).decode("ascii").rstrip("=").lower()
    plaintext = SECRET_PREFIX + raw
    return plaintext, hashlib.sha256(plaintext.encode("utf-8")).hexdigest()


def _valid_uri(uri: object) -> bool:
    if not isinstance(uri, str) or not uri.strip():
        return False
    parts = urlsplit(uri)
    return parts.scheme.lower() in REDIRECT_SCHEMES and bool(parts.netloc)


@dataclass(frozen=True)
class _Options:
    name: str
    uris: list[str]
    confidential: bool
    skip: bool


def _options(body: Mapping[str, Any]) -> _Options:
    """The body checked as Gitea binds it: name and redirect URIs required (422), each URI an absolute
    http(s) URL (400 ``error creating oauth2 application``)."""
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise Unprocessable("[Name]: Required")
    uris = body.get("redirect_uris")
    if not isinstance(uris, list) or not uris:
        raise Unprocessable("[RedirectURIs]: Required")
    if not all(_valid_uri(uri) for uri in uris):
        raise InvalidOAuth2Application()
    return _Options(
        name=name,
        uris=[str(uri) for uri in uris],
        confidential=optional_flag(body, "confidential_client"),
        skip=optional_flag(body, "skip_secondary_authorization"),
    )


def create_app(user_id: int, body: Mapping[str, Any]) -> OAuth2App:
    """A new application of the account, with its secret in plaintext this once."""
    options = _options(body)
    plaintext, digest = _new_secret()
    with forge().db.transaction():
        app_id = store.insert_app(
            user_id=user_id,
            name=options.name,
            client_id=str(uuid.uuid4()),
            secret_hash=digest,
            confidential=options.confidential,
            skip=options.skip,
            uris=json.dumps(options.uris),
            now=now_seconds(),
        )
    return get_app(user_id, app_id, secret=plaintext)


def get_app(user_id: int, app_id: int, *, secret: str = "") -> OAuth2App:
    """The account's application; 404 for another account's or a missing one (Gitea hides which)."""
    row = store.app_by_id(app_id)
    if row is None or row["user_id"] != user_id:
        raise OAuth2AppNotFound(f"OAuth2 application does not exist [id: {app_id}]")
    return OAuth2App.from_row(row, secret)


def list_apps(user_id: int, limit: int, offset: int) -> tuple[list[OAuth2App], int]:
    """One page of the account's applications, oldest first, without secrets."""
    rows, total = store.apps_page(user_id, limit, offset)
    return [OAuth2App.from_row(row) for row in rows], total


def update_app(user_id: int, app_id: int, body: Mapping[str, Any]) -> OAuth2App:
    """Replace the application's settings and regenerate its secret (answered once)."""
    get_app(user_id, app_id)
    options = _options(body)
    plaintext, digest = _new_secret()
    with forge().db.transaction():
        store.update_app(
            app_id,
            name=options.name,
            secret_hash=digest,
            confidential=options.confidential,
            skip=options.skip,
            uris=json.dumps(options.uris),
            now=now_seconds(),
        )
    return get_app(user_id, app_id, secret=plaintext)


def delete_app(user_id: int, app_id: int) -> None:
    """Delete the account's application; 404 for another's or a missing one."""
    get_app(user_id, app_id)
    with forge().db.transaction():
        store.delete_app(app_id)
