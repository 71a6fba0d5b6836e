"""The actions cache the runner serves to its jobs, as act_runner does (its ``artifactcache`` handler).

The protocol is the cache service v1 that ``@actions/cache`` speaks when ``ACTIONS_CACHE_SERVICE_V2`` is not
set, under ``ACTIONS_CACHE_URL`` + ``_apis/artifactcache/``: look-up (``GET cache?keys=&version=``, 204 on a
miss), reserve (``POST caches``), chunks (``PATCH caches/{id}`` with ``Content-Range``), commit
(``POST caches/{id}``), download (``GET artifacts/{id}``) and ``POST clean``.

Like act_runner, every request but the download carries the job's ``ACTIONS_RUNTIME_TOKEN`` as a bearer
token, accepted only while that job runs (:meth:`CacheServer.register_job`), and the token decides the
repository the request is scoped to. The download URL handed out by a hit is signed instead (the client
sends no ``Authorization`` there): an HMAC-SHA256 of the id and an expiry, valid ten minutes.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server
from werkzeug.utils import send_file
from werkzeug.wrappers import Request, Response

from .cache_store import CacheError, CacheStore

__all__ = [
    "API_PATH",
    "DOWNLOAD_TTL",
    "CacheServer",
    "default_cache_dir",
    "parse_content_range",
]

API_PATH = "/_apis/artifactcache"
DOWNLOAD_TTL = 10 * 60
"""Seconds a signed download URL stays valid (act_runner's ``artifactURLTTL``)."""
MAX_KEYS = 10
"""A look-up names at most the key and nine restore keys (``@actions/cache`` refuses more itself)."""
JSON_BODY_LIMIT = 64 * 1024
_ID = re.compile(r"[0-9]{1,18}")
_RANGE = re.compile(r"bytes ([0-9]{1,19})-([0-9]{1,19})/(\*|[0-9]{1,19})")

log = logging.getLogger("mock_runner.cache")


def default_cache_dir(runner_file: Path) -> Path:
    """Where entries are kept without ``--cache-dir``: beside the runner's ``.runner`` file, with its other state.

    act_runner keeps ``~/.cache/actcache``; next to the registration, two mock runners on one host (or two
    tests) never share a directory and nothing lands in the home directory.
    """
    return runner_file.resolve().parent / ".cache" / "actcache"


def parse_content_range(value: str | None) -> tuple[int, int]:
    """``bytes START-END/TOTAL`` (TOTAL may be ``*``) as ``(start, end)``, END inclusive; 400 otherwise."""
    match = _RANGE.fullmatch((value or "").strip())
    if match is None:
        raise CacheError(400, f"Content-Range {value!r} is not 'bytes START-END/*'")
    start, end = int(match.group(1)), int(match.group(2))
    if end < start:
        raise CacheError(400, f"Content-Range {value!r} ends before it starts")
    return start, end


def _parse_id(text: str) -> int:
    if not _ID.fullmatch(text):
        raise CacheError(400, f"cache id {text[:40]!r} is not a number")
    return int(text)


def _json(status: int, value: Any = None) -> Response:
    body = "" if status == 204 else json.dumps({} if value is None else value)
    return Response(body, status=status, content_type="application/json; charset=utf-8")


def _read_json(request: Request) -> dict[str, Any]:
    raw = request.stream.read(JSON_BODY_LIMIT + 1)
    if len(raw) > JSON_BODY_LIMIT:
        raise CacheError(413, f"the JSON body is larger than {JSON_BODY_LIMIT} bytes")
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CacheError(400, f"the body is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise CacheError(400, "the body must be a JSON object")
    return value


class _QuietHandler(WSGIRequestHandler):
    """Logs the method and path only: the query of a download carries its signature."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        log.debug("%s %s -> %s", self.command, self.path.split("?", 1)[0], code)

    def log(self, type: str, message: str, *args: Any) -> None:
        log.debug(message, *args)


class CacheServer:
    """The cache's HTTP server on a port of this host, with the credentials of the jobs now running."""

    def __init__(
        self,
        cache_dir: str | Path,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        bind: str | None = None,
        clock: Callable[[], float] = time.time,
        max_entry_size: int | None = None,
    ) -> None:
        self.dir = Path(cache_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        limits = {} if max_entry_size is None else {"max_entry_size": max_entry_size}
        self.store = CacheStore(self.dir / "cache", clock=clock, **limits)
        self.host = host
        self._secret = self._load_secret()
        self._credentials: dict[str, list[Any]] = {}
        self._credentials_lock = threading.Lock()
        listen = bind if bind is not None else _listen_address(host)
        # bound here, so a port in use is an OSError to report (werkzeug would print and exit the process)
        family = socket.AF_INET6 if ":" in listen else socket.AF_INET
        with socket.create_server((listen, port), family=family) as listener:
            self._server: BaseWSGIServer = make_server(
                listen, port, self._wsgi, threaded=True, request_handler=_QuietHandler, fd=listener.fileno()
            )
        self.port = int(self._server.server_address[1])
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, name="cache-server", daemon=True
        )
        self._thread.start()
        log.info("cache server listening on %s:%d for %s", listen, self.port, self.url)

    @property
    def url(self) -> str:
        """``ACTIONS_CACHE_URL`` as act_runner hands it out: the server's root, ending in ``/``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
        self.store.close()

    def __enter__(self) -> CacheServer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- credentials ----------------------------------------------------------------------------
    def _load_secret(self) -> bytes:
        """The key signing download URLs, kept in the cache directory so URLs survive a restart."""
        path = self.dir / ".secret"
        try:
            secret = bytes.fromhex(path.read_text(encoding="ascii").strip())
            if len(secret) >= 32:
                return secret
        except (FileNotFoundError, ValueError):
            pass
        secret = secrets.token_bytes(32)
        path.touch(mode=0o600)
        path.write_text(secret.hex(), encoding="ascii")
        return secret

    def register_job(self, token: str, repo: str) -> Callable[[], None]:
        """Accept ``token`` for ``repo`` until the returned function is called (counted, as act_runner)."""
        if not token:
            return lambda: None
        with self._credentials_lock:
            entry = self._credentials.setdefault(token, [repo, 0])
            entry[1] += 1
        done = threading.Event()

        def revoke() -> None:
            if done.is_set():
                return
            done.set()
            with self._credentials_lock:
                current = self._credentials.get(token)
                if current is not None:
                    current[1] -= 1
                    if current[1] <= 0:
                        del self._credentials[token]

        return revoke

    def _repo_of(self, request: Request) -> str:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise CacheError(401, "missing bearer token")
        with self._credentials_lock:
            entry = self._credentials.get(token.strip())
        if entry is None:
            raise CacheError(401, "unknown bearer token")
        return str(entry[0])

    def _signature(self, entry_id: int, expires: int) -> str:
        return hmac.new(self._secret, f"{entry_id}:{expires}".encode(), hashlib.sha256).hexdigest()

    def download_url(self, entry_id: int) -> str:
        """A signed ``archiveLocation``: whoever holds it may download this entry for :data:`DOWNLOAD_TTL`."""
        expires = int(self.clock()) + DOWNLOAD_TTL
        query = urlencode({"exp": str(expires), "sig": self._signature(entry_id, expires)})
        return f"{self.url.rstrip('/')}{API_PATH}/artifacts/{entry_id}?{query}"

    def _check_signature(self, request: Request, entry_id: int) -> None:
        expires, signature = request.args.get("exp", ""), request.args.get("sig", "")
        if not expires or not signature:
            raise CacheError(401, "missing signature")
        if not expires.isdigit() or len(expires) > 12:
            raise CacheError(401, "invalid expiry")
        if int(expires) < self.clock():
            raise CacheError(401, "signature expired")
        if not hmac.compare_digest(signature.encode(), self._signature(entry_id, int(expires)).encode()):
            raise CacheError(401, "bad signature")

    # --- the protocol ---------------------------------------------------------------------------
    def _wsgi(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        request = Request(environ)
        try:
            response = self._dispatch(request)
        except CacheError as exc:
            log.info("%s %s: %d %s", request.method, request.path, exc.status, exc.message)
            response = _json(exc.status, {"error": exc.message})
        except Exception:  # a request must never get a traceback
            log.exception("%s %s failed", request.method, request.path)
            response = _json(500, {"error": "internal error of the cache server"})
        return response(environ, start_response)

    def _dispatch(self, request: Request) -> Response:
        path, method = request.path, request.method
        if not path.startswith(API_PATH + "/"):
            raise CacheError(404, "not found")
        route = path[len(API_PATH) + 1 :]
        head, _, rest = route.partition("/")
        if head == "artifacts" and rest and "/" not in rest:
            if method not in ("GET", "HEAD"):
                raise CacheError(405, f"{method} is not allowed here")
            entry_id = _parse_id(rest)
            self._check_signature(request, entry_id)
            return self._download(request, entry_id)
        handlers: dict[tuple[str, str], Callable[[Request, str, str], Response]] = {
            ("GET", "cache"): self._find,
            ("POST", "caches"): self._reserve,
            ("PATCH", "caches/"): self._upload,
            ("POST", "caches/"): self._commit,
            ("POST", "clean"): self._clean,
        }
        shape = f"{head}/" if rest else head
        if rest and "/" in rest:
            raise CacheError(404, "not found")
        handler = handlers.get((method, shape))
        if handler is None:
            if any(known == shape for _, known in handlers):
                raise CacheError(405, f"{method} is not allowed here")
            raise CacheError(404, "not found")
        repo = self._repo_of(request)
        return handler(request, repo, rest)

    def _find(self, request: Request, repo: str, _rest: str) -> Response:
        keys = [key.strip() for key in request.args.get("keys", "").split(",") if key.strip()]
        version = request.args.get("version", "")
        if not keys:
            raise CacheError(400, "keys is required")
        if len(keys) > MAX_KEYS:
            raise CacheError(400, f"at most {MAX_KEYS} keys may be given")
        if not version:
            raise CacheError(400, "version is required")
        entry = self.store.find(repo, keys, version)
        if entry is None:
            return _json(204)
        return _json(200, {"result": "hit", "archiveLocation": self.download_url(entry.id), "cacheKey": entry.key})

    def _reserve(self, request: Request, repo: str, _rest: str) -> Response:
        body = _read_json(request)
        entry_id = self.store.reserve(repo, body.get("key"), body.get("version"), body.get("cacheSize"))
        return _json(200, {"cacheId": entry_id})

    def _upload(self, request: Request, repo: str, rest: str) -> Response:
        entry_id = _parse_id(rest)
        start, end = parse_content_range(request.headers.get("Content-Range"))
        self.store.write(repo, entry_id, start, end, request.stream)
        return _json(200)

    def _commit(self, request: Request, repo: str, rest: str) -> Response:
        entry_id = _parse_id(rest)
        body = _read_json(request)
        self.store.commit(repo, entry_id, body.get("size"))
        return _json(200)

    def _clean(self, _request: Request, _repo: str, _rest: str) -> Response:
        """Accepted and does nothing, as in act_runner (GitHub's force-delete is not part of v1)."""
        return _json(200)

    def _download(self, request: Request, entry_id: int) -> Response:
        entry = self.store.get(entry_id)
        path = self.store.blob_path(entry_id)
        if entry is None or not entry.complete or not path.is_file():
            raise CacheError(404, f"cache {entry_id}: not found")
        self.store.touch(entry_id)
        return send_file(
            path,
            request.environ,
            mimetype="application/octet-stream",
            as_attachment=False,
            conditional=True,
            max_age=None,
        )


def _listen_address(host: str) -> str:
    """Loopback only when jobs reach the cache at a loopback address (the host itself), else every interface."""
    if host.lower() == "localhost":
        return "127.0.0.1"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return "0.0.0.0"  # noqa: S104 (a name such as host.docker.internal: jobs come from elsewhere)
    if address.is_loopback:
        return str(address)
    return "::" if address.version == 6 else "0.0.0.0"  # noqa: S104
