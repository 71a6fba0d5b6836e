"""``GET|PATCH /user/settings``: the signed-in user's profile texts and preferences (Gitea's ``UserSettings``).

full_name, website, description and location live on the account row, so the ``User`` JSON shows
what was set here; language, theme, diff view style and the two privacy flags are kept beside it.
A PATCH names only what it changes, is validated as a whole first (422, nothing stored) and answers
the settings as they are now (200), as Gitea 1.27 does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import Response

from ..auth import current_principal
from ..context import forge, now_seconds
from ..errors import Forbidden, Unprocessable
from ..rest import json_body, json_response
from . import store
from .models import get_user

__all__ = ["DEFAULT_THEME", "UserSettings", "get_settings", "settings_to_api", "update_settings"]

API = "/api/v1"
DEFAULT_THEME = "gitea-auto"
"""Gitea's ``[ui] DEFAULT_THEME``, which a new account starts with."""
TEXT_LIMITS = {"full_name": 100, "website": 255, "description": 255, "location": 50}
PREFERENCE_LIMIT = 255
PREFERENCES = ("language", "theme", "diff_view_style")
FLAGS = ("hide_email", "hide_activity")
WEBSITE_SCHEMES = ("http", "https")


@dataclass(frozen=True)
class UserSettings:
    """What ``/user/settings`` shows."""

    full_name: str
    website: str
    description: str
    location: str
    language: str
    theme: str
    diff_view_style: str
    hide_email: bool
    hide_activity: bool


def _field(key: str) -> str:
    """Gitea's binding name of a JSON key (``full_name`` -> ``FullName``)."""
    return "".join(part.capitalize() for part in key.split("_"))


def get_settings(user_id: int) -> UserSettings:
    """The user's settings; preferences never changed show Gitea's defaults."""
    user = get_user(user_id)
    row = store.settings_row(user_id)
    return UserSettings(
        full_name=user.full_name,
        website=user.website,
        description=user.description,
        location=user.location,
        language=row["language"] if row else "",
        theme=row["theme"] if row else DEFAULT_THEME,
        diff_view_style=row["diff_view_style"] if row else "",
        hide_email=bool(row["hide_email"]) if row else False,
        hide_activity=bool(row["hide_activity"]) if row else False,
    )


def _text(options: Mapping[str, Any], key: str, limit: int) -> str | None:
    """A given text option (None when absent or null); 422 when not a string or too long."""
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise Unprocessable(f"[{_field(key)}]: must be a string")
    if len(value) > limit:
        raise Unprocessable(f"[{_field(key)}]: MaxSize({limit})")
    return value


def _website(value: str) -> str:
    """An empty website clears it; anything else must be an absolute http(s) URL with a host."""
    if not value:
        return value
    try:
        parts = urlsplit(value)
    except ValueError:
        raise Unprocessable("[Website]: ValidUrl") from None
    if parts.scheme.lower() not in WEBSITE_SCHEMES or not parts.hostname or any(ch.isspace() for ch in value):
        raise Unprocessable("[Website]: ValidUrl")
    return value


def _flag(options: Mapping[str, Any], key: str) -> bool | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise Unprocessable(f"[{_field(key)}]: must be a boolean")
    return value


def update_settings(user_id: int, options: Mapping[str, Any]) -> UserSettings:
    """Apply ``UserSettingsOptions``: every given field is checked before anything is written."""
    profile: dict[str, str] = {}
    for key, limit in TEXT_LIMITS.items():
        value = _text(options, key, limit)
        if value is not None:
            profile[key] = _website(value) if key == "website" else value
    preferences = {key: _text(options, key, PREFERENCE_LIMIT) for key in PREFERENCES}
    flags = {key: _flag(options, key) for key in FLAGS}
    current = get_settings(user_id)
    with forge().db.transaction():
        store.update_profile(user_id, profile, now_seconds())
        store.save_settings(
            user_id,
            language=preferences["language"] if preferences["language"] is not None else current.language,
            theme=preferences["theme"] if preferences["theme"] is not None else current.theme,
            diff_view_style=(
                preferences["diff_view_style"]
                if preferences["diff_view_style"] is not None
                else current.diff_view_style
            ),
            hide_email=flags["hide_email"] if flags["hide_email"] is not None else current.hide_email,
            hide_activity=flags["hide_activity"] if flags["hide_activity"] is not None else current.hide_activity,
        )
    return get_settings(user_id)


def settings_to_api(settings: UserSettings) -> dict[str, Any]:
    """Gitea's ``UserSettings`` object."""
    return {
        "full_name": settings.full_name,
        "website": settings.website,
        "description": settings.description,
        "location": settings.location,
        "language": settings.language,
        "theme": settings.theme,
        "diff_view_style": settings.diff_view_style,
        "hide_email": settings.hide_email,
        "hide_activity": settings.hide_activity,
    }


def get_user_settings() -> Response:
    """Get the authenticated user's settings."""
    return json_response(settings_to_api(get_settings(current_principal().user_id)))


def update_user_settings() -> Response:
    """Update the authenticated user's settings; answers them as they are now."""
    principal = current_principal()
    if principal.user_id < 0:
        raise Forbidden("the Actions user has no settings to change")
    return json_response(settings_to_api(update_settings(principal.user_id, json_body())))
