"""Rules and state of workflow artifacts: create, upload staging, finalize, list, sign, delete.

Decisions where the specification is silent (section 2.1 says "not shown"); the scenarios state them:

- ``version`` is the client's artifact-protocol generation. 0 (absent) is read as 4; 1 to 3 are refused
  with ``invalid_argument`` (they belong to the older v3 protocol); 4 and above are accepted and recorded.
- Content type: ``mime_type`` with its parameters dropped, when it contains a ``/`` (it must then be a
  valid ``type/subtype``, else ``invalid_argument``); otherwise ``application/zip``. For
  ``application/zip`` the download file name is ``<name>.zip`` unless the name already ends in ``.zip``
  (Gitea's rule); for any other type it is the name itself.
- ``hash`` is ``sha256:<64 hex digits>`` (hex in any case). Any other format is ``invalid_argument``;
  an absent hash is not checked. The server hashes what it received either way and keeps that sha256:
  it is the artifact's digest, given back as ``sha256:<lowercase hex>`` by ListArtifacts (``digest``,
  field 7, GitHub's) and on the REST artifact objects (``digest``, GitHub's; null when unknown), so the
  official client verifies its downloads. A hash that differs from it is refused (below), so the digest
  is always the client's hash when one was sent. Gitea keeps no digest.
- ``ok`` is always true in a 200 answer. Every failure is a Twirp error with a non-2xx status instead
  of ``ok: false``, so clients fail fast.
- Names are unique per workflow run (GitHub's rule since upload-artifact v4). CreateArtifact with the
  name of a finalized artifact of the same run is ``already_exists`` (409); with the name of a pending
  one it restarts that upload under the same artifact id and drops its staged data. A name is 1 to 255
  bytes of UTF-8 without ``" : < > | * ? \\ /``, NUL or control characters, is not ``.`` or ``..`` and
  contains no ``..``; anything else is ``invalid_argument``.
- ``expires_at`` is used to the second and must lie in the future (else ``invalid_argument``); without
  it the artifact is kept ``Limits.artifact_retention_days`` days. An expired artifact is no longer
  listed by the protocol nor downloadable; REST still lists it with ``expired: true``.
- Finalize: ``size`` must equal the uploaded total and the hash must match, else ``invalid_argument``
  (the request contradicts the data). Finalize with no uploaded data at all is ``failed_precondition``;
  committing an empty block list (``<BlockList/>``) uploads a 0-byte artifact, which IS allowed
  (Gitea cannot finalize an empty artifact). Finalizing an already finalized artifact again with the
  same size and hash answers ``ok`` with its id (a retried call); with other values it is
  ``failed_precondition``.
- ``workflow_run_backend_id`` must be the token's run (``permission_denied``, 403; Gitea answers 400
  "run-id does not match") and ``workflow_job_run_backend_id`` the token's job (stricter than Gitea,
  which ignores it). A token whose task is no longer running is ``unauthenticated`` (Gitea: 500).
- A signed upload or download URL stays valid for its lifetime (1 hour) even after the task finished:
  the signature is the authorization (Gitea requires the task to be running).
- Upload: a ``comp`` other than ``block``, ``blocklist`` or ``appendBlock`` is ``invalid_argument``
  (Gitea answers 200, which the Azure SDK treats as an error); a block above
  ``Limits.max_block_bytes`` is ``invalid_argument``; several blocks without a committed block list
  cannot be ordered (``failed_precondition`` at finalize).
- Download: one range gives 206, an unsatisfiable one 416 with ``Content-Range: bytes */<size>``; a
  header with several ranges is answered with the whole content (200).
- Deletion removes the row and the stored data at once (Gitea marks rows for a later sweep).
- Crash safety means surviving a killed server process: finalize publishes the staged blocks by one
  folder rename and then commits the row; a restart sweeps or returns to staging whatever a kill left
  between the two. Artifact bytes are not fsync'ed (as Gitea's local storage): a power cut (not a
  process kill) may lose or damage the bytes of the most recently uploaded artifacts.
- REST ``.../zip/raw`` serves a ZIP artifact as an attachment named ``<name>.zip`` and any other
  (single-file) artifact as stored, with its content type, inline under its own name, as Gitea does
  (it never wraps one file in an archive).
- REST ``.../zip/raw`` checks its signature before anything else: missing, bad or expired is 401
  (specification 5.1, 5.2 and 7; the newest Gitea answers 404 for a bad one), then 404 when the
  repository or artifact is gone or the artifact expired.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from ..context import forge
from ..filenames import path_like_reason
from . import legacy_files, legacy_store, staging, store
from .errors import (
    ArtifactExistsError,
    ArtifactGoneError,
    ArtifactNotFoundError,
    InvalidArgumentError,
    NotPendingError,
    PreconditionError,
    RestArtifactNotFound,
)
from .store import FINALIZED, PENDING, ArtifactRow

__all__ = [
    "DEFAULT_VERSION",
    "FINALIZED",
    "PENDING",
    "TWIRP_SERVICE_PATH",
    "ZIP_TYPE",
    "ZIP_TYPES",
    "ArtifactRow",
    "CreateRequest",
    "cleanup_expired_artifacts",
    "commit_block_list",
    "create_artifact",
    "delete_artifact",
    "delete_artifacts_of_repo",
    "delete_artifacts_of_run",
    "delete_by_id",
    "digest_of",
    "downloadable_by_id",
    "downloadable_in_run",
    "finalize_artifact",
    "is_expired",
    "list_run_artifacts",
    "parse_hash",
    "pending_for_upload",
    "recover_storage",
    "repo_artifact",
    "repo_artifacts",
    "resolve_content_type",
    "signed_twirp_url",
    "stored_paths",
    "validate_name",
    "validate_version",
]

log = logging.getLogger("reference_server.artifacts")

DEFAULT_VERSION = 4
MAX_NAME_BYTES = 255
FORBIDDEN_NAME_CHARS = frozenset('":<>|*?\\/')
ZIP_TYPE = "application/zip"
ZIP_TYPES = frozenset({ZIP_TYPE, "application/x-zip-compressed", "application/zip-compressed"})
_MEDIA_CHARS = r"[A-Za-z0-9!#$&^_.+-]+"
MEDIA_TYPE = re.compile(rf"{_MEDIA_CHARS}/{_MEDIA_CHARS}")
HASH = re.compile(r"sha256:([0-9a-fA-F]{64})")
TWIRP_SERVICE_PATH = "/twirp/github.actions.results.api.v1.ArtifactService/"


@dataclass(frozen=True)
class CreateRequest:
    """What CreateArtifact needs once the caller is known."""

    repo_id: int
    run_id: int
    job_id: int
    task_id: int
    name: str
    version: int
    mime_type: str | None
    expires_at: int | None


def validate_name(name: str) -> str:
    """The name when it is acceptable as an artifact (and file) name, else ``invalid_argument``."""
    if not name:
        raise InvalidArgumentError("the artifact name is required")
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise InvalidArgumentError(f"the artifact name is longer than {MAX_NAME_BYTES} bytes")
    bad = sorted({ch for ch in name if ch in FORBIDDEN_NAME_CHARS or ord(ch) < 0x20 or ord(ch) == 0x7F})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        raise InvalidArgumentError(
            f'the artifact name contains forbidden characters ({shown}); not allowed: " : < > | * ? \\ /'
        )
    if ".." in name or name == ".":
        raise InvalidArgumentError("the artifact name must not be '.' or contain '..'")
    reason = path_like_reason(name)
    if reason is not None:  # fullwidth full stops and solidus are "../" once normalised
        raise InvalidArgumentError(f"the artifact name is not a plain file name: {reason}")
    return name


def validate_version(version: int) -> int:
    """The recorded protocol generation (absent means 4); 1 to 3 and negatives are refused."""
    if version == 0:
        return DEFAULT_VERSION
    if version < DEFAULT_VERSION:
        raise InvalidArgumentError(f"artifact protocol version {version} is not supported (version 4 or later is)")
    return version


def resolve_content_type(name: str, mime_type: str | None) -> tuple[str, str]:
    """(content type, download file name) by Gitea's rule: zip unless a real media type is given."""
    media = (mime_type or "").split(";", 1)[0].strip().lower()
    if "/" in media:
        if not MEDIA_TYPE.fullmatch(media):
            raise InvalidArgumentError(f"mime_type {mime_type!r} is not a valid media type")
    else:
        media = ZIP_TYPE
    if media == ZIP_TYPE and not name.lower().endswith(".zip"):
        return media, name + ".zip"
    return media, name


