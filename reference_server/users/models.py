"""Accounts, passwords and the built-in Actions user: lookups, validation, creation and logging in.

Who may see an account is :mod:`..permissions`, Gitea's ``User`` is :mod:`.presenters`, deleting a user
(which reaches into repositories and organizations) is :mod:`.deletion`.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import current_app

from .. import passwords
from ..auth import Principal
from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..db import Row
from ..errors import BadRequest, Unprocessable
from . import store, tokens
from .errors import (
    NameReserved,
    UserAlreadyExists,
    UserNotFound,
)
from .tokens import (
    AccessToken,
    NewToken,
    create_token,
    delete_token,
    list_tokens,
    normalize_scopes,
    principal_for_token,
    token_to_api,
)

__all__ = [
    "AccessToken",
    "NewToken",
    "User",
    "account_values",
    "actions_user",
    "create_token",
    "create_user",
    "delete_token",
    "doer_identity",
    "find_account",
    "get_user",
    "get_user_by_name",
    "list_tokens",
    "normalize_scopes",
    "principal_for_password",
    "principal_for_token",
    "search_accounts",
    "search_users",
    "token_to_api",
    "validate_account_name",
    "validate_email",
    "validate_visibility",
]

MAX_NAME_LENGTH = 40
MIN_PASSWORD_LENGTH = 8
VISIBILITIES = ("public", "limited", "private")
_NAME_PATTERN = re.compile(r"^[0-9A-Za-z][0-9A-Za-z_.-]*$")
_NAME_BAD_RUNS = re.compile(r"[-._]{2,}|[-._]$")
_EMAIL_PATTERN = re.compile(
    r"^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"
)
"""Gitea's e-mail rule: an ASCII local part and a host name of letters, digits and hyphens."""
_RESERVED_WORDS = (
    ". .. .well-known admin api assets attachments avatar avatars captcha commits debug devtest error "
    "explore favicon.ico ghost gitea-actions issues login manifest.json metrics milestones new "
    "notifications org pulls raw repo repo-avatars robots.txt search serviceworker.js sitemap.xml ssh_info "
    "swagger.v1.json user v2 "
)
RESERVED_NAMES = frozenset(_RESERVED_WORDS.split())
RESERVED_SUFFIXES = (".keys", ".gpg", ".rss", ".atom", ".png")
PASSWORD_CACHE_EXTENSION = "verified_passwords"  # noqa: S105 - an extension name, not a secret


@dataclass(frozen=True)
class User:
    """An account: a person, or an organization when ``is_org``."""

    id: int
    name: str
    full_name: str
    email: str
    is_admin: bool
    is_org: bool
    created: int
    login_name: str = ""
    restricted: bool = False
    active: bool = True
    prohibit_login: bool = False
    visibility: str = "public"
    location: str = ""
    website: str = ""
    description: str = ""
    last_login: int = 0
    repo_admin_change_team_access: bool = False

    @classmethod
    def from_row(cls, row: Row) -> User:
        return cls(
            id=row["id"],
            name=row["name"],
            full_name=row["full_name"],
            email=row["email"],
            is_admin=bool(row["is_admin"]),
            is_org=bool(row["is_org"]),
            created=row["created"],
            login_name=row["login_name"],
            restricted=bool(row["restricted"]),
            active=bool(row["active"]),
            prohibit_login=bool(row["prohibit_login"]),
            visibility=row["visibility"],
            location=row["location"],
            website=row["website"],
            description=row["description"],
            last_login=row["last_login"],
            repo_admin_change_team_access=bool(row["repo_admin_change_team_access"]),
        )


# -- lookups -------------------------------------------------------------------------------------


def actions_user() -> User:
    """The built-in user a running task's job token acts as (Gitea's ``gitea-actions``, id -2, no row)."""
    return User(
        id=tokens.ACTIONS_USER_ID,
        name=tokens.ACTIONS_USER_NAME,
        full_name="Gitea Actions",
        email=tokens.ACTIONS_USER_EMAIL,
        is_admin=False,
        is_org=False,
        created=0,
        login_name=tokens.ACTIONS_USER_NAME,
    )


