"""Gitea's ``Label`` as the API shows it; above the models, which never render."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..context import forge
from .models import Label

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = ["label_to_api"]


def label_to_api(label: Label, repo: Repo) -> dict[str, Any]:
    """Gitea's ``Label`` (colour without ``#``)."""
    path = f"repos/{quote(repo.owner_name)}/{quote(repo.name)}/labels/{label.id}"
    return {
        "id": label.id,
        "name": label.name,
        "exclusive": label.exclusive,
        "is_archived": label.is_archived,
        "color": label.color.lstrip("#"),
        "description": label.description,
        "url": forge().api_url(path),
    }
