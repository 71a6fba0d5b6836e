"""Accounts, passwords and access tokens: the rules, and the converters to Gitea's ``User``/``AccessToken``."""

from __future__ import annotations

import contextlib
import hashlib
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlsplit

from flask import current_app, has_request_context

from .. import passwords
from ..auth import Principal, optional_principal
from ..context import forge, now_seconds
from ..db import Row
from ..errors import BadRequest, Forbidden, Unprocessable
from ..events import AccountDeletedEvent
from ..timefmt import iso, iso_or_zero
from . import store, tokens
from .errors import (
    NameReserved,
    UserAlreadyExists,
    UserHasRepositories,
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
    "avatar_url",
    "bootstrap_admin",
    "create_token",
    "create_user",
    "delete_token",
    "delete_user",
    "doer_identity",
    "find_account",
    "get_user",
    "get_user_by_name",
    "is_visible_to",
    "list_tokens",
    "normalize_scopes",
    "optional_flag",
    "optional_text",
    "principal_for_password",
    "principal_for_token",
    "remove_empty_owner_dir",
    "require_self_or_admin",
    "search_accounts",
    "token_to_api",
    "user_to_api",
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


def search_accounts(*, is_org: bool, keyword: str, limit: int, offset: int) -> tuple[list[User], int]:
    """A page of users (or organizations) matching ``keyword`` for the admin listings, and the total."""
    rows, total = store.search_accounts(is_org=is_org, keyword=keyword, limit=limit, offset=offset)
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


def is_visible_to(account: User, viewer: Principal | None) -> bool:
    """Public accounts are seen by all, limited ones by signed-in callers, private ones by themselves,
    their organization's members and site admins (Gitea's ``IsUserVisibleToViewer``)."""
    if account.visibility == "public":
        return True
    if viewer is None:
        return False
    if account.visibility == "limited" or viewer.is_admin or viewer.user_id == account.id:
        return True
    if account.is_org:
        from ..orgs.models import is_org_member

        return is_org_member(viewer.user_id, account.id)
    return False


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


def optional_text(options: Mapping[str, Any], key: str, max_length: int = 255) -> str:
    """A string option ('' when absent); 422 when it is not a string or too long."""
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"[{key[:1].upper()}{key[1:]}]: must be a string")
    if len(value) > max_length:
        raise Unprocessable(f"[{key[:1].upper()}{key[1:]}]: MaxSize({max_length})")
    return value


def optional_flag(options: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """A boolean option; 422 when present but not a boolean."""
    value = options.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise Unprocessable(f"[{key[:1].upper()}{key[1:]}]: must be a boolean")
    return value


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


def delete_user(name: str, *, purge: bool, doer: Principal) -> None:
    """Delete a user; refused (422) while it owns repositories or belongs to organizations, unless ``purge``."""
    from ..orgs import models as orgs
    from ..repos import models as repos

    user = get_user_by_name(name)
    if user.is_org:
        raise UserNotFound(f"user does not exist [name: {name}]")
    if user.id == doer.user_id:
        raise Unprocessable("you cannot delete yourself")
    owned = repos.repos_of_owner(user.id)
    if owned and not purge:
        raise UserHasRepositories(f"user still has ownership of repositories [uid: {user.id}]")
    if orgs.orgs_of_member(user.id) and not purge:
        raise Unprocessable(f"user still has membership of organizations [uid: {user.id}]")
    for repo in owned:
        repos.delete_repo(repo)
    with forge().db.transaction():
        forge().events.publish(AccountDeletedEvent(user.id, is_org=False))
        orgs.leave_all_orgs(user.id)
        try:
            store.delete_account(user.id)
        except sqlite3.IntegrityError as exc:
            raise Unprocessable(f"user is still referenced by other records [uid: {user.id}]") from exc


def remove_empty_owner_dir(event: AccountDeletedEvent) -> None:
    """An account that is going leaves no empty ``<data>/git/<owner>`` behind (its repositories went first)."""
    from ..repos.models import git_path_for

    row = store.account_by_id(event.account_id)
    if row is None:
        return
    owner_dir = git_path_for(row["name"], "-").parent
    with contextlib.suppress(OSError):  # missing, or still holding something that is not ours to remove
        owner_dir.rmdir()


def _placeholder_email(user: User) -> str:
    host = urlsplit(forge().config.base_url).hostname or "localhost"
    return f"{user.name.lower()}@noreply.{host}"


def avatar_url(user: User) -> str:
    """The uploaded avatar's URL, else Gitea's local default link keyed by the hash of the e-mail (or the name)."""
    from ..avatars.models import account_avatar_url

    uploaded = account_avatar_url(user.id)
    if uploaded:
        return uploaded
    key = (user.email or user.name).strip().lower().encode("utf-8")
    return forge().url(f"avatars/{hashlib.md5(key, usedforsecurity=False).hexdigest()}")


def user_to_api(user: User, viewer: Principal | None = None, *, anonymous: bool | None = None) -> dict[str, Any]:
    """Gitea's ``User``; e-mail and account details only for the user themself or a site admin.

    ``viewer`` defaults to the caller of the current request.
    """
    if viewer is None and anonymous is None and has_request_context():
        viewer = optional_principal()
    signed = viewer is not None
    authed = viewer is not None and (viewer.is_admin or viewer.user_id == user.id)
    email = user.email if signed and user.email else _placeholder_email(user)
    return {
        "id": user.id,
        "login": user.name,
        "login_name": user.login_name if authed else "",
        "source_id": 0,
        "full_name": user.full_name,
        "email": email,
        "avatar_url": avatar_url(user),
        "html_url": forge().url(quote(user.name)),
        "language": "",
        "is_admin": user.is_admin if authed else False,
        "last_login": iso_or_zero(user.last_login) if authed else iso_or_zero(None),
        "created": iso(user.created),
        "restricted": user.restricted,
        "active": user.active if authed else False,
        "prohibit_login": user.prohibit_login if authed else False,
        "location": user.location,
        "website": user.website,
        "description": user.description,
        "visibility": user.visibility,
        "followers_count": 0,
        "following_count": 0,
        "starred_repos_count": 0,
        "username": user.name,
    }


def doer_identity(principal: Principal) -> tuple[str, str]:
    """Name and e-mail that commits made by this caller carry (the Actions user for a task's job token)."""
    doer = get_user(principal.user_id)
    return doer.name, doer.email or f"{doer.name.lower()}@noreply.invalid"


def require_self_or_admin(principal: Principal, user: User) -> None:
    """Token routes act for the user themself, or any user for a site admin (403 otherwise)."""
    if not principal.is_admin and principal.user_id != user.id:
        raise Forbidden("doer should be the site admin or be same as the contextUser")


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


def bootstrap_admin() -> str | None:
    """Create the configured admin on first start and make its configured token the bootstrap token.

    Returns a freshly generated token to print when no token was configured and the admin has none.
    """
    from .bootstrap import bootstrap

    return bootstrap()
