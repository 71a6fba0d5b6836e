"""Gitea's ``User`` and account avatars as the API shows them; above the models, which never render."""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import quote, urlsplit

from flask import has_request_context

from ..auth import Principal, optional_principal
from ..avatars.models import account_avatar_url
from ..context import forge
from ..timefmt import iso, iso_or_zero
from .emails import EmailAddress
from .errors import UserNotFound
from .models import User, get_user
from .relations import count_followers, count_following

__all__ = ["avatar_url", "email_to_api", "poster_to_api", "user_to_api"]


def _placeholder_email(user: User) -> str:
    """What Gitea shows anonymous callers (and for accounts without one) instead of the e-mail."""
    host = urlsplit(forge().config.base_url).hostname or "localhost"
    return f"{user.name.lower()}@noreply.{host}"


def avatar_url(user: User) -> str:
    """The uploaded avatar's URL, else Gitea's local default link keyed by the hash of the e-mail (or the name)."""
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
        "followers_count": count_followers(user.id) if user.id > 0 else 0,
        "following_count": count_following(user.id) if user.id > 0 else 0,
        "starred_repos_count": 0,
        "username": user.name,
    }


def email_to_api(address: EmailAddress) -> dict[str, Any]:
    """Gitea's ``Email`` of one of a user's addresses."""
    return {
        "email": address.email,
        "verified": address.verified,
        "primary": address.primary,
        "user_id": address.user_id,
        "username": address.username,
    }


def poster_to_api(user_id: int) -> dict[str, Any]:
    """Gitea's ``User`` of a poster, or Gitea's ghost user when the account is gone."""
    try:
        return user_to_api(get_user(user_id))
    except UserNotFound:
        ghost = User(id=-1, name="Ghost", full_name="", email="", is_admin=False, is_org=False, created=0)
        return user_to_api(ghost)
