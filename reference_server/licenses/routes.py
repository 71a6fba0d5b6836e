"""Routes of license detection: ``GET /repos/{owner}/{repo}/licenses``, and the events that recompute it."""

from __future__ import annotations

from flask import Flask, Response

from ..access import token
from ..context import forge
from ..endpoints import Endpoint
from ..events import DefaultBranchChangedEvent, PushEvent, RepoCreatedEvent, RepoDeletedEvent
from ..permissions import current_repo
from ..rest import json_response
from . import models

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"


def repo_get_licenses(owner: str, repo: str) -> Response:
    """The SPDX identifiers detected on the default branch, sorted (code readers)."""
    return json_response(models.repo_licenses(current_repo().id))


def register(app: Flask) -> None:
    """Subscribe detection to pushes, creations, default-branch changes and deletions."""
    events = forge().events
    events.subscribe(PushEvent, models.on_push)
    events.subscribe(RepoCreatedEvent, models.on_repo_created)
    events.subscribe(DefaultBranchChangedEvent, models.on_default_branch_changed)
    events.subscribe(RepoDeletedEvent, models.on_repo_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/licenses",
        "repoGetLicenses",
        repo_get_licenses,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="string_list",
        errors=(404,),
    ),
)