def parse_hash(value: str) -> str:
    """The lowercase hex digest of a ``sha256:<hex>`` hash, else ``invalid_argument``."""
    match = HASH.fullmatch(value)
    if match is None:
        raise InvalidArgumentError("hash must be 'sha256:' followed by 64 hexadecimal digits")
    return match.group(1).lower()


def digest_of(row: ArtifactRow) -> str:
    """The artifact's digest as GitHub's protocol and REST API write it: ``sha256:<lowercase hex>``."""
    return f"sha256:{row.sha256}"


def is_expired(row: ArtifactRow, now: float) -> bool:
    return row.expires <= now


def _origin() -> str:
    parts = urlsplit(forge().config.base_url)
    return f"{parts.scheme}://{parts.netloc}"


def signed_twirp_url(purpose: str, row: ArtifactRow, task_id: int) -> str:
    """Absolute signed URL of ``UploadArtifact`` or ``DownloadArtifact`` at the origin root."""
    fg = forge()
    params = {"artifactName": row.name, "taskID": str(task_id), "artifactID": str(row.id)}
    signed = fg.signer.sign(purpose, params, now=fg.now(), lifetime=fg.config.limits.signed_url_lifetime_seconds)
    query = urlencode([(key, signed[key]) for key in ("sig", "expires", "artifactName", "taskID", "artifactID")])
    return f"{_origin()}{TWIRP_SERVICE_PATH}{purpose}?{query}"


