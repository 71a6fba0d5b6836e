"""The ``release`` webhook event: Gitea announces a release when it is published (created as such, or a draft
made public), edited while published, and deleted unless it was a draft; a draft is never announced
(``services/release/release.go``, ``sendReleaseHook`` of ``services/webhook/notifier.go``)."""

from __future__ import annotations

from typing import Any

from ..repos import models as repos
from ..webhooks.delivery import announce
from ..webhooks.payloads import envelope
from . import models
from .presenters import release_to_api

__all__ = ["announce_created", "announce_deleted", "announce_edited"]


def _announce(repo: repos.Repo, release: models.Release, action: str, sender_id: int) -> None:
    def payload() -> dict[str, Any]:
        assets = models.attachments_of([release])[release.id]
        return {"action": action, "release": release_to_api(release, repo, assets), **envelope(repo, sender_id)}

    announce(repo, "release", payload)


def announce_created(repo: repos.Repo, release: models.Release) -> None:
    """``published`` for a release created public, sent as its publisher."""
    if not release.is_draft:
        _announce(repo, release, "published", release.publisher_id)


def announce_edited(repo: repos.Repo, before: models.Release, after: models.Release, doer_id: int) -> None:
    """``published`` (as the publisher) when a draft became public, ``updated`` when a public one changed."""
    if after.is_draft:
        return
    if before.is_draft:
        _announce(repo, after, "published", after.publisher_id)
    else:
        _announce(repo, after, "updated", doer_id)


def announce_deleted(repo: repos.Repo, release: models.Release, doer_id: int) -> None:
    """``deleted`` with the release as it was, unless it was a draft. Call before the rows go."""
    if not release.is_draft:
        _announce(repo, release, "deleted", doer_id)
