"""Twirp framing of the artifact protocol: codecs, the runtime-token caller and the run/job check.

Requests are protojson (snake_case or lowerCamel names, int64 as string or number, wrappers as bare
values, unknown fields ignored so newer clients keep working) or binary protobuf; the answer uses the
request's codec. A request without Content-Type is read as JSON, as Gitea does; any other type is
``bad_route`` (Twirp's rule for an unsupported Content-Type).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TypeVar, cast

from flask import Response, request
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message

from ..actions import models as actions
from ..context import forge
from ..errors import TwirpError
from ..rest import decode_json
from .errors import (
    InvalidArgumentError,
    MalformedError,
    PayloadTooLargeError,
    PermissionDeniedError,
    UnauthenticatedError,
)
from .staging import read_at_most

__all__ = ["Caller", "Codec", "authenticate", "check_ids", "codec_of_request", "decode", "encode"]

M = TypeVar("M", bound=Message)

JSON_TYPES = frozenset({"application/json", ""})
PROTOBUF_TYPES = frozenset({"application/protobuf", "application/x-protobuf", "application/proto"})
MAX_RPC_BODY = 1024 * 1024


@dataclass(frozen=True)
class Codec:
    """How a request was encoded and so how its answer is encoded."""

    binary: bool


@dataclass(frozen=True)
class Caller:
    """The job behind a runtime token: its task (running), run, job and repository."""

    task_id: int
    run_id: int
    job_id: int
    repo_id: int


def codec_of_request() -> Codec:
    media = (request.mimetype or "").lower()
    if media in PROTOBUF_TYPES:
        return Codec(binary=True)
    if media in JSON_TYPES:
        return Codec(binary=False)
    raise TwirpError(
        "bad_route", f"unsupported Content-Type {request.content_type!r}: use application/json or application/protobuf"
    )


def decode(codec: Codec, message: M) -> M:
    """Fill ``message`` from the request body; ``malformed`` when it cannot be decoded."""
    length = request.content_length
    if length is not None and length > MAX_RPC_BODY:
        raise PayloadTooLargeError(f"the request body exceeds {MAX_RPC_BODY} bytes")
    request.max_content_length = MAX_RPC_BODY + 1  # this check, not the app-wide limit, reports the excess
    body = read_at_most(cast(io.RawIOBase, request.stream), MAX_RPC_BODY + 1)
    if len(body) > MAX_RPC_BODY:
        raise PayloadTooLargeError(f"the request body exceeds {MAX_RPC_BODY} bytes")
    try:
        if codec.binary:
            message.ParseFromString(body)
        else:
            data = decode_json(body.decode("utf-8") or "{}")
            if not isinstance(data, dict):
                raise json_format.ParseError("the body must be a JSON object")
            json_format.ParseDict(data, message, ignore_unknown_fields=True)
    except (DecodeError, json_format.ParseError, UnicodeDecodeError, ValueError, TypeError) as exc:
        kind = "protobuf" if codec.binary else "JSON"
        raise MalformedError(f"the request body is not a valid {kind} {message.DESCRIPTOR.name}: {exc}") from exc
    return message


def encode(codec: Codec, message: Message) -> Response:
    """The answer in the request's codec: lowerCamel protojson (int64 as strings) or binary."""
    if codec.binary:
        return Response(message.SerializeToString(), status=200, content_type="application/protobuf")
    body = json_format.MessageToJson(message, indent=None)
    return Response(body, status=200, content_type="application/json")


def authenticate() -> Caller:
    """The caller of ``Authorization: Bearer <runtime token>``; ``unauthenticated`` unless its task runs."""
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise UnauthenticatedError("an 'Authorization: Bearer <ACTIONS_RUNTIME_TOKEN>' header is required")
    fg = forge()
    claims = fg.signer.decode_runtime_token(token, now=fg.now())
    if claims is None:
        raise UnauthenticatedError("the runtime token is invalid or expired")
    task = actions.get_task(int(claims["TaskID"]))  # looked up at call time: tests stand in for it
    if task is None or not task.is_running:
        raise UnauthenticatedError("the task of this runtime token is not running")
    return Caller(task_id=task.id, run_id=int(claims["RunID"]), job_id=int(claims["JobID"]), repo_id=task.repo_id)


def _backend_id(value: str, field: str) -> int:
    text = value.strip()
    if not text.isdigit() or not text.isascii():
        raise InvalidArgumentError(f"{field} must be a decimal id, got {value!r}")
    return int(text)


def check_ids(caller: Caller, run_backend_id: str, job_backend_id: str) -> None:
    """The request's run and job ids must be the token's own."""
    if _backend_id(run_backend_id, "workflow_run_backend_id") != caller.run_id:
        raise PermissionDeniedError("workflow_run_backend_id does not match the run of the runtime token")
    if _backend_id(job_backend_id, "workflow_job_run_backend_id") != caller.job_id:
        raise PermissionDeniedError("workflow_job_run_backend_id does not match the job of the runtime token")
