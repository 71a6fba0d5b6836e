"""The Azure-blob style upload behind a signed ``UploadArtifact`` URL, and signed-URL checking.

``comp=block&blockid=<id>`` stages a block (any order, re-putting an id replaces it),
``comp=blocklist`` commits the order (``<Latest>``, ``<Committed>`` or ``<Uncommitted>`` entries; an
empty ``<BlockList/>`` means a 0-byte artifact) and ``comp=appendBlock`` appends sequentially. Each
answers exactly 201 with an empty body, as the Azure SDK requires. ``x-ms-*`` headers are ignored.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import xml.etree.ElementTree as ET
from typing import cast

from flask import Response, request

from .. import spool
from ..context import forge
from ..signing import UrlCheck, stray_parameter
from . import models, staging
from .errors import InvalidArgumentError, PayloadTooLargeError, SignatureError

__all__ = ["handle_upload", "signed_query", "validate_block_id"]

MAX_BLOCK_ID_CHARS = 100
MAX_BLOCK_LIST_BYTES = 8 * 1024 * 1024
BLOCK_ID = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")
BLOCK_LIST_ENTRIES = frozenset({"Latest", "Committed", "Uncommitted"})
SIGNED_KEYS = ("sig", "expires", "artifactName", "taskID", "artifactID")
UPLOAD_KEYS = ("comp", "blockid")
"""What an Azure-style client adds to the signed upload URL it was given; nothing is added to a download."""


def signed_query(purpose: str) -> tuple[str, int]:
    """Check the request's signed ``UploadArtifact``/``DownloadArtifact`` query: (artifact name, id), else 401."""
    fg = forge()
    stray = stray_parameter(
        request.args.items(multi=True), SIGNED_KEYS, UPLOAD_KEYS if purpose == "UploadArtifact" else ()
    )
    if stray is not None:
        raise SignatureError(f"the signed URL carries a parameter it was not signed with, or twice: {stray}")
    query = {key: request.args.get(key, "") for key in SIGNED_KEYS}
    outcome = fg.signer.check(purpose, query, now=fg.now())
    if outcome is UrlCheck.MALFORMED:
        raise SignatureError("the signed URL is missing its signature or expiry, or they are malformed")
    if outcome is UrlCheck.BAD_SIGNATURE:
        raise SignatureError("the signature of this URL does not match its parameters")
    if outcome is UrlCheck.EXPIRED:
        raise SignatureError("this signed URL has expired")
    artifact_id = query["artifactID"]
    if not artifact_id.isdigit():
        raise SignatureError("the signed URL carries no valid artifactID")
    return query["artifactName"], int(artifact_id)


def validate_block_id(block_id: str) -> str:
    """A block id as Azure clients make them: base64 (standard or URL-safe), at most 100 characters."""
    if not block_id:
        raise InvalidArgumentError("blockid is required")
    if len(block_id) > MAX_BLOCK_ID_CHARS:
        raise InvalidArgumentError(f"blockid is longer than {MAX_BLOCK_ID_CHARS} characters")
    if not BLOCK_ID.fullmatch(block_id):
        raise InvalidArgumentError("blockid must be base64 (letters, digits, + / - _ and = padding)")
    normalized = block_id.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        base64.b64decode(normalized + "=" * (-len(normalized) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InvalidArgumentError("blockid is not valid base64") from exc
    return block_id


def parse_block_list(body: bytes) -> list[str]:
    """The ids of an Azure ``<BlockList>`` body, in order; 400 on anything else."""
    if b"<!DOCTYPE" in body.upper() or b"<!ENTITY" in body.upper():
        raise InvalidArgumentError("the block list must not contain a DOCTYPE or entity declarations")
    try:
        root = ET.fromstring(body)  # noqa: S314 (no DTD or entities allowed, see above)
    except ET.ParseError as exc:
        raise InvalidArgumentError(f"the block list is not well-formed XML: {exc}") from exc
    if root.tag != "BlockList":
        raise InvalidArgumentError("the block list must be a <BlockList> element")
    ids: list[str] = []
    for entry in root:
        if entry.tag not in BLOCK_LIST_ENTRIES:
            raise InvalidArgumentError(f"unexpected element <{entry.tag}> in the block list")
        ids.append(validate_block_id((entry.text or "").strip()))
    return ids


def _body(limit: int) -> io.RawIOBase:
    """The request body, at most ``limit`` bytes: a declared larger body is refused before reading it.

    The app-wide body limit does not apply here (blocks may be larger); ``limit`` replaces it.
    """
    declared = request.content_length
    if declared is not None and declared > limit:
        raise PayloadTooLargeError(f"the request body exceeds the limit of {limit} bytes")
    request.max_content_length = limit + 1  # one byte more, so the caller's own check reports the excess
    return cast(io.RawIOBase, request.stream)


def _created() -> Response:
    return Response(b"", status=201)


def handle_upload() -> Response:
    """``PUT UploadArtifact?...&comp=...``: signature first, then the pending artifact, then the data."""
    name, artifact_id = signed_query("UploadArtifact")
    row = models.pending_for_upload(artifact_id, name)
    comp = request.args.get("comp", "").lower()
    blobs = forge().blobs
    block_limit = forge().config.limits.max_block_bytes
    if comp == "block":
        block_id = validate_block_id(request.args.get("blockid", ""))
        environ = request.environ
        stream = _body(block_limit)
        staging.store_block(
            blobs, row.id, block_id, stream, block_limit, link=lambda target: spool.link_body(environ, target)
        )
        return _created()
    if comp == "appendblock":
        staging.append_data(blobs, row.id, _body(block_limit), block_limit)
        return _created()
    if comp == "blocklist":
        body = staging.read_at_most(_body(MAX_BLOCK_LIST_BYTES), MAX_BLOCK_LIST_BYTES + 1)
        if len(body) > MAX_BLOCK_LIST_BYTES:
            raise PayloadTooLargeError(f"the block list exceeds {MAX_BLOCK_LIST_BYTES} bytes")
        models.commit_block_list(row, parse_block_list(body))
        return _created()
    raise InvalidArgumentError("comp must be block (with blockid), blocklist or appendBlock")
