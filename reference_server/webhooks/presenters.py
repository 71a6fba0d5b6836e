"""Gitea's ``Hook`` as the API shows it; above the models, which never render."""

from __future__ import annotations

from typing import Any

from ..timefmt import iso
from .models import Hook

__all__ = ["hook_to_api"]


def hook_to_api(hook: Hook) -> dict[str, Any]:
    """Gitea 1.27's ``Hook``: the secret is never part of it."""
    return {
        "id": hook.id,
        "type": hook.type,
        "name": hook.name,
        "branch_filter": hook.branch_filter,
        "config": {"url": hook.url, "content_type": hook.content_type, "http_method": hook.http_method},
        "events": list(hook.events),
        "authorization_header": hook.authorization_header,
        "active": hook.active,
        "created_at": iso(hook.created),
        "updated_at": iso(hook.updated),
    }
