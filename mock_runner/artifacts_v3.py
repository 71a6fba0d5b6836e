"""Client of the legacy artifact protocol (v3, ``@actions/artifact`` 1.x) at ``ACTIONS_RUNTIME_URL``.

Like the official client: a container is created (``POST ...?api-version=6.0-preview``), every file is
uploaded as ``<name>/<path>`` in chunks of at most 8 MiB with ``Content-Range``, ``x-tfs-filelength`` and
``x-actions-results-md5``, gzip'ed first when that makes it smaller (``Content-Encoding: gzip``), then the
size PATCH confirms the artifact. Download lists the files and fetches each (inflating gzip'ed answers).
Files are streamed through a temporary gzip file and read chunk by chunk: memory stays flat.
"""

from __future__ import annotations

import base64
import builtins
import gzip
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO
from urllib.parse import quote

import requests

from . import VERSION
from .artifacts import backend_ids
from .transport import RetryPolicy, TwirpCallError, code_for_status

__all__ = ["API_VERSION", "CHUNK_SIZE", "LegacyArtifactClient", "LegacyFile", "LegacyUpload"]

API_VERSION = "6.0-preview"
CHUNK_SIZE = 8 * 1024 * 1024
PIECE = 1024 * 1024


@dataclass(frozen=True)
class LegacyFile:
    """A file to upload: its path inside the artifact (``/``-separated) and where it is on disk."""

    artifact_path: str
    source: Path


@dataclass(frozen=True)
class LegacyUpload:
    """A confirmed upload: how many files, their original bytes and the bytes sent (after gzip)."""

    files: int
    size: int
    sent: int


def _md5_b64(handle: BinaryIO, start: int, length: int) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    handle.seek(start)
    remaining = length
    while remaining > 0 and (piece := handle.read(min(PIECE, remaining))):
        digest.update(piece)
        remaining -= len(piece)
    return base64.b64encode(digest.digest()).decode("ascii")


class _Slice:
    """Bytes ``start`` to ``start + length`` of an open file, read in pieces (a streamed request body)."""

    def __init__(self, handle: BinaryIO, start: int, length: int) -> None:
        self._handle = handle
        self._start = start
        self._length = length

    def __len__(self) -> int:
        """Known up front, so requests sends a Content-Length instead of a chunked body."""
        return self._length

    def __iter__(self) -> Iterator[bytes]:
        self._handle.seek(self._start)
        remaining = self._length
        while remaining > 0 and (piece := self._handle.read(min(PIECE, remaining))):
            remaining -= len(piece)
            yield piece


