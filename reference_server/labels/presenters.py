"""Gitea's ``Label`` as the API shows it; above the models, which never render."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..context import forge
from .models import Label

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = ["label_to_api", "org_label_to_api"]


def label_to_api(label: Label, repo: Repo) -> dict[str, Any]:
    """Gitea's ``Label`` (colour without ``#``) as seen from a repository: its own, or its organization's."""
    if label.org_id:
        return org_label_to_api(label, repo.owner_name)
    return _render(label, f"repos/{quote(repo.owner_name)}/{quote(repo.name)}/labels/{label.id}")


def org_label_to_api(label: Label, org_name: str) -> dict[str, Any]:
    """An organization's label, whose ``url`` is under ``/orgs/{org}/labels``, as Gitea renders it."""
    return _render(label, f"orgs/{quote(org_name)}/labels/{label.id}")


def _render(label: Label, path: str) -> dict[str, Any]:
    return {
        "id": label.id,
        "name": label.name,
        "exclusive": label.exclusive,
        "is_archived": label.is_archived,
        "color": label.color.lstrip("#"),
        "description": label.description,
        "url": forge().api_url(path),
    }
