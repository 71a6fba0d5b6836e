"""Who is calling: credentials to a principal, and scope checks made before any lookup (as Gitea does).

Accepted credentials: ``Authorization: token T`` / ``Bearer T`` (any case), basic auth with a password
or a token as password (or the token as user name with an empty or ``x-oauth-basic`` password), and
the deprecated ``?token=`` / ``?access_token=`` which add an ``X-Gitea-Warning`` header.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import g, request

from .errors import Forbidden, Unauthorized

__all__ = [
    "CATEGORIES",
    "Principal",
    "current_principal",
    "has_scope",
    "optional_principal",
    "require_admin",
    "require_scope",
    "resolve_credentials",
]

CATEGORIES = (
    "activitypub",
    "admin",
    "issue",
    "misc",
    "notification",
    "organization",
    "package",
    "repository",
    "user",
)
ALL_SCOPES = frozenset({"all"})
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Principal:
    """An authenticated caller: a user, and the scopes of the token used (``all`` for a password)."""

    user_id: int
    username: str
    is_admin: bool
    scopes: frozenset[str]
    token_id: int | None = None
    task_id: int | None = None
    """Set when the caller is a running Actions task (its job token, ``GITEA_TOKEN``)."""
    task_repo_id: int | None = None
    """The repository of that task: the only private repository such a caller may see, and the only one it writes."""
    by_password: bool = False
    """Whether the caller proved the account's password (basic auth): managing access tokens needs it, so a
    token, whatever its scopes, can never mint a broader one."""


def has_scope(principal: Principal, category: str, write: bool) -> bool:
    """Whether the principal's scopes grant read or write on ``category`` (``write:`` implies ``read:``)."""
    if "all" in principal.scopes:
        return True
    wanted = {f"write:{category}"} if write else {f"read:{category}", f"write:{category}"}
    return bool(wanted & principal.scopes)


def _basic_credentials(header: str) -> tuple[str, str] | None:
    try:
        decoded = base64.b64decode(header, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, sep, password = decoded.partition(":")
    return (user, password) if sep else None


TokenLookup = Callable[[str], Principal | None]
PasswordLookup = Callable[[str, str], Principal | None]


def resolve_credentials(by_token: TokenLookup, by_password: PasswordLookup) -> None:
    """Set ``g.principal`` from the request's credentials; 401 when credentials are present but bad."""
    g.principal = None
    g.auth_warning = None
    header = request.headers.get("Authorization", "").strip()
    scheme, _, value = header.partition(" ")
    value = value.strip()
    principal: Principal | None = None
    if header:
        lowered = scheme.lower()
        if lowered in ("token", "bearer") and value:
            principal = by_token(value)
        elif lowered == "basic" and value:
            pair = _basic_credentials(value)
            if pair is not None:
                user, password = pair
                if password in ("", "x-oauth-basic"):
                    principal = by_token(user)
                else:
                    principal = by_token(password) or by_password(user, password)
        if principal is None:
            raise Unauthorized("invalid username, password or token")
    else:
        query_token = request.args.get("token") or request.args.get("access_token")
        if query_token:
            principal = by_token(query_token)
            if principal is None:
                raise Unauthorized("invalid username, password or token")
            g.auth_warning = "token and access_token API authentication is deprecated"
    g.principal = principal


def optional_principal() -> Principal | None:
    """The caller, or None for an anonymous request."""
    principal: Principal | None = g.get("principal")
    return principal


def current_principal() -> Principal:
    """The caller; 401 ``token is required`` when anonymous."""
    principal = optional_principal()
    if principal is None:
        raise Unauthorized("token is required")
    return principal


def check_scope(category: str, *, anonymous_ok: bool = False, write: bool | None = None) -> None:
    """Refuse a token without the scope this method needs on ``category`` (before any lookup): ``write:`` for
    every method but a read, or whenever ``write`` says so (a GET that creates, such as a registration token)."""
    principal = optional_principal()
    if principal is None:
        if anonymous_ok and request.method in READ_METHODS:
            return
        raise Unauthorized("token is required")
    if write is None:
        write = request.method not in READ_METHODS
    if not has_scope(principal, category, write):
        level = "write" if write else "read"
        have = ",".join(sorted(principal.scopes))
        raise Forbidden(
            f"token does not have at least one of required scope(s), required=[{level}:{category}], token scope={have}"
        )


def require_scope(category: str, *, anonymous_ok: bool = False) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator form of :func:`check_scope` for a route."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @wraps(view)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            check_scope(category, anonymous_ok=anonymous_ok)
            return view(*args, **kwargs)

        return wrapper

    return decorate


def require_admin() -> Principal:
    """The caller if a site administrator (with an admin-scoped token), else 403."""
    check_scope("admin")
    principal = current_principal()
    if not principal.is_admin:
        raise Forbidden("user should be the site admin")
    return principal