def search_accounts(
    *,
    is_org: bool,
    keyword: str,
    limit: int,
    offset: int,
    with_email: bool = False,
    filters: dict[str, object] | None = None,
) -> tuple[list[User], int]:
    """A page of users (or organizations) matching ``keyword`` (and the admin search's ``filters``) for the
    admin listings, and the total."""
    rows, total = store.search_accounts(
        is_org=is_org, keyword=keyword, limit=limit, offset=offset, with_email=with_email, filters=filters
    )
    return [User.from_row(row) for row in rows], total


def get_user(user_id: int) -> User:
    """The account with this id (user or organization, or the built-in Actions user); 404 otherwise."""
    if user_id == tokens.ACTIONS_USER_ID:
        return actions_user()
    row = store.account_by_id(user_id)
    if row is None:
        raise UserNotFound(f"user does not exist [uid: {user_id}]")
    return User.from_row(row)


def get_user_by_name(name: str) -> User:
    """The account with this name, case-insensitively (user or organization); 404 otherwise."""
    row = store.account_by_name(name)
    if row is None:
        raise UserNotFound(f"user does not exist [name: {name}]")
    return User.from_row(row)


def find_user_by_email(email: str) -> User | None:
    """The user (never an organization) with this e-mail, or None: commit authors are matched by e-mail."""
    row = store.user_by_email(email) if email else None
    return None if row is None else User.from_row(row)


def find_account(name: str) -> User | None:
    """The account with this name, or None."""
    row = store.account_by_name(name)
    return None if row is None else User.from_row(row)


# -- validation ----------------------------------------------------------------------------------


def validate_account_name(name: object, field: str = "Username") -> str:
    """A valid, unreserved and unused account name, else 422 with Gitea's wording."""
    if not isinstance(name, str) or not name:
        raise Unprocessable(f"[{field}]: Required")
    if len(name) > MAX_NAME_LENGTH:
        raise Unprocessable(f"[{field}]: MaxSize({MAX_NAME_LENGTH})")
    if not _NAME_PATTERN.match(name) or _NAME_BAD_RUNS.search(name):
        raise Unprocessable(
            f"[{field}]: must contain only alphanumeric, dash ('-'), underscore ('_') and dot ('.') characters,"
            " cannot begin or end with non-alphanumeric, or have consecutive non-alphanumerics"
        )
    lower = name.lower()
    if lower in RESERVED_NAMES:
        raise NameReserved(f"name is reserved [name: {name}]")
    for suffix in RESERVED_SUFFIXES:
        if lower.endswith(suffix):
            raise NameReserved(f"name pattern is not allowed [pattern: *{suffix}]")
    if store.account_by_name(name) is not None:
        raise UserAlreadyExists(f"user already exists [name: {name}]")
    return name


def validate_email(email: object, field: str = "Email", *, required: bool = True) -> str:
    """A syntactically valid e-mail address (or '' when optional and absent); 422 otherwise."""
    if email is None or email == "":
        if required:
            raise Unprocessable(f"[{field}]: Required")
        return ""
    if not isinstance(email, str) or len(email) > 254 or not _EMAIL_PATTERN.match(email):
        raise Unprocessable(f"[{field}]: Email")
    return email


def validate_visibility(value: object) -> str:
    """``public`` (default), ``limited`` or ``private``; 422 otherwise."""
    if value is None or value == "":
        return "public"
    if value not in VISIBILITIES:
        raise Unprocessable(f"[Visibility]: must be one of {', '.join(VISIBILITIES)}")
    return str(value)


# -- passwords -----------------------------------------------------------------------------------


def hash_password(password: str) -> str:
    """``scrypt$n$r$p$salt$hash`` with a fresh random salt, at the instance's configured cost."""
    return passwords.hash_password(password, forge().config.password_cost)


def verify_password(password: str, stored: str) -> bool:
    """Check ``password`` against a stored hash; a pair verified in the last minute is not re-hashed."""
    cache: passwords.VerifiedPasswordCache = current_app.extensions.setdefault(
        PASSWORD_CACHE_EXTENSION, passwords.VerifiedPasswordCache()
    )
    return cache.verify(password, stored)


