"""Gitea's ``Badge`` as the API shows it; above the models, which never render."""

from __future__ import annotations

from typing import Any

from .models import Badge

__all__ = ["badge_to_api"]


def badge_to_api(badge: Badge) -> dict[str, Any]:
    """The swagger's ``Badge`` keys (``id, slug, description, image_url``); Gitea itself sends ``ID, Slug,
    Description, ImageURL`` because its model has no JSON tags: a documented deviation of the reference."""
    return {"id": badge.id, "slug": badge.slug, "description": badge.description, "image_url": badge.image_url}
