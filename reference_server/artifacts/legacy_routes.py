"""Wire handlers of the legacy artifact protocol (v3) under ``/api/actions_pipeline/`` (``ACTIONS_RUNTIME_URL``).

Routes, after ``_apis/pipelines/workflows/<run>/artifacts``, as Gitea 1.27 mounts them:
``POST`` (container: the upload URL), ``PUT <md5(name)>/upload?itemPath=`` (one chunk), ``PATCH
?artifactName=`` (the size patch that merges and confirms), ``GET`` (list), ``GET <md5(name)>/download_url
?itemPath=<name>`` (the files) and ``GET <id>/download`` (one file, ``Content-Encoding: gzip`` when it was
uploaded so). Every call carries ``Authorization: Bearer <ACTIONS_RUNTIME_TOKEN>`` of a running task of the
run in the path. Refusals are plain text, as Gitea's ``http.Error`` writes them.
"""

from __future__ import annotations

import io
from typing import IO, cast
from urllib.parse import quote

from flask import Flask, Response, jsonify, request
from werkzeug.wsgi import wrap_file

from ..access import JOB
from ..context import forge
from ..endpoints import FILE, Endpoint
from ..errors import TwirpError
from ..rest import decode_json
from . import legacy_models as legacy
from .errors import LegacyError
from .serve import PartsReader
from .staging import read_at_most
from .twirp import Caller, authenticate

__all__ = ["ENDPOINTS", "LEGACY_PREFIX", "register"]

LEGACY_PREFIX = "/api/actions_pipeline/"
BASE = "/api/actions_pipeline/_apis/pipelines/workflows/<int:run_id>/artifacts"
API_VERSION = "6.0-preview"
MAX_JSON_BODY = 64 * 1024
PIECE = 1024 * 1024


def _caller(run_id: int) -> Caller:
    """The task behind the bearer token (401), which must belong to the path's run (400, Gitea's check)."""
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        raise LegacyError(401, "Bad authorization header")
    try:
        caller = authenticate()
    except TwirpError as exc:  # Gitea answers 500 here; a bad token is the caller's fault
        raise LegacyError(401, exc.msg) from exc
    if caller.run_id != run_id:
        raise LegacyError(400, "run-id does not match")
    return caller


def _require_api_version() -> None:
    """The container routes need ``api-version=6.0-preview``, which every v3 client sends (the reference's
    choice; Gitea does not look)."""
    version = request.args.get("api-version")
    if version != API_VERSION:
        raise LegacyError(400, f"the api-version query parameter must be {API_VERSION}")


def _url(run_id: int, tail: str) -> str:
    return forge().url(f"api/actions_pipeline/_apis/pipelines/workflows/{run_id}/artifacts/{tail}")


def _success() -> Response:
    return jsonify({"message": "success"})


def create_container(run_id: int) -> Response:
    """POST: the upload URL of an artifact (nothing is stored before its first chunk, as in Gitea)."""
    _require_api_version()
    _caller(run_id)
    body = read_at_most(cast(io.RawIOBase, request.stream), MAX_JSON_BODY + 1)
    try:
        data = decode_json(body or b"{}")
    except ValueError as exc:
        raise LegacyError(400, "Error decode request body") from exc
    if not isinstance(data, dict) or len(body) > MAX_JSON_BODY:
        raise LegacyError(400, "Error decode request body")
    fields = {str(key).lower(): value for key, value in data.items()}  # Go's decoder ignores the case of keys
    name = fields.get("name")
    days = fields.get("retentiondays", 0)
    if not isinstance(name, str) or not isinstance(days, int) or isinstance(days, bool):
        raise LegacyError(400, "Name must be a string and RetentionDays a whole number")
    name = legacy.checked_name(name)
    query = f"?retentionDays={days}" if days > 0 else ""
    return jsonify({"fileContainerResourceUrl": _url(run_id, f"{legacy.artifact_hash(name)}/upload{query}")})


