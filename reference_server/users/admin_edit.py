"""A site administrator edits a user (``PATCH /admin/users/{username}``, Gitea's ``EditUserOption``).

As Gitea does it: first the sign-in (login source and name, password, must-change and prohibit-login), then the
e-mail, then the profile, flags and limits; a field the body leaves out keeps its value. What Gitea answers with
400 (a short password, a bad or taken e-mail, removing the last administrator) is 400 here too, with Gitea's
words. The limits take effect where Gitea applies them: a user who may not create organizations is refused one,
and a user at ``max_repo_creation`` repositories is refused another (``repos.creation``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..bodies import optional_flag, optional_text
from ..context import forge, now_seconds
from ..errors import BadRequest, Unprocessable
from . import store
from .models import (
    MIN_PASSWORD_LENGTH,
    User,
    get_user,
    hash_password,
    validate_email,
    validate_visibility,
)

__all__ = ["LIMIT_FIELDS", "edit_user"]

LIMIT_FIELDS = ("allow_create_organization", "allow_git_hook", "allow_import_local")
"""The boolean limits of an account (``max_repo_creation`` is a number)."""
LOCAL_SOURCE = 0
"""The only login source of the reference: its own accounts."""


def edit_user(user: User, options: Mapping[str, Any]) -> User:
    """Apply ``EditUserOption`` to ``user`` in one transaction; answers the user as it is then."""
    if user.is_org:
        raise Unprocessable(f"{user.name} is an organization not a user")
    fields = _sign_in(options) | _email(user, options) | _profile(user, options)
    limits = _limits(options)
    with forge().db.transaction():
        if fields.get("is_admin") == 0 and user.is_admin and store.count_admins() <= 1:
            raise BadRequest(f"can not delete the last admin user [uid: {user.id}]")
        store.update_account(user.id, fields, now_seconds())
        if limits:
            store.set_limits(user.id, limits)
    return get_user(user.id)


def _sign_in(options: Mapping[str, Any]) -> dict[str, Any]:
    source = options.get("source_id") or LOCAL_SOURCE
    if source != LOCAL_SOURCE:
        raise Unprocessable(f"login source does not exist [id: {source}]")
    fields: dict[str, Any] = {"login_name": optional_text(options, "login_name")}
    password = optional_text(options, "password")
    if password:
        if len(password) < MIN_PASSWORD_LENGTH:
            raise BadRequest(f"password must be at least {MIN_PASSWORD_LENGTH} characters")
        fields["password_hash"] = hash_password(password)
    for key, column in (("must_change_password", "must_change_password"), ("prohibit_login", "prohibit_login")):
        if options.get(key) is not None:
            fields[column] = int(optional_flag(options, key))
    return fields


def _email(user: User, options: Mapping[str, Any]) -> dict[str, Any]:
    if options.get("email") is None:
        return {}
    try:
        email = validate_email(options.get("email"))
    except Unprocessable:
        raise BadRequest(f"e-mail invalid [email: {options.get('email')}]") from None
    owner = store.user_by_email(email)
    if owner is not None and owner["id"] != user.id:
        raise BadRequest(f"e-mail already in use [email: {email}]")
    return {"email": email, "lower_email": email.lower()}


def _profile(user: User, options: Mapping[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for key, limit in (("full_name", 100), ("location", 50), ("description", 255), ("website", 255)):
        if options.get(key) is not None:
            fields[key] = optional_text(options, key, limit)
    website = fields.get("website", "")
    if website and not website.startswith(("http://", "https://")):
        raise Unprocessable("[Website]: ValidUrl")
    for key, column in (("active", "active"), ("admin", "is_admin"), ("restricted", "restricted")):
        if options.get(key) is not None:
            fields[column] = int(optional_flag(options, key))
    if options.get("visibility") not in (None, ""):
        fields["visibility"] = validate_visibility(options.get("visibility"))
    return fields


def _limits(options: Mapping[str, Any]) -> dict[str, int]:
    limits = {key: int(optional_flag(options, key)) for key in LIMIT_FIELDS if options.get(key) is not None}
    maximum = options.get("max_repo_creation")
    if maximum is not None:
        if isinstance(maximum, bool) or not isinstance(maximum, int) or maximum < -1:
            raise Unprocessable("[MaxRepoCreation]: must be -1 (the instance's limit) or more")
        limits["max_repo_creation"] = maximum
    return limits
