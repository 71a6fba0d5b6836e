"""Gitea's ``OAuth2Application``: the secret is empty except in the answer that generated it."""

from __future__ import annotations

from typing import Any

from ..timefmt import iso
from .oauth2 import OAuth2App

__all__ = ["oauth2_app_to_api"]


def oauth2_app_to_api(app: OAuth2App) -> dict[str, Any]:
    return {
        "id": app.id,
        "name": app.name,
        "client_id": app.client_id,
        "client_secret": app.client_secret,
        "confidential_client": app.confidential_client,
        "skip_secondary_authorization": app.skip_secondary_authorization,
        "redirect_uris": app.redirect_uris,
        "created": iso(app.created),
    }
