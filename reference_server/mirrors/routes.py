"""Routes of push mirrors (Gitea's repoListPushMirrors, repoAddPushMirror, repoPushMirrorSync,
repoGetPushMirrorByRemoteName, repoDeletePushMirror): repository administrators only."""

from __future__ import annotations

from flask import Flask, Response, current_app

from ..access import token
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import PushEvent, RepoDeletedEvent
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .presenters import push_mirror_to_api
from .worker import EXTENSION, MirrorSyncWorker

__all__ = ["ENDPOINTS", "register"]

MIRRORS = API + "/repos/<owner>/<repo>/push_mirrors"


def repo_list_push_mirrors(owner: str, repo: str) -> Response:
    found = current_repo()
    page = page_params()
    rows, total = models.list_mirrors(found, page.limit, page.offset)
    return paged_response([push_mirror_to_api(row, found) for row in rows], page, total)


def repo_add_push_mirror(owner: str, repo: str) -> Response:
    """Add a mirror; 200 with it (Gitea answers 200, not 201)."""
    found = current_repo()
    return json_response(push_mirror_to_api(models.create_mirror(found, json_body()), found))


def repo_push_mirror_sync(owner: str, repo: str) -> Response:
    """Push to every mirror now; 200 without a body."""
    models.sync_mirrors(current_repo())
    return empty(200)


def repo_get_push_mirror_by_remote_name(owner: str, repo: str, name: str) -> Response:
    found = current_repo()
    return json_response(push_mirror_to_api(models.get_mirror(found, name), found))


def repo_delete_push_mirror(owner: str, repo: str, name: str) -> Response:
    models.delete_mirror(current_repo(), name)
    return empty()


def _on_repo_deleted(event: RepoDeletedEvent) -> None:
    models.on_repo_deleted(event.repo_id)


def _on_push(event: PushEvent) -> None:
    """A push (or a commit made through the API) queues a sync of the mirrors marked sync_on_commit."""
    mirror_ids = models.commit_synced_mirrors(event.repo_id)
    if mirror_ids:
        worker: MirrorSyncWorker = current_app.extensions[EXTENSION]
        for mirror_id in mirror_ids:
            worker.submit((event.repo_id, mirror_id))


def register(app: Flask) -> None:
    """A deleted repository's mirrors go with it; pushes sync the mirrors that ask for it, in the background."""
    app.extensions[EXTENSION] = MirrorSyncWorker(app)
    forge().events.subscribe(RepoDeletedEvent, _on_repo_deleted)
    forge().events.subscribe(PushEvent, _on_push)


_ADMIN = token("repository", repo="admin")

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        MIRRORS,
        "repoListPushMirrors",
        repo_list_push_mirrors,
        "repository",
        _ADMIN,
        returns="[push_mirror]",
        errors=(400, 403, 404),
    ),
    Endpoint(
        "POST",
        MIRRORS,
        "repoAddPushMirror",
        repo_add_push_mirror,
        "repository",
        _ADMIN,
        body="CreatePushMirrorOption",
        returns="push_mirror",
        errors=(400, 401, 403, 404, 423),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/push_mirrors-sync",
        "repoPushMirrorSync",
        repo_push_mirror_sync,
        "repository",
        _ADMIN,
        returns=EMPTY,
        errors=(400, 403, 404, 423),
    ),
    Endpoint(
        "GET",
        MIRRORS + "/<name>",
        "repoGetPushMirrorByRemoteName",
        repo_get_push_mirror_by_remote_name,
        "repository",
        _ADMIN,
        returns="push_mirror",
        errors=(400, 403, 404),
    ),
    Endpoint(
        "DELETE",
        MIRRORS + "/<name>",
        "repoDeletePushMirror",
        repo_delete_push_mirror,
        "repository",
        _ADMIN,
        status=204,
        returns=EMPTY,
        errors=(400, 404, 423),
    ),
)