def upload_chunk(run_id: int, artifact_hash: str) -> Response:
    """PUT: one chunk of one file; the body streams to disk."""
    caller = _caller(run_id)
    upload = legacy.ChunkUpload(
        repo_id=caller.repo_id,
        run_id=caller.run_id,
        job_id=caller.job_id,
        task_id=caller.task_id,
        item_path=request.args.get("itemPath", ""),
        content_range=request.headers.get("Content-Range"),
        content_length=request.content_length,
        file_length=request.headers.get("x-tfs-filelength"),
        content_encoding=request.headers.get("Content-Encoding", ""),
        md5=request.headers.get("x-actions-results-md5"),
        retention=request.args.get("retentionDays"),
    )
    request.max_content_length = forge().config.limits.max_block_bytes + 1
    legacy.upload_chunk(upload, artifact_hash, cast(io.RawIOBase, request.stream))
    return _success()


def confirm_upload(run_id: int) -> Response:
    """PATCH: merge and confirm every file of ``artifactName`` (the ``Size`` body is not checked, as in Gitea)."""
    _require_api_version()
    _caller(run_id)
    name = request.args.get("artifactName", "")
    if not name:
        raise LegacyError(400, "Error artifact name is empty")
    legacy.confirm_artifact(run_id, name)
    return _success()


def list_artifacts(run_id: int) -> Response:
    """GET: the run's artifacts by name; 404 when there is none, as Gitea answers."""
    _require_api_version()
    _caller(run_id)
    names = legacy.listed_names(run_id)
    if not names:
        raise LegacyError(404, "Not Found")
    value = [
        {"name": name, "fileContainerResourceUrl": _url(run_id, f"{legacy.artifact_hash(name)}/download_url")}
        for name in names
    ]
    return jsonify({"count": len(value), "value": value})


def list_items(run_id: int, artifact_hash: str) -> Response:
    """GET: the files of the artifact ``itemPath`` names, each with its download URL."""
    _caller(run_id)
    name = request.args.get("itemPath", "").strip("/")
    legacy.check_artifact_hash(artifact_hash, name)
    items = legacy.listed_items(run_id, name)
    if not items:
        raise LegacyError(404, "Not Found")
    value = [
        {"path": f"{name}/{item.path}", "itemType": "file", "contentLocation": _url(run_id, f"{item.id}/download")}
        for item in items
    ]
    return jsonify({"value": value})


def download_item(run_id: int, item_id: int) -> Response:
    """GET: one file as stored (gzip'ed files keep ``Content-Encoding: gzip``; the client inflates them)."""
    _caller(run_id)
    item = legacy.downloadable_item(run_id, item_id)
    reader = PartsReader([forge().blobs.path(item.blob_key)], 0, item.stored_size)
    response = Response(
        wrap_file(request.environ, cast("IO[bytes]", reader), PIECE),
        status=200,
        content_type="application/octet-stream",
        direct_passthrough=True,
    )
    response.content_length = item.stored_size
    if item.content_encoding == "gzip":
        response.headers["Content-Encoding"] = "gzip"
    base = item.path.rsplit("/", 1)[-1]
    response.headers["Content-Disposition"] = f"attachment; filename*=UTF-8''{quote(base, safe='')}"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _legacy_error(error: LegacyError) -> Response:
    return Response(error.message + "\n", status=error.status, content_type="text/plain; charset=utf-8")


def register(app: Flask) -> None:
    """Render the legacy routes' refusals as Gitea does there (plain text)."""
    app.register_error_handler(LegacyError, _legacy_error)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("POST", BASE, "legacy_artifacts_create", create_container, "artifacts", JOB,
             returns="legacy_artifact_container", errors=(400, 401)),
    Endpoint("PATCH", BASE, "legacy_artifacts_confirm", confirm_upload, "artifacts", JOB,
             returns="legacy_artifact_message", errors=(400, 401, 404)),
    Endpoint("GET", BASE, "legacy_artifacts_list", list_artifacts, "artifacts", JOB,
             returns="legacy_artifact_list", errors=(400, 401, 404)),
    Endpoint("PUT", BASE + "/<artifact_hash>/upload", "legacy_artifacts_upload", upload_chunk, "artifacts", JOB,
             returns="legacy_artifact_message", errors=(400, 401, 413)),
    Endpoint("GET", BASE + "/<artifact_hash>/download_url", "legacy_artifacts_items", list_items, "artifacts", JOB,
             returns="legacy_artifact_items", errors=(400, 401, 404)),
    Endpoint("GET", BASE + "/<int:item_id>/download", "legacy_artifacts_download", download_item, "artifacts", JOB,
             returns=FILE, errors=(400, 401, 404)),
)  # fmt: skip
