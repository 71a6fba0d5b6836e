"""Artifacts: the REST operations, raw artifact-protocol (Twirp) calls and the signed blob URLs.

The REST part follows the area pattern (``/repos/{owner}/{repo}/actions/artifacts...``). The
artifact protocol lives at the forge's origin root (``/twirp/github.actions.results.api.v1.
ArtifactService/<Method>``, even under a sub-path); :class:`ArtifactProtocol` sends exactly the
bytes a scenario asks for (well-formed JSON, binary protobuf, or deliberately broken bodies) through
the recording :class:`HttpClient`, so a failure's transcript shows them. :func:`wire_fields` reads a
binary protobuf answer by field number, independent of the kit's own generated code.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests

from ..client import HttpClient, Recorder
from .base import ApiArea, quote_path

__all__ = [
    "BLOCK_LIST_XML",
    "SERVICE_PATH",
    "ArtifactProtocol",
    "ArtifactsApi",
    "RecordingSession",
    "WireField",
    "block_list_body",
    "encode_block_id",
    "origin_of",
    "wire_fields",
]

SERVICE_PATH = "twirp/github.actions.results.api.v1.ArtifactService/"
BLOCK_LIST_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
PROTOBUF = "application/protobuf"


class ArtifactsApi(ApiArea):
    """``/repos/{owner}/{repo}/actions/artifacts`` and ``.../runs/{run}/artifacts``."""

    def _repo(self, owner: str, repo: str) -> str:
        return f"repos/{quote_path(owner)}/{quote_path(repo)}/actions"

    def list_artifacts(self, owner: str, repo: str, *, name: str | None = None) -> requests.Response:
        """``GET .../actions/artifacts`` (an ``ActionArtifactsResponse``), optionally by exact name."""
        return self.http.get(f"{self._repo(owner, repo)}/artifacts", params={"name": name} if name else {})

    def list_run_artifacts(self, owner: str, repo: str, run: int, *, name: str | None = None) -> requests.Response:
        """``GET .../actions/runs/{run}/artifacts``; ``run`` is meant to be the unique run id."""
        return self.http.get(f"{self._repo(owner, repo)}/runs/{run}/artifacts", params={"name": name} if name else {})

    def get_artifact(self, owner: str, repo: str, artifact_id: int) -> requests.Response:
        """``GET .../actions/artifacts/{artifact_id}``."""
        return self.http.get(f"{self._repo(owner, repo)}/artifacts/{artifact_id}")

    def delete_artifact(self, owner: str, repo: str, artifact_id: int) -> requests.Response:
        """``DELETE .../actions/artifacts/{artifact_id}``: 204."""
        return self.http.delete(f"{self._repo(owner, repo)}/artifacts/{artifact_id}")

    def artifact_zip(self, owner: str, repo: str, artifact_id: int) -> requests.Response:
        """``GET .../actions/artifacts/{artifact_id}/zip``, not following the 302 it answers."""
        return self.http.get(f"{self._repo(owner, repo)}/artifacts/{artifact_id}/zip", allow_redirects=False)

    def raw_zip_path(self, owner: str, repo: str, artifact_id: int) -> str:
        """The absolute ``.../zip/raw`` URL without any signature (the redirect target's path)."""
        return self.http.url(f"{self._repo(owner, repo)}/artifacts/{artifact_id}/zip/raw")

    def fetch(self, url: str, *, headers: Mapping[str, str] | None = None) -> requests.Response:
        """GET an absolute (signed) URL with this client's credentials, not following redirects."""
        return self.http.get(url, headers=headers)


class RecordingSession(requests.Session):
    """A session for the kit's own protocol clients (runner, artifact) that writes their traffic into
    the scenario's transcript, masked like every other exchange; streamed bodies are not read."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        """Send, then record the exchange (or the connection error)."""
        started = time.perf_counter()
        try:
            response = super().send(request, **kwargs)
        except requests.RequestException as error:
            self.recorder.capture(request, None, (time.perf_counter() - started) * 1000, error=str(error))
            raise
        if not kwargs.get("stream"):
            self.recorder.capture(request, response, (time.perf_counter() - started) * 1000)
        return response


def origin_of(url: str) -> str:
    """``scheme://host[:port]/`` of a URL: the artifact protocol ignores any sub-path."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"


def encode_block_id(label: str) -> str:
    """A block id as the Azure SDK makes them: the standard base64 of a label."""
    return base64.b64encode(label.encode("utf-8")).decode("ascii")


def block_list_body(block_ids: list[str]) -> bytes:
    """The ``comp=blocklist`` body naming ``block_ids`` in order (``<BlockList/>`` when empty)."""
    if not block_ids:
        return f"{BLOCK_LIST_XML}<BlockList/>".encode()
    entries = "".join(f"<Latest>{block}</Latest>" for block in block_ids)
    return f"{BLOCK_LIST_XML}<BlockList>{entries}</BlockList>".encode()


class ArtifactProtocol:
    """Raw Twirp calls of one job: the runtime token as a bearer token unless a call says otherwise.

    ``http`` must carry no credentials of its own; it is used for the signed blob URLs too.
    """

    def __init__(self, http: HttpClient, runtime_token: str) -> None:
        self.http = http
        self.runtime_token = runtime_token

    def _headers(self, content_type: str, authorization: str | None) -> dict[str, str]:
        headers = {"Content-Type": content_type, "Accept": content_type}
        auth = f"Bearer {self.runtime_token}" if authorization is None else authorization
        if auth:
            headers["Authorization"] = auth
        return headers

    def post(
        self, method: str, body: bytes, content_type: str, *, authorization: str | None = None
    ) -> requests.Response:
        """POST ``body`` as is to ``method``; ``authorization`` "" sends no Authorization header."""
        return self.http.post(SERVICE_PATH + method, data=body, headers=self._headers(content_type, authorization))

    def call_json(
        self, method: str, fields: Mapping[str, Any], *, authorization: str | None = None
    ) -> requests.Response:
        """A JSON call with exactly these fields (snake_case or lowerCamelCase, as the caller wrote them)."""
        return self.post(
            method, json.dumps(dict(fields)).encode("utf-8"), "application/json", authorization=authorization
        )

    def call_binary(self, method: str, message: bytes, *, authorization: str | None = None) -> requests.Response:
        """A binary protobuf call with a serialized request message."""
        return self.post(method, message, PROTOBUF, authorization=authorization)

    def put_block(self, upload_url: str, block_id: str, data: bytes) -> requests.Response:
        """``PUT <signed upload URL>&comp=block&blockid=<id>`` as the Azure SDK sends it."""
        return self.http.put(
            upload_url,
            params={"comp": "block", "blockid": block_id},
            data=data,
            headers={"Content-Type": "application/octet-stream", "x-ms-version": "2026-04-06"},
        )

    def put_block_list(self, upload_url: str, block_ids: list[str]) -> requests.Response:
        """``PUT <signed upload URL>&comp=blocklist`` committing ``block_ids`` in order."""
        return self.http.put(
            upload_url,
            params={"comp": "blocklist"},
            data=block_list_body(block_ids),
            headers={"Content-Type": "application/xml", "x-ms-version": "2026-04-06"},
        )

    def fetch(self, url: str, *, headers: Mapping[str, str] | None = None) -> requests.Response:
        """GET a signed URL with no credentials, not following redirects."""
        return self.http.get(url, headers=headers)


@dataclass(frozen=True)
class WireField:
    """One field of a binary protobuf message: its number, wire type and raw value."""

    number: int
    wire_type: int
    value: int | bytes


def _varint(data: bytes, position: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        if position >= len(data):
            raise ValueError("truncated varint")
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, position
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes")


def wire_fields(data: bytes) -> list[WireField]:
    """Every top-level field of a binary protobuf message, in order (ValueError when it is not one)."""
    fields: list[WireField] = []
    position = 0
    while position < len(data):
        key, position = _varint(data, position)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise ValueError("field number 0")
        value: int | bytes
        if wire_type == 0:
            value, position = _varint(data, position)
        elif wire_type == 2:
            length, position = _varint(data, position)
            if position + length > len(data):
                raise ValueError("truncated length-delimited field")
            value, position = data[position : position + length], position + length
        elif wire_type in (1, 5):
            width = 8 if wire_type == 1 else 4
            if position + width > len(data):
                raise ValueError("truncated fixed-width field")
            value, position = int.from_bytes(data[position : position + width], "little"), position + width
        else:
            raise ValueError(f"unsupported wire type {wire_type}")
        fields.append(WireField(number, wire_type, value))
    return fields
