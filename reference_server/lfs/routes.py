"""LFS routes under ``/<owner>/<repo>.git/info/lfs/`` (thin: media type, access, call the model, render in
the LFS format ``{"message"}`` with ``application/vnd.git-lfs+json``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec

from flask import Flask, Response, request, send_file

from ..access import GIT, token
from ..auth import current_principal, optional_principal
from ..context import forge
from ..endpoints import API, FILE, WIRE, Endpoint
from ..errors import ApiError
from ..events import RepoDeletedEvent
from ..filenames import content_disposition
from ..permissions import current_repo
from . import locks, models
from .errors import LfsLockConflict, LfsNotAcceptable

__all__ = ["ENDPOINTS", "register"]

LFS = "/<owner>/<repo>.git/info/lfs"
MEDIA = "/api/v1/repos/<owner>/<repo>/media/<path:filepath>"
CHALLENGE = 'Basic realm="gitea-lfs"'
P = ParamSpec("P")


def _lfs_json(payload: Any, status: int = 200) -> Response:
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return Response(body, status=status, content_type=models.MEDIA_TYPE)


def _lfs_errors(view: Callable[P, Response]) -> Callable[P, Response]:
    """Render any error of an LFS route as LFS JSON; a 401 carries the challenge git-lfs looks for."""

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Response:
        try:
            return view(*args, **kwargs)
        except ApiError as error:
            payload: dict[str, Any] = {"message": error.message}
            if isinstance(error, LfsLockConflict) and error.lock is not None:
                payload["lock"] = error.lock
            response = _lfs_json(payload, error.status)
            if error.status == 401:
                response.headers["LFS-Authenticate"] = CHALLENGE
                response.headers["WWW-Authenticate"] = CHALLENGE
            return response

    return wrapper


def _require_lfs_media_type() -> None:
    """The batch, verify and locks APIs answer only clients that accept the LFS media type (415 otherwise)."""
    if request.headers.get("Accept", "").split(";")[0].strip() != models.MEDIA_TYPE:
        raise LfsNotAcceptable()


@_lfs_errors
def lfs_batch(owner: str, repo: str) -> Response:
    """The batch API: actions (basic transfer) for each object to upload or download."""
    _require_lfs_media_type()
    body = models.parse_json(request.get_data())
    operation = models.batch_operation(body)
    found = models.authorize(owner, repo, write=operation == "upload")
    return _lfs_json(models.batch(found, body, optional_principal()))


@_lfs_errors
def lfs_upload(owner: str, repo: str, oid: str, size: str) -> Response:
    """Receive one object; its size and SHA-256 are checked while it streams (422 and nothing kept otherwise)."""
    found = models.authorize(owner, repo, write=True)
    models.receive_object(found, oid, size, request.stream)
    return Response(b"", status=200)


@_lfs_errors
def lfs_download(owner: str, repo: str, oid: str) -> Response:
    """Send one object linked to the repository (ranges honoured)."""
    found = models.authorize(owner, repo, write=False)
    path, _ = models.object_path(found, oid)
    return send_file(path, mimetype="application/octet-stream", conditional=True, max_age=0)


@_lfs_errors
def lfs_verify(owner: str, repo: str) -> Response:
    """The client's check after an upload: the object is linked with the announced size."""
    _require_lfs_media_type()
    found = models.authorize(owner, repo, write=True)
    models.verify_object(found, models.parse_json(request.get_data()))
    return _lfs_json({"message": "OK"})


@_lfs_errors
def lfs_list_locks(owner: str, repo: str) -> Response:
    """The repository's locks (by ``id``, ``path``, or a page from ``cursor``)."""
    _require_lfs_media_type()
    found = models.authorize(owner, repo, write=False)
    return _lfs_json(locks.list_locks(found, request.args))


@_lfs_errors
def lfs_create_lock(owner: str, repo: str) -> Response:
    """Lock a path for the caller (409 with the existing lock when taken)."""
    _require_lfs_media_type()
    found = models.authorize(owner, repo, write=True)
    return _lfs_json(locks.create_lock(found, models.parse_json(request.get_data()), current_principal()), 201)


@_lfs_errors
def lfs_verify_locks(owner: str, repo: str) -> Response:
    """The locks a pusher holds (``ours``) and those of others (``theirs``)."""
    _require_lfs_media_type()
    found = models.authorize(owner, repo, write=True)
    return _lfs_json(locks.verify_locks(found, models.parse_json(request.get_data()), current_principal()))


@_lfs_errors
def lfs_unlock(owner: str, repo: str, lock_id: str) -> Response:
    """Remove a lock (its owner, or another writer with ``force``)."""
    _require_lfs_media_type()
    found = models.authorize(owner, repo, write=True)
    body = models.parse_json(request.get_data())
    return _lfs_json(locks.unlock(found, lock_id, body, current_principal()))


def repo_get_raw_file_or_lfs(owner: str, repo: str, filepath: str) -> Response:
    """A file of the repository at ``ref`` (default branch), or the LFS object its pointer names."""
    found = current_repo()
    content, name = models.media_file(found, filepath, request.args.get("ref") or None)
    if isinstance(content, Path):
        response = send_file(content, mimetype="application/octet-stream", conditional=True, max_age=0)
    else:
        response = Response(content, content_type="application/octet-stream")
    response.headers["Content-Disposition"] = content_disposition("inline", name, fallback="file")
    return response


def register(app: Flask) -> None:
    """Drop a deleted repository's objects and locks."""
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        "/<owner>/<repo>.git/info/lfs/objects/batch",
        "lfsBatch",
        lfs_batch,
        "lfs",
        GIT,
        returns="lfs_batch_response",
    ),
    Endpoint(
        "PUT", "/<owner>/<repo>.git/info/lfs/objects/<oid>/<size>", "lfsUpload", lfs_upload, "lfs", GIT, returns=WIRE
    ),
    Endpoint(
        "GET", "/<owner>/<repo>.git/info/lfs/objects/<oid>", "lfsDownload", lfs_download, "lfs", GIT, returns=WIRE
    ),
    Endpoint("POST", "/<owner>/<repo>.git/info/lfs/verify", "lfsVerify", lfs_verify, "lfs", GIT, returns=WIRE),
    Endpoint("GET", "/<owner>/<repo>.git/info/lfs/locks", "lfsListLocks", lfs_list_locks, "lfs", GIT, returns=WIRE),
    Endpoint("POST", "/<owner>/<repo>.git/info/lfs/locks", "lfsCreateLock", lfs_create_lock, "lfs", GIT, returns=WIRE),
    Endpoint(
        "POST",
        "/<owner>/<repo>.git/info/lfs/locks/verify",
        "lfsVerifyLocks",
        lfs_verify_locks,
        "lfs",
        GIT,
        returns=WIRE,
    ),
    Endpoint(
        "POST", "/<owner>/<repo>.git/info/lfs/locks/<lock_id>/unlock", "lfsUnlock", lfs_unlock, "lfs", GIT, returns=WIRE
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/media/<path:filepath>",
        "repoGetRawFileOrLFS",
        repo_get_raw_file_or_lfs,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns=FILE,
        errors=(404,),
    ),
)
