"""Client of the artifact protocol (Twirp ``github.actions.results.api.v1.ArtifactService``), like @actions/artifact.

The run and job backend ids come from the runtime token's ``scp`` claim, read without verifying the
signature (the client cannot: only the server holds the key). Requests are JSON with snake_case names
and int64 as strings; transfers go through ``blob``: streaming, constant memory, sha256 on the fly.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any, BinaryIO, TypeVar, cast
from urllib.parse import urlsplit

import jwt
import requests
from forge_proto import artifact_pb2
from google.protobuf import json_format
from google.protobuf.message import Message

from . import VERSION
from .blob import BLOCK_SIZE, BlockUploader, download_blob
from .transport import BlobTransferError, RetryPolicy, TwirpCallError, error_from_response

__all__ = [
    "SERVICE",
    "ArtifactClient",
    "ArtifactTokenError",
    "BlobTransferError",
    "DigestMismatchError",
    "DownloadResult",
    "RemoteArtifact",
    "RetryPolicy",
    "TwirpCallError",
    "UploadResult",
    "backend_ids",
]

SERVICE = "github.actions.results.api.v1.ArtifactService"
M = TypeVar("M", bound=Message)


class ArtifactTokenError(ValueError):
    """The runtime token is not a JWT with an ``Actions.Results:<run>:<job>`` scope."""


@dataclass(frozen=True)
class UploadResult:
    """A finalized upload: the server's artifact id, the bytes sent and their sha256 (hex)."""

    artifact_id: int
    size: int
    sha256: str


@dataclass(frozen=True)
class DownloadResult:
    """A finished download: bytes written, their sha256 (hex), the server's type and file name, and the
    digest the server listed for the artifact (``sha256:<hex>``; None when it lists none, as Gitea)."""

    size: int
    sha256: str
    content_type: str = ""
    filename: str = ""
    path: Path | None = None
    expected_digest: str | None = None

    @property
    def digest_mismatch(self) -> bool:
        """The bytes received are not those the server listed (never true when it listed no digest)."""
        return self.expected_digest is not None and self.expected_digest.lower() != f"sha256:{self.sha256}"


class DigestMismatchError(ValueError):
    """A download whose sha256 differs from the digest ListArtifacts gave: the bytes were damaged."""

    def __init__(self, name: str, expected: str, actual_hex: str) -> None:
        self.name = name
        self.expected = expected
        self.actual = f"sha256:{actual_hex}"
        super().__init__(
            f"artifact {name!r}: the downloaded bytes have {self.actual} but the server listed {expected};"
            " the download is damaged or was altered"
        )


@dataclass(frozen=True)
class RemoteArtifact:
    """One item of ``ListArtifacts``."""

    id: int
    name: str
    size: int
    created_at: datetime | None
    workflow_run_backend_id: str
    workflow_job_run_backend_id: str
    digest: str | None = None  # sha256:<hex> when the server lists one (GitHub's field 7; Gitea has none)


def backend_ids(runtime_token: str) -> tuple[str, str]:
    """The (run, job) backend ids of the ``Actions.Results:<run>:<job>`` entry of the token's ``scp``."""
    try:
        claims = jwt.decode(runtime_token, options={"verify_signature": False})
    except jwt.PyJWTError as exc:
        raise ArtifactTokenError(f"the runtime token is not a readable JWT: {exc}") from exc
    scopes = str(claims.get("scp", "")).split(" ")
    for scope in scopes:
        parts = scope.split(":")
        if parts[0] == "Actions.Results":
            if len(parts) != 3 or not parts[1] or not parts[2]:
                raise ArtifactTokenError(f"the runtime token's scope {scope!r} is not Actions.Results:<run>:<job>")
            return parts[1], parts[2]
    raise ArtifactTokenError("the runtime token has no Actions.Results:<run>:<job> scope in its 'scp' claim")


def _progress_bar(description: str, total: int | None, enabled: bool) -> contextlib.AbstractContextManager[Any]:
    """A tqdm bar on stderr when it is a terminal; otherwise nothing."""
    if not enabled:
        return contextlib.nullcontext(None)
    from tqdm import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415 - only on a terminal

    return cast(
        "contextlib.AbstractContextManager[Any]",
        tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=description, file=sys.stderr, leave=False),
    )


