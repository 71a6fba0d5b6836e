"""Connect unary framing: protobuf or protojson bodies, gzip both ways, errors as Connect JSON.

Requests: ``application/proto`` (binary) or ``application/json`` (protojson, unknown fields
ignored), optionally ``Content-Encoding: gzip``. Responses use the request's codec and are gzipped
when the client accepts gzip and the body reaches :data:`COMPRESS_MIN_BYTES` (connect-go's option).
"""

from __future__ import annotations

import gzip
import zlib
from typing import TypeVar

from flask import Response, request
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message

from ..context import forge
from ..errors import ConnectError
from ..rest import decode_json
from .errors import ConnectStatusError

__all__ = ["COMPRESS_MIN_BYTES", "Codec", "read_message", "write_message"]

COMPRESS_MIN_BYTES = 1024
PROTO = "application/proto"
JSON = "application/json"
SUPPORTED = f"{PROTO}, {JSON}"

M = TypeVar("M", bound=Message)


class Codec:
    """How a call's messages are encoded: ``proto`` or ``json``."""

    def __init__(self, content_type: str) -> None:
        self.content_type = content_type

    @property
    def is_json(self) -> bool:
        return self.content_type == JSON


def _request_codec() -> Codec:
    raw = (request.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
    if raw in (PROTO, JSON):
        return Codec(raw)
    raise ConnectStatusError(
        "invalid_argument", f"unsupported content type {raw or '(none)'!r}; use {SUPPORTED}", http_status=415
    )


def _gunzip(data: bytes, limit: int) -> bytes:
    """Decompress a gzip body, refusing one that inflates past ``limit`` bytes (a zip bomb)."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise ConnectError("invalid_argument", f"invalid gzip request body: {exc}") from exc
    if len(out) > limit:
        raise ConnectError("resource_exhausted", f"request body inflates past {limit} bytes", status=413)
    if not inflater.eof:
        raise ConnectError("invalid_argument", "truncated gzip request body")
    return out


def _request_body() -> bytes:
    data = request.get_data(cache=True)
    encoding = (request.headers.get("Content-Encoding") or "identity").strip().lower()
    if encoding == "gzip":
        return _gunzip(data, forge().config.limits.max_request_body_bytes)
    if encoding != "identity":
        raise ConnectError("unimplemented", f"unsupported content encoding {encoding!r}; use gzip or identity")
    return data


def read_message(message_type: type[M]) -> tuple[M, Codec]:
    """The call's request message, decoded with the codec its content type names."""
    version = request.headers.get("Connect-Protocol-Version")
    if version is not None and version.strip() != "1":
        raise ConnectError("invalid_argument", f"unsupported Connect-Protocol-Version {version!r}")
    codec = _request_codec()
    body = _request_body()
    message = message_type()
    try:
        if codec.is_json:
            if not body.strip():
                raise ConnectError("invalid_argument", "zero-length payload is not a valid JSON object")
            data = decode_json(body.decode("utf-8"))
            if not isinstance(data, dict):
                raise json_format.ParseError("the request body must be a JSON object")
            json_format.ParseDict(data, message, ignore_unknown_fields=True)
        else:
            message.ParseFromString(body)
    except (json_format.ParseError, DecodeError, ValueError, TypeError) as exc:
        kind = "JSON" if codec.is_json else "protobuf"
        raise ConnectError("invalid_argument", f"unmarshal {kind} request: {exc}") from exc
    return message, codec


def _accepts_gzip() -> bool:
    accepted = request.headers.get("Accept-Encoding") or ""
    return any(part.split(";", 1)[0].strip().lower() == "gzip" for part in accepted.split(","))


def write_message(message: Message, codec: Codec, headers: dict[str, str] | None = None) -> Response:
    """A 200 answer holding ``message`` in the call's codec, gzipped when worth it and accepted."""
    if codec.is_json:
        body = json_format.MessageToJson(message, indent=None).encode("utf-8")
    else:
        body = message.SerializeToString()
    response = Response(body, status=200, content_type=codec.content_type)
    if len(body) >= COMPRESS_MIN_BYTES and _accepts_gzip():
        response.set_data(gzip.compress(body, compresslevel=6))
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Accept-Encoding"] = "gzip"
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response