class LegacyArtifactClient:
    """The v3 artifact protocol for one job, as its ``ACTIONS_RUNTIME_URL`` and runtime token allow."""

    def __init__(self, runtime_url: str, runtime_token: str, run_id: str, *, retry: RetryPolicy | None = None) -> None:
        self.base = f"{runtime_url.rstrip('/')}/_apis/pipelines/workflows/{run_id}/artifacts"
        self.retry = retry or RetryPolicy(attempts=3, initial_wait=0.5)
        self.session = requests.Session()
        self.session.headers.update(
            {"Authorization": f"Bearer {runtime_token}", "User-Agent": f"mock-runner/{VERSION} artifact-v3"}
        )

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None, **options: Any) -> LegacyArtifactClient:
        """The client a step gets from ``ACTIONS_RUNTIME_URL``, ``ACTIONS_RUNTIME_TOKEN`` and ``GITHUB_RUN_ID``
        (the run of the token when the variable is absent)."""
        env = os.environ if environ is None else environ
        missing = [name for name in ("ACTIONS_RUNTIME_URL", "ACTIONS_RUNTIME_TOKEN") if not env.get(name)]
        if missing:
            raise ValueError(f"missing environment variables: {', '.join(missing)}")
        token = env["ACTIONS_RUNTIME_TOKEN"]
        run_id = env.get("GITHUB_RUN_ID") or backend_ids(token)[0]
        return cls(env["ACTIONS_RUNTIME_URL"], token, run_id, **options)

    def _send(self, method: str, url: str, **kwargs: Any) -> requests.Response:
        """One request, retried on 429, 5xx and lost connections; any other failure raises at once."""
        for attempt in self.retry.retrying():
            with attempt:
                try:
                    response = self.session.request(method, url, timeout=(10, 300), **kwargs)
                except requests.RequestException as exc:
                    raise TwirpCallError(0, "unavailable", f"{method} {url}: {exc}") from exc
                if response.status_code >= 300:
                    text = response.text.strip()[:500]
                    raise TwirpCallError(response.status_code, code_for_status(response.status_code), text)
                return response
        raise TwirpCallError(0, "unavailable", f"{method} {url}: no attempt was made")  # pragma: no cover

    def _container_url(self, **query: str) -> str:
        params = "&".join(f"{key}={quote(value, safe='')}" for key, value in query.items())
        return f"{self.base}?api-version={API_VERSION}" + (f"&{params}" if params else "")

    def create_container(self, name: str, retention_days: int = 0) -> str:
        body: dict[str, Any] = {"Type": "actions_storage", "Name": name}
        if retention_days:
            body["RetentionDays"] = retention_days
        answer = self._send("POST", self._container_url(), json=body).json()
        return str(answer["fileContainerResourceUrl"])

    @contextmanager
    def _prepared(self, source: Path) -> Iterator[tuple[BinaryIO, int, bool]]:
        """(handle, length, gzip'ed) of what to send: the gzip of the file when smaller, else the file."""
        with tempfile.TemporaryFile() as packed:
            with source.open("rb") as raw, gzip.GzipFile(fileobj=packed, mode="wb", mtime=0) as deflate:
                shutil.copyfileobj(raw, deflate, PIECE)
            packed_size = packed.tell()
            original = source.stat().st_size
            if packed_size < original:
                yield packed, packed_size, True
                return
        with source.open("rb") as raw:
            yield raw, original, False

    def upload_file(self, container_url: str, name: str, item: LegacyFile) -> int:
        """Upload one file in chunks; returns the bytes sent."""
        separator = "&" if "?" in container_url else "?"
        url = f"{container_url}{separator}itemPath={quote(f'{name}/{item.artifact_path}', safe='')}"
        original = item.source.stat().st_size
        with self._prepared(item.source) as (handle, length, packed):
            starts = range(0, length, CHUNK_SIZE) if length else [0]
            for start in starts:
                count = min(CHUNK_SIZE, length - start)
                headers = {
                    "Content-Type": "application/octet-stream",
                    "Content-Range": f"bytes {start}-{start + count - 1}/{length}",
                    "x-tfs-filelength": str(original),
                    "x-actions-results-md5": _md5_b64(handle, start, count),
                }
                if packed:
                    headers["Content-Encoding"] = "gzip"
                body = _Slice(handle, start, count) if count else b""
                self._send("PUT", url, data=body, headers=headers)
        return length

    def confirm(self, name: str, size: int) -> None:
        self._send("PATCH", self._container_url(artifactName=name), json={"Size": size})

    def upload(self, name: str, files: Sequence[LegacyFile], retention_days: int = 0) -> LegacyUpload:
        """Create the container, upload every file, confirm: the whole v3 upload of one artifact."""
        container = self.create_container(name, retention_days)
        sent = sum(self.upload_file(container, name, item) for item in files)
        size = sum(item.source.stat().st_size for item in files)
        self.confirm(name, size)
        return LegacyUpload(files=len(files), size=size, sent=sent)

    def list(self) -> list[str]:
        """Names of the run's artifacts (Gitea answers 404 when there is none: an empty list here)."""
        try:
            answer = self._send("GET", self._container_url()).json()
        except TwirpCallError as exc:
            if exc.status == 404:
                return []
            raise
        return [str(entry["name"]) for entry in answer.get("value", [])]

    def items(self, name: str) -> builtins.list[tuple[str, str]]:
        """(path inside the artifact, download URL) of each file of the artifact."""
        answer = self._send("GET", self._container_url()).json()
        found = [entry for entry in answer.get("value", []) if entry.get("name") == name]
        if not found:
            raise TwirpCallError(404, "not_found", f"no artifact named {name!r} in this run")
        url = str(found[0]["fileContainerResourceUrl"])
        separator = "&" if "?" in url else "?"
        listing = self._send("GET", f"{url}{separator}itemPath={quote(name, safe='')}").json()
        prefix = name + "/"
        out: builtins.list[tuple[str, str]] = []
        for entry in listing.get("value", []):
            path = str(entry["path"])
            relative = path[len(prefix) :] if path.startswith(prefix) else path
            out.append((relative, str(entry["contentLocation"])))
        return out

    def download(self, name: str, destination: Path) -> builtins.list[Path]:
        """Fetch every file of the artifact under ``destination`` (never outside it); returns the files."""
        root = destination.resolve()
        written: builtins.list[Path] = []
        for relative, url in self.items(name):
            parts = PurePosixPath(relative).parts
            if not parts or any(part in ("", ".", "..") for part in parts) or PurePosixPath(relative).is_absolute():
                raise TwirpCallError(400, "invalid_argument", f"refusing the artifact path {relative!r}")
            target = root.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            response = self._send("GET", url, stream=True)
            with response, target.open("wb") as out:
                for piece in response.iter_content(PIECE):  # requests inflates Content-Encoding: gzip
                    out.write(piece)
            written.append(target)
        return written