class ArtifactClient:
    """The artifact protocol for one job, as its ``ACTIONS_RESULTS_URL`` and ``ACTIONS_RUNTIME_TOKEN`` allow."""

    def __init__(
        self,
        results_url: str,
        runtime_token: str,
        *,
        retry: RetryPolicy | None = None,
        session: requests.Session | None = None,
        progress: bool | None = None,
        timeout: float = 120.0,
    ) -> None:
        parts = urlsplit(results_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"ACTIONS_RESULTS_URL {results_url!r} is not an http(s) URL")
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.runtime_token = runtime_token
        self.run_backend_id, self.job_backend_id = backend_ids(runtime_token)
        self.retry = retry or RetryPolicy()
        self.session = session or requests.Session()
        self.progress = sys.stderr.isatty() if progress is None else progress
        self.timeout = timeout

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None, **options: Any) -> ArtifactClient:
        """The client a job step gets from ``ACTIONS_RESULTS_URL`` and ``ACTIONS_RUNTIME_TOKEN``."""
        env = os.environ if environ is None else environ
        missing = [name for name in ("ACTIONS_RESULTS_URL", "ACTIONS_RUNTIME_TOKEN") if not env.get(name)]
        if missing:
            raise ArtifactTokenError(f"{' and '.join(missing)} not set: run this inside a job (mock-runner exec)")
        return cls(env["ACTIONS_RESULTS_URL"], env["ACTIONS_RUNTIME_TOKEN"], **options)

    def _with_ids(self, request: M) -> M:
        """Set the (run, job) pair every request of the service carries."""
        request.workflow_run_backend_id = self.run_backend_id  # type: ignore[attr-defined]
        request.workflow_job_run_backend_id = self.job_backend_id  # type: ignore[attr-defined]
        return request

    def _once(self, method: str, body: dict[str, Any], reply: M) -> M:
        url = f"{self.origin}/twirp/{SERVICE}/{method}"
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Authorization": f"Bearer {self.runtime_token}",
            "User-Agent": f"{VERSION} (artifact client)",
        }
        try:
            response = self.session.post(url, json=body, headers=headers, timeout=(10.0, self.timeout))
        except requests.RequestException as exc:
            raise TwirpCallError(0, "unavailable", f"{method}: cannot reach {url}: {exc}") from exc
        if response.status_code // 100 != 2:
            raise error_from_response(response, method)
        try:
            json_format.Parse(response.content, reply, ignore_unknown_fields=True)
        except (json_format.ParseError, UnicodeDecodeError) as exc:
            # A 2xx that is not JSON is what a confused proxy sends: retried like a 5xx, as the official client does.
            raise TwirpCallError(502, "malformed", f"{method}: answer is not protojson: {exc}") from exc
        return reply

    def call(self, method: str, request: Message, reply: M) -> M:
        """One Twirp JSON call with retries; raises ``TwirpCallError`` once retrying cannot help."""
        body = json_format.MessageToDict(request, preserving_proto_field_name=True)
        for attempt in self.retry.retrying():
            with attempt:
                return self._once(method, body, reply)
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover

    @staticmethod
    def _require_ok(method: str, ok: bool) -> None:
        if not ok:
            raise TwirpCallError(200, "failed_precondition", f"{method}: the server answered ok=false")

    def create(
        self, name: str, version: int = 4, mime_type: str | None = None, expires_at: datetime | None = None
    ) -> str:
        """``CreateArtifact``: returns the signed upload URL."""
        request = self._with_ids(artifact_pb2.CreateArtifactRequest(name=name, version=version))
        if mime_type is not None:
            request.mime_type.value = mime_type
        if expires_at is not None:
            request.expires_at.FromDatetime(expires_at)
        reply = self.call("CreateArtifact", request, artifact_pb2.CreateArtifactResponse())
        self._require_ok("CreateArtifact", reply.ok)
        if not reply.signed_upload_url:
            raise TwirpCallError(200, "malformed", "CreateArtifact: no signed_upload_url in the answer")
        return reply.signed_upload_url

    def finalize(self, name: str, size: int, sha256: str | None) -> int:
        """``FinalizeArtifact``: ``sha256`` as hex or ``sha256:<hex>`` (sent with the prefix); returns the id."""
        request = self._with_ids(artifact_pb2.FinalizeArtifactRequest(name=name, size=size))
        if sha256 is not None:
            request.hash.value = sha256 if ":" in sha256 else f"sha256:{sha256}"
        reply = self.call("FinalizeArtifact", request, artifact_pb2.FinalizeArtifactResponse())
        self._require_ok("FinalizeArtifact", reply.ok)
        return reply.artifact_id

    def upload(
        self,
        name: str,
        source: str | os.PathLike[str] | BinaryIO,
        *,
        block_size: int = BLOCK_SIZE,
        concurrency: int = 4,
        version: int = 4,
        mime_type: str | None = None,
        expires_at: datetime | None = None,
    ) -> UploadResult:
        """Create, upload ``source`` (a file path or a binary stream) in blocks, and finalize."""
        with self._open_source(source) as (stream, total):
            url = self.create(name, version=version, mime_type=mime_type, expires_at=expires_at)
            with _progress_bar(f"upload {name}", total, self.progress) as bar:
                uploader = BlockUploader(
                    self.session,
                    url,
                    block_size=block_size,
                    concurrency=concurrency,
                    retry=self.retry,
                    progress=bar.update if bar is not None else None,
                    content_type=mime_type,
                )
                size, digest = uploader.upload(stream)
        artifact_id = self.finalize(name, size, f"sha256:{digest}")
        return UploadResult(artifact_id=artifact_id, size=size, sha256=digest)

    @staticmethod
    @contextlib.contextmanager
    def _open_source(source: str | os.PathLike[str] | BinaryIO) -> Iterator[tuple[BinaryIO, int | None]]:
        if isinstance(source, str | os.PathLike):
            path = Path(source)
            if path.is_dir():
                raise IsADirectoryError(f"{path} is a directory: zip it first (or use upload-artifact)")
            with path.open("rb") as stream:
                yield stream, path.stat().st_size
        else:
            yield source, None

    def list(self, name_filter: str | None = None, id_filter: int | None = None) -> list[RemoteArtifact]:
        """``ListArtifacts`` of this run, optionally filtered by exact name or database id."""
        request = self._with_ids(artifact_pb2.ListArtifactsRequest())
        if name_filter is not None:
            request.name_filter.value = name_filter
        if id_filter is not None:
            request.id_filter.value = id_filter
        reply = self.call("ListArtifacts", request, artifact_pb2.ListArtifactsResponse())
        return [
            RemoteArtifact(
                id=item.database_id,
                name=item.name,
                size=item.size,
                created_at=item.created_at.ToDatetime() if item.HasField("created_at") else None,
                workflow_run_backend_id=item.workflow_run_backend_id,
                workflow_job_run_backend_id=item.workflow_job_run_backend_id,
                digest=item.digest.value if item.HasField("digest") and item.digest.value else None,
            )
            for item in reply.artifacts
        ]

    def signed_url(self, name: str) -> str:
        """``GetSignedArtifactURL``: a URL to download the artifact without credentials."""
        request = self._with_ids(artifact_pb2.GetSignedArtifactURLRequest(name=name))
        reply = self.call("GetSignedArtifactURL", request, artifact_pb2.GetSignedArtifactURLResponse())
        if not reply.signed_url:
            raise TwirpCallError(200, "malformed", "GetSignedArtifactURL: no signed_url in the answer")
        return reply.signed_url

    def listed_digest(self, name: str) -> str | None:
        """The digest ListArtifacts gives the artifact of that name (its newest id, as @actions/artifact picks)."""
        items = self.list(name_filter=name)
        newest = max(items, key=lambda item: item.id, default=None)
        return newest.digest if newest is not None else None

    def download(self, name: str, dest: str | os.PathLike[str] | BinaryIO, *, verify: bool = True) -> DownloadResult:
        """Download the artifact's bytes as stored to a file, a directory (server's file name) or a stream.

        The sha256 of the bytes, computed while they stream, is compared with the digest the server lists
        (when it lists one): with ``verify`` a mismatch raises :class:`DigestMismatchError` and a file
        destination is not written; without it the result says ``digest_mismatch``.
        """
        expected = self.listed_digest(name)
        url = self.signed_url(name)
        if not isinstance(dest, str | os.PathLike):
            return self._checked(name, self._download_into(name, url, dest, expected), verify)
        target = Path(dest)
        directory = target if target.is_dir() else target.parent
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=".download-", dir=directory)
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "wb") as sink:
                result = self._checked(name, self._download_into(name, url, sink, expected), verify)
            fallback = f"{name}.zip" if "zip" in result.content_type else name
            final = directory / (result.filename or fallback) if target.is_dir() else target
            tmp.replace(final)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return DownloadResult(result.size, result.sha256, result.content_type, result.filename, final, expected)

    @staticmethod
    def _checked(name: str, result: DownloadResult, verify: bool) -> DownloadResult:
        """The result, unless ``verify`` is asked and the bytes differ from the listed digest."""
        if verify and result.expected_digest is not None and result.digest_mismatch:
            raise DigestMismatchError(name, result.expected_digest, result.sha256)
        return result

    def _download_into(self, name: str, url: str, sink: IO[bytes], expected: str | None) -> DownloadResult:
        with _progress_bar(f"download {name}", None, self.progress) as bar:
            update: Callable[[int], None] | None = bar.update if bar is not None else None
            blob = download_blob(self.session, url, cast(BinaryIO, sink), retry=self.retry, progress=update)
        return DownloadResult(blob.size, blob.sha256, blob.content_type, blob.filename, expected_digest=expected)

    def delete(self, name: str) -> int:
        """``DeleteArtifact``: returns the id of the deleted artifact."""
        request = self._with_ids(artifact_pb2.DeleteArtifactRequest(name=name))
        reply = self.call("DeleteArtifact", request, artifact_pb2.DeleteArtifactResponse())
        self._require_ok("DeleteArtifact", reply.ok)
        return reply.artifact_id