# -- users ---------------------------------------------------------------------------------------


def account_values(name: str, *, is_org: bool, now: int, **fields: Any) -> dict[str, Any]:
    """Every column of a new account row, defaults filled in."""
    email = str(fields.get("email", ""))
    values: dict[str, Any] = {
        "name": name,
        "lower_name": name.lower(),
        "is_org": int(is_org),
        "full_name": "",
        "email": email,
        "lower_email": email.lower(),
        "password_hash": "",
        "login_name": "",
        "is_admin": 0,
        "restricted": 0,
        "active": 1,
        "prohibit_login": 0,
        "must_change_password": 0,
        "visibility": "public",
        "location": "",
        "website": "",
        "description": "",
        "repo_admin_change_team_access": 0,
        "created": now,
        "updated": now,
    }
    for key, value in fields.items():
        if key != "email":
            values[key] = int(value) if isinstance(value, bool) else value
    return values


def _created_at(value: object, default: int) -> int:
    """``CreateUserOption.created_at`` (RFC 3339; a time without offset is taken as UTC) or ``default``."""
    if value in (None, ""):
        return default
    if not isinstance(value, str):
        raise Unprocessable("[CreatedAt]: must be an RFC 3339 date-time")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise Unprocessable("[CreatedAt]: must be an RFC 3339 date-time") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())


def create_user(options: Mapping[str, Any]) -> User:
    """Create a user from Gitea's ``CreateUserOption``; 422 on a bad or taken name or e-mail, 400 on the password."""
    username = validate_account_name(options.get("username"))
    email = validate_email(options.get("email"))
    password = options.get("password")
    if not isinstance(password, str) or len(password) < MIN_PASSWORD_LENGTH:
        raise BadRequest(f"PasswordIsRequired: a password of at least {MIN_PASSWORD_LENGTH} characters is required")
    if store.user_by_email(email) is not None:
        raise UserAlreadyExists(f"e-mail already in use [email: {email}]")
    now = now_seconds()
    created = _created_at(options.get("created_at"), now)
    values = account_values(
        username,
        is_org=False,
        now=now,
        email=email,
        full_name=optional_text(options, "full_name", 100),
        login_name=optional_text(options, "login_name") or username,
        password_hash=hash_password(password),
        restricted=optional_flag(options, "restricted"),
        must_change_password=optional_flag(options, "must_change_password", default=True),
        visibility=validate_visibility(options.get("visibility")),
    )
    values["created"] = created
    with forge().db.transaction():
        try:
            user_id = store.insert_account(values)
        except sqlite3.IntegrityError as exc:
            raise UserAlreadyExists(f"user already exists [name: {username}]") from exc
    return get_user(user_id)


def doer_identity(principal: Principal) -> tuple[str, str]:
    """Name and e-mail that commits made by this caller carry (the Actions user for a task's job token)."""
    doer = get_user(principal.user_id)
    return doer.name, doer.email or f"{doer.name.lower()}@noreply.invalid"


# -- authentication ------------------------------------------------------------------------------


def principal_for_password(username: str, password: str) -> Principal | None:
    """The user a name (or e-mail) and password log in as, with every scope; None when they do not match."""
    row = store.user_by_email(username) if "@" in username else store.account_by_name(username)
    if row is None or row["is_org"] or not row["password_hash"]:
        return None
    if not verify_password(password, row["password_hash"]):
        return None
    if not row["active"] or row["prohibit_login"]:
        return None
    store.set_last_login(row["id"], now_seconds())
    return Principal(row["id"], row["name"], bool(row["is_admin"]), frozenset({"all"}), None, by_password=True)


def search_users(keyword: str, *, uid: int, with_email: bool) -> list[User]:
    """Users matching ``keyword`` (and ``uid`` when not 0), alphabetically; who may see them is the caller's."""
    return [User.from_row(row) for row in store.search_users_by_name(keyword, uid=uid, with_email=with_email)]
