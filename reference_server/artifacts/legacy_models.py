"""Rules of the legacy artifact protocol (v3, ``@actions/artifact`` 1.x), as Gitea 1.27 serves it.

A v3 artifact is a name plus files: each file (``itemPath`` = ``<name>/<path>``) is one row, uploaded in
chunks (``Content-Range: bytes S-E/T``; ``T`` is the size as uploaded, gzip'ed when ``Content-Encoding:
gzip``; ``x-tfs-filelength`` the original size) that may arrive concurrently and in any order. The size
PATCH merges each file's chunks and confirms it. Gitea answers a failed check with 500 in several places;
the reference answers 4xx for the caller's mistakes instead (``docs/artifacts-v3.md`` lists them).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ..context import forge
from ..errors import TwirpError
from ..filenames import path_like_reason
from . import legacy_files, legacy_store, staging
from .errors import LegacyError
from .legacy_store import CONFIRMED, LegacyItem
from .models import validate_name

__all__ = [
    "ChunkUpload",
    "artifact_hash",
    "check_artifact_hash",
    "checked_name",
    "confirm_artifact",
    "downloadable_item",
    "listed_items",
    "listed_names",
    "parse_content_range",
    "parse_item_path",
    "retention_days",
    "upload_chunk",
]

CONTENT_RANGE = re.compile(r"bytes (\d{1,19})-(-1|\d{1,19})/(\d{1,19})")
EMPTY_FILE_RANGE = (0, -1, 0)
"""What the v3 client sends for an empty file (``bytes 0--1/0``), which Gitea accepts."""
MAX_ITEMS_PER_ARTIFACT = 10_000
MAX_PATH_BYTES = 1024
MAX_RETENTION_DAYS = 3650


def artifact_hash(name: str) -> str:
    """Gitea's URL segment for an artifact: the hex MD5 of its name (an identifier, not a security check)."""
    return hashlib.md5(name.encode("utf-8"), usedforsecurity=False).hexdigest()


def check_artifact_hash(segment: str, name: str) -> None:
    if segment != artifact_hash(name):
        raise LegacyError(400, "Invalid artifact hash")


def checked_name(name: str) -> str:
    """The artifact name when acceptable (the v4 rules), else 400."""
    try:
        return validate_name(name)
    except TwirpError as exc:
        raise LegacyError(400, f"Error checking artifact name: {exc.msg}") from exc


def parse_item_path(item_path: str) -> tuple[str, str]:
    """(artifact name, path inside it) of ``itemPath``; 400 for an empty part or one leaving the artifact."""
    if not item_path or "\\" in item_path or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in item_path):
        raise LegacyError(400, "itemPath must be <artifact name>/<file path> without control characters or '\\'")
    name, _, path = item_path.strip("/").partition("/")
    segments = path.split("/")
    if not path or any(segment in ("", ".", "..") for segment in segments):
        raise LegacyError(400, f"itemPath {item_path!r} must name a file inside the artifact, without '.' or '..'")
    if len(path.encode("utf-8")) > MAX_PATH_BYTES:
        raise LegacyError(400, f"the file path is longer than {MAX_PATH_BYTES} bytes")
    for segment in segments:  # each segment a plain name, in every normalised form (fullwidth dots too)
        reason = path_like_reason(segment)
        if reason is not None:
            raise LegacyError(400, f"the file path is not acceptable: {reason}")
    return checked_name(name), path


def retention_days(value: str | None) -> int:
    """The ``retentionDays`` query of the upload URL, else the configured retention."""
    if value is None or value == "":
        return forge().config.limits.artifact_retention_days
    if not value.isdigit() or not 0 < int(value) <= MAX_RETENTION_DAYS:
        raise LegacyError(400, "Error parse retention days")
    return int(value)


def parse_content_range(header: str | None) -> tuple[int, int, int]:
    """(start, end, total) of ``bytes S-E/T``, with ``S <= E < T``; 400 otherwise (Gitea: 500)."""
    match = CONTENT_RANGE.fullmatch((header or "").strip())
    if match is None:
        raise LegacyError(400, "Content-Range must be 'bytes <start>-<end>/<total>'")
    start, end, total = (int(group) for group in match.groups())
    if (start, end, total) == EMPTY_FILE_RANGE:
        return start, end, total
    if not start <= end < total:
        raise LegacyError(400, f"Content-Range {header!r} is not a range inside the file")
    return start, end, total


@dataclass(frozen=True)
class ChunkUpload:
    """One PUT of a chunk, its caller's run known and checked."""

    repo_id: int
    run_id: int
    job_id: int
    task_id: int
    item_path: str
    content_range: str | None
    content_length: int | None
    file_length: str | None
    content_encoding: str
    md5: str | None
    retention: str | None