def create_artifact(request: CreateRequest) -> ArtifactRow:
    """Create a pending artifact, or restart the pending upload of the same name in the run."""
    fg = forge()
    now = int(fg.now())
    name = validate_name(request.name)
    version = validate_version(request.version)
    content_type, file_name = resolve_content_type(name, request.mime_type)
    if request.expires_at is not None:
        if request.expires_at <= now:
            raise InvalidArgumentError("expires_at must lie in the future")
        expires = request.expires_at
    else:
        expires = now + fg.config.limits.artifact_retention_days * 86400
    new = store.NewArtifact(
        repo_id=request.repo_id,
        run_id=request.run_id,
        job_id=request.job_id,
        task_id=request.task_id,
        name=name,
        file_name=file_name,
        content_type=content_type,
        version=version,
        expires=expires,
    )

    def insert_or_restart() -> int:
        with fg.db.transaction():
            existing = store.find_by_name(request.run_id, name)
            if existing is None:
                return store.insert_pending(new, now)
            if existing.status == FINALIZED:
                raise ArtifactExistsError(name)
            store.restart_pending(existing.id, new, now)
            staging.drop_staging(fg.blobs, existing.id)
            return existing.id

    pending = store.find_by_name(request.run_id, name)
    if pending is not None and pending.status == PENDING:
        with staging.upload_lock(pending.id):
            artifact_id = insert_or_restart()
    else:
        artifact_id = insert_or_restart()
    row = store.find_by_id(artifact_id)
    if row is None:
        raise ArtifactNotFoundError(f"{name!r} (deleted while being created)")
    return row


def pending_for_upload(artifact_id: int, name: str) -> ArtifactRow:
    """The pending artifact a signed upload URL points at: 404 when gone, 409 when already finalized."""
    row = store.find_by_id(artifact_id)
    if row is None or row.name != name:
        raise ArtifactNotFoundError(f"#{artifact_id}")
    if row.status != PENDING:
        raise NotPendingError
    return row


def commit_block_list(row: ArtifactRow, block_ids: list[str]) -> None:
    """Record the block order for finalize; every block must be staged already (else nothing changes)."""
    fg = forge()
    for block_id in block_ids:
        if not staging.block_exists(fg.blobs, row.id, block_id):
            raise InvalidArgumentError(f"the block list names block {block_id!r}, which was not uploaded")
    with fg.db.transaction():
        if not store.set_block_list(row.id, block_ids, int(fg.now())):
            raise NotPendingError


def _find_in_run(run_id: int, name: str) -> ArtifactRow:
    row = store.find_by_name(run_id, name)
    if row is None:
        raise ArtifactNotFoundError(repr(name))
    return row


