"""Access tokens: 40-hex random secrets stored only as SHA-256, with Gitea's scopes."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..actions import runner_store
from ..actions.models import Task
from ..auth import CATEGORIES, Principal
from ..context import forge, now_seconds
from ..db import Row
from ..errors import BadRequest, Unprocessable
from ..timefmt import iso, iso_or_zero
from . import store
from .errors import AccessTokenNotFound, InvalidScope, TokenNameTaken

if TYPE_CHECKING:
    from .models import User

__all__ = [
    "ACTIONS_USER_EMAIL",
    "ACTIONS_USER_ID",
    "ACTIONS_USER_NAME",
    "AccessToken",
    "NewToken",
    "create_token",
    "delete_token",
    "insert_token",
    "list_tokens",
    "normalize_scopes",
    "principal_for_token",
    "token_hash",
    "token_to_api",
]

TOKEN_TOUCH_INTERVAL = 60


@dataclass(frozen=True)
class AccessToken:
    """A stored token (the plaintext is never stored, only its SHA-256)."""

    id: int
    user_id: int
    name: str
    last_eight: str
    scopes: tuple[str, ...]
    created: int
    last_used: int

    @classmethod
    def from_row(cls, row: Row) -> AccessToken:
        return cls(
            id=row["id"],
            user_id=row["user_id"],
            name=row["name"],
            last_eight=row["token_last_eight"],
            scopes=tuple(s for s in row["scopes"].split(",") if s),
            created=row["created"],
            last_used=row["last_used"],
        )


@dataclass(frozen=True)
class NewToken:
    """A token just created: the only moment its plaintext is known."""

    token: AccessToken
    plaintext: str


# -- tokens --------------------------------------------------------------------------------------


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def normalize_scopes(scopes: object) -> tuple[str, ...]:
    """Gitea's scope list, normalized: ``all`` swallows the rest, ``write:`` swallows ``read:``; 400 if unknown."""
    if scopes is None:
        scopes = []
    if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
        raise Unprocessable("[Scopes]: must be a list of strings")
    wanted = {s.strip() for s in scopes if s.strip()}
    levels: dict[str, str] = {}
    public_only = False
    everything = False
    for scope in sorted(wanted):
        if scope == "all":
            everything = True
        elif scope == "public-only":
            public_only = True
        else:
            level, _, category = scope.partition(":")
            if level not in ("read", "write") or category not in CATEGORIES:
                raise InvalidScope(f"invalid access token scope provided: access token scope {scope!r} is not valid")
            if levels.get(category) != "write":
                levels[category] = level
    if everything or (len(levels) == len(CATEGORIES) and set(levels.values()) == {"write"}):
        result = ["all"]
    else:
        result = [f"{levels[c]}:{c}" for c in CATEGORIES if c in levels]
    if public_only:
        result.append("public-only")
    if not result or result == ["public-only"]:
        raise BadRequest("access token must have a scope")
    return tuple(result)


def insert_token(user_id: int, name: str, scopes: Iterable[str], plaintext: str) -> NewToken:
    now = now_seconds()
    token_id = store.insert_token(
        user_id=user_id,
        name=name,
        token_hash=token_hash(plaintext),
        last_eight=plaintext[-8:],
        scopes=",".join(scopes),
        now=now,
    )
    return NewToken(AccessToken(token_id, user_id, name, plaintext[-8:], tuple(scopes), now, 0), plaintext)


def create_token(user: User, options: Mapping[str, Any]) -> NewToken:
    """A new 40-hex token for ``user`` from ``CreateAccessTokenOption``; 400 on a bad scope or a used name."""
    name = options.get("name")
    if not isinstance(name, str) or not name.strip():
        raise Unprocessable("[Name]: Required")
    if len(name) > 255:
        raise Unprocessable("[Name]: MaxSize(255)")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise Unprocessable("[Name]: must be valid UTF-8 text") from exc
    scopes = normalize_scopes(options.get("scopes"))
    with forge().db.transaction():
        if store.token_name_exists(user.id, name):
            raise TokenNameTaken("access token name has been used already")
        return insert_token(user.id, name, scopes, secrets.token_hex(20))


def list_tokens(user: User, limit: int, offset: int) -> tuple[list[AccessToken], int]:
    """One page of the user's tokens, newest first, and the total."""
    rows = store.list_tokens(user.id, limit, offset)
    return [AccessToken.from_row(row) for row in rows], store.count_tokens(user.id)


def delete_token(user: User, id_or_name: str) -> None:
    """Delete the user's token named by id or name; 404 when none, 422 when the name is ambiguous."""
    with forge().db.transaction():
        matches = store.tokens_matching(user.id, id_or_name)
        if not matches:
            raise AccessTokenNotFound(f"access token does not exist [id: 0, name: {id_or_name}]")
        if len(matches) > 1:
            raise Unprocessable(f"multiple matches for token name '{id_or_name}'")
        store.delete_token(matches[0]["id"])


def token_to_api(token: AccessToken, plaintext: str = "") -> dict[str, Any]:
    """Gitea's ``AccessToken``: ``sha1`` carries the plaintext only in the creation answer."""
    return {
        "id": token.id,
        "name": token.name,
        "sha1": plaintext,
        "token_last_eight": token.last_eight,
        "scopes": list(token.scopes),
        "created_at": iso(token.created),
        "last_used_at": iso_or_zero(token.last_used),
    }


ACTIONS_USER_ID = -2
ACTIONS_USER_NAME = "gitea-actions"
ACTIONS_USER_EMAIL = "teabot@gitea.io"


def _task_principal(digest: str) -> Principal | None:
    """The Actions user acting for the running task whose job token hashes to ``digest`` (as Gitea's
    ``gitea-actions`` user: every scope, but only the task's repository beyond public ones)."""
    row = runner_store.task_row_by_token_hash(digest)
    if row is None:
        return None
    task = Task.from_row(row)
    if not task.is_running:
        return None
    return Principal(
        ACTIONS_USER_ID,
        ACTIONS_USER_NAME,
        False,
        frozenset({"all"}),
        None,
        task_id=task.id,
        task_repo_id=task.repo_id,
    )


def principal_for_token(token: str) -> Principal | None:
    """The caller an access token (or a running task's job token) stands for, or None when it is unknown,
    its user may not log in, or its task has finished."""
    if not token or len(token) > 512:
        return None
    digest = token_hash(token)
    row = store.token_by_hash(digest)
    if row is None:
        return _task_principal(digest)
    if row["user_is_org"] or not row["user_active"] or row["user_prohibit_login"]:
        return None
    now = now_seconds()
    if now - row["last_used"] >= TOKEN_TOUCH_INTERVAL:
        store.touch_token(row["id"], now)
    scopes = frozenset(s for s in row["scopes"].split(",") if s)
    return Principal(row["user_id"], row["user_name"], bool(row["user_is_admin"]), scopes, row["id"])