def upload_chunk(upload: ChunkUpload, segment: str, stream: staging.ReadsInto) -> None:
    """Stage one chunk of a file, creating its row on the first chunk (a new total restarts the file)."""
    fg = forge()
    name, path = parse_item_path(upload.item_path)
    check_artifact_hash(segment, name)
    start, end, total = parse_content_range(upload.content_range)
    if upload.content_length is not None and upload.content_length != end - start + 1:
        raise LegacyError(400, f"Content-Length {upload.content_length} does not match Content-Range {start}-{end}")
    if end - start + 1 > fg.config.limits.max_block_bytes:
        raise LegacyError(413, f"a chunk may hold at most {fg.config.limits.max_block_bytes} bytes")
    encoding = upload.content_encoding.strip().lower()
    if encoding not in ("", "gzip"):
        raise LegacyError(400, "Content-Encoding must be gzip or absent")
    declared = (upload.file_length or "").strip()
    if declared and not declared.isdigit():
        raise LegacyError(400, "x-tfs-filelength must be a whole number")
    file_size = int(declared) if declared and int(declared) > 0 else total
    now = int(fg.now())
    expires = now + retention_days(upload.retention) * 86400
    with fg.db.transaction():
        if legacy_store.count_items(upload.run_id, name) >= MAX_ITEMS_PER_ARTIFACT:
            known = [item for item in legacy_store.items_named(upload.run_id, name) if item.path == path]
            if not known:
                raise LegacyError(400, f"an artifact may hold at most {MAX_ITEMS_PER_ARTIFACT} files")
        item = legacy_store.get_or_create(
            legacy_store.NewItem(upload.repo_id, upload.run_id, upload.job_id, upload.task_id, name, path, expires),
            now,
        )
    with staging.upload_lock(item.id):  # concurrent first chunks: one records the sizes, none drops another's
        current = legacy_store.find_item(item.id) or item
        if (current.stored_size, current.file_size, current.content_encoding) != (total, file_size, encoding):
            with fg.db.transaction():
                legacy_store.set_sizes(
                    item.id, file_size=file_size, stored_size=total, encoding=encoding, expires=expires, now=now
                )
            if current.stored_size != total:
                legacy_files.drop_staging(fg.blobs, item.id)  # another upload of the file: its old chunks are void
    try:
        legacy_files.stage_chunk(fg.blobs, item.id, start, end, stream, md5_b64=upload.md5)
    except legacy_files.ChunkMismatch as exc:
        raise LegacyError(400, str(exc)) from exc


def confirm_artifact(run_id: int, name: str) -> int:
    """Merge the staged chunks of every file of the artifact; returns how many files were confirmed.

    404 when the run has no such artifact; 400 (Gitea: leaves it pending) when a file's chunks do not
    cover its declared size.
    """
    fg = forge()
    items = legacy_store.items_named(run_id, name)
    if not items:
        raise LegacyError(404, f"artifact {name!r} not found in this run")
    confirmed = 0
    for listed in items:
        with staging.upload_lock(listed.id):
            item = legacy_store.find_item(listed.id)
            if item is None:
                continue
            chunks = legacy_files.staged_chunks(fg.blobs, item.id)
            if not chunks:
                if item.status != CONFIRMED:
                    raise LegacyError(400, f"no data was uploaded for {name}/{item.path}")
                continue
            chosen = legacy_files.contiguous_chunks(chunks, item.stored_size)
            if chosen is None:
                raise LegacyError(
                    400, f"the chunks of {name}/{item.path} do not cover its {item.stored_size} bytes end to end"
                )
            key, size = legacy_files.merge_chunks(fg.blobs, item.id, chosen)
            if size != item.stored_size:
                fg.blobs.delete(key)
                raise LegacyError(400, f"the merged {name}/{item.path} has {size} bytes, not {item.stored_size}")
            with fg.db.transaction():
                legacy_store.confirm(item.id, key, int(fg.now()))
            if item.blob_key:
                fg.blobs.delete(item.blob_key)
            legacy_files.drop_staging(fg.blobs, item.id)
            confirmed += 1
    return confirmed


def _visible(item: LegacyItem, now: float) -> bool:
    return item.status == CONFIRMED and bool(item.blob_key) and item.expires > now


def listed_names(run_id: int) -> list[str]:
    """Names of the run's artifacts with a confirmed, unexpired file, in order of their first file."""
    now = forge().now()
    names: list[str] = []
    for item in legacy_store.items_of_run(run_id):
        if _visible(item, now) and item.name not in names:
            names.append(item.name)
    return names


def listed_items(run_id: int, name: str) -> list[LegacyItem]:
    now = forge().now()
    return [item for item in legacy_store.items_named(run_id, name) if _visible(item, now)]


def downloadable_item(run_id: int, item_id: int) -> LegacyItem:
    """The confirmed file ``item_id``: 404 when missing or expired, 400 when of another run (Gitea's codes)."""
    item = legacy_store.find_item(item_id)
    if item is None or not _visible(item, forge().now()):
        raise LegacyError(404, f"artifact with ID {item_id} does not exist")
    if item.run_id != run_id:
        raise LegacyError(400, "the artifact belongs to another run")
    return item