def finalize_artifact(run_id: int, name: str, size: int, hash_value: str | None) -> ArtifactRow:
    """Check size and hash of the staged parts, then publish them and the row atomically.

    The staging folder is renamed to a fresh key first and the row flips to finalized in one
    transaction afterwards; a crash in between leaves a pending row (never listed) and a folder nobody
    references, which :func:`recover_storage` moves back to staging at the next start so a retried
    finalize still works.
    """
    fg = forge()
    expected_sha = parse_hash(hash_value) if hash_value is not None else None
    if size < 0:
        raise InvalidArgumentError("size must not be negative")
    with staging.upload_lock(_find_in_run(run_id, name).id):
        row = _find_in_run(run_id, name)
        if row.status == FINALIZED:
            if row.size == size and (expected_sha is None or expected_sha == row.sha256):
                return row
            raise PreconditionError("the artifact is already finalized with another size or hash")
        parts = staging.parts_for(fg.blobs, row.id, row.block_list)
        digest = staging.digest_parts(fg.blobs, row.id, parts, row.block_list)
        if digest.size != size:
            raise InvalidArgumentError(f"size {size} does not match the {digest.size} bytes uploaded")
        if expected_sha is not None and expected_sha != digest.sha256:
            raise InvalidArgumentError(f"hash mismatch: the uploaded data has sha256:{digest.sha256}")
        key = staging.new_file_key(row.id)
        staging.publish(fg.blobs, row.id, key)
        try:
            with fg.db.transaction():
                done = store.mark_finalized(
                    row.id, size=digest.size, sha256=digest.sha256, blob_key=key, parts=parts, now=int(fg.now())
                )
            if not done:
                raise PreconditionError("the artifact was deleted or replaced during finalize")
        except BaseException:
            staging.unpublish(fg.blobs, row.id, key)
            raise
    _prune_unused_parts(key, parts)
    final = store.find_by_id(row.id)
    if final is None:
        raise ArtifactNotFoundError(f"{name!r} (deleted after finalize)")
    return final


def _prune_unused_parts(key: str, parts: list[str]) -> None:
    """Drop staged blocks the committed list left out (they were published along with the rest)."""
    folder = forge().blobs.path(key)
    used = set(parts)
    for path in folder.rglob("*"):
        if path.is_file() and path.relative_to(folder).as_posix() not in used:
            path.unlink(missing_ok=True)


def stored_paths(row: ArtifactRow) -> list[Path]:
    """The files holding a finalized artifact's bytes, in order."""
    folder = forge().blobs.path(row.blob_key)
    return [folder / part for part in row.parts]


def list_run_artifacts(run_id: int, *, name: str | None = None, artifact_id: int | None = None) -> list[ArtifactRow]:
    """Finalized, unexpired artifacts of a run, ordered by id (what the protocol's List shows)."""
    now = forge().now()
    rows = store.list_finalized(run_id=run_id, name=name, artifact_id=artifact_id)
    return [row for row in rows if not is_expired(row, now)]


def downloadable_in_run(run_id: int, name: str) -> ArtifactRow:
    """The finalized, unexpired artifact of that name in the run, else ``not_found``."""
    row = store.find_by_name(run_id, name)
    if row is None or row.status != FINALIZED or is_expired(row, forge().now()):
        raise ArtifactNotFoundError(repr(name))
    return row


def downloadable_by_id(artifact_id: int, name: str) -> ArtifactRow:
    """The finalized, unexpired artifact a signed download URL names, else ``not_found``."""
    row = store.find_by_id(artifact_id)
    if row is None or row.name != name or row.status != FINALIZED or is_expired(row, forge().now()):
        raise ArtifactGoneError
    return row


def repo_artifact(repo_id: int, artifact_id: int) -> ArtifactRow:
    """A finalized artifact (expired or not) of the repository, else REST 404."""
    row = store.find_by_id(artifact_id)
    if row is None or row.repo_id != repo_id or row.status != FINALIZED:
        raise RestArtifactNotFound
    return row


def repo_artifacts(
    repo_id: int, *, name: str | None, run_id: int | None, limit: int, offset: int
) -> tuple[list[ArtifactRow], int]:
    """One page of a repository's finalized artifacts (expired included, as Gitea lists them) and the total."""
    rows = store.list_finalized(repo_id=repo_id, run_id=run_id, name=name, limit=limit, offset=offset)
    return rows, store.count_finalized(repo_id=repo_id, run_id=run_id, name=name)


def _remove(row: ArtifactRow) -> None:
    """Drop a row, then its stored and staged data (a crash in between leaves only orphans, swept at start)."""
    fg = forge()
    with fg.db.transaction():
        store.delete_row(row.id)
    fg.blobs.delete_tree(f"{staging.FILES_ROOT}/{row.id}")
    staging.drop_staging(fg.blobs, row.id)


def delete_artifact(run_id: int, name: str) -> int:
    """Delete the artifact of that name in the run (pending or finalized); returns its id."""
    row = _find_in_run(run_id, name)
    _remove(row)
    return row.id


def delete_by_id(row: ArtifactRow) -> None:
    _remove(row)


def cleanup_expired_artifacts() -> int:
    """Remove the stored files of expired artifacts, keeping their records (they list as expired, as in
    Gitea after its ``cleanup_actions`` task); expired v3 files, which no route shows, go whole. Returns how
    many artifacts (v4) and files (v3) lost their data."""
    fg = forge()
    now = fg.now()
    removed = 0
    for row in store.all_rows():
        if row.status == FINALIZED and row.blob_key and is_expired(row, now):
            with fg.db.transaction():
                store.forget_blob(row.id)
            fg.blobs.delete_tree(f"{staging.FILES_ROOT}/{row.id}")
            removed += 1
    legacy = legacy_store.expired_items(int(now))
    _remove_legacy(legacy)
    return removed + len(legacy)


def _remove_legacy(items: list[legacy_store.LegacyItem]) -> None:
    """Drop v3 files: the row, then what is on disk (a crash in between leaves only orphan files)."""
    fg = forge()
    for item in items:
        with fg.db.transaction():
            legacy_store.delete_item(item.id)
        legacy_files.drop_item(fg.blobs, item.id)


def delete_artifacts_of_run(run_id: int) -> None:
    """Remove every artifact of a run, v4 and v3, rows and blobs (called when a run is deleted)."""
    for row in store.rows_of_run(run_id):
        _remove(row)
    _remove_legacy(legacy_store.items_of_run(run_id))


def delete_artifacts_of_repo(repo_id: int) -> None:
    """Remove every artifact of a repository, v4 and v3 (on ``RepoDeletedEvent``)."""
    for row in store.rows_of_repo(repo_id):
        _remove(row)
    _remove_legacy(legacy_store.items_of_repo(repo_id))


def recover_storage() -> None:
    """Sweep what a crash may have left, at start-up.

    A published folder no finalized row references goes back to staging when its row is still pending
    and has no staging (the crash hit between publish and commit), else it is removed; staging of rows
    that are gone or finalized is removed.
    """
    fg = forge()
    rows = {row.id: row for row in store.all_rows()}
    live = {row.blob_key for row in rows.values() if row.status == FINALIZED and row.blob_key}
    files_root = fg.blobs.path(staging.FILES_ROOT)
    for folder in sorted(files_root.glob("*/*")) if files_root.is_dir() else []:
        key = f"{staging.FILES_ROOT}/{folder.parent.name}/{folder.name}"
        if key in live:
            continue
        row = rows.get(int(folder.parent.name)) if folder.parent.name.isdigit() else None
        staged = fg.blobs.path(staging.staging_prefix(row.id)) if row is not None else None
        if row is not None and row.status == PENDING and staged is not None and not staged.exists():
            log.info("returning unpublished artifact data %s to staging", folder)
            staging.unpublish(fg.blobs, row.id, key)
        else:
            log.info("removing orphan artifact data %s", folder)
            fg.blobs.delete_tree(key)
    staging_root = fg.blobs.path(staging.STAGING_ROOT)
    for folder in sorted(staging_root.iterdir()) if staging_root.is_dir() else []:
        row = rows.get(int(folder.name)) if folder.name.isdigit() else None
        if row is None or row.status != PENDING:
            fg.blobs.delete_tree(f"{staging.STAGING_ROOT}/{folder.name}")
