"""The harness's webhook receiver: an HTTP server in the test process that keeps every request it gets.

Each scenario points its hooks at a path of its own (``/hooks/<name>``) and waits, with a timeout,
for a delivery that matches. The server binds ``bind_host`` (loopback by default, enough for the
embedded reference server); against a live forge the harness is told ``public_url``, the address at
which that forge reaches this process (for example ``http://10.0.0.5:8765``), and binds its port.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = [
    "DEFAULT_BIND_HOST",
    "RECEIVER_HOST",
    "ReceivedRequest",
    "ReceiverTimeoutError",
    "WebhookReceiver",
    "receiver_address",
]

RECEIVER_HOST = "127.0.0.2"
"""A loopback address of the receiver's own, so a forge can allow exactly it (``ALLOWED_HOST_LIST =
external,127.0.0.2``) while still refusing ``localhost``, 127.0.0.1 and every other loopback form."""
DEFAULT_BIND_HOST = RECEIVER_HOST
MAX_BODY_BYTES = 16 * 1024 * 1024


class ReceiverTimeoutError(AssertionError):
    """No matching delivery arrived in time (an assertion failure of the scenario, not a harness error)."""


@dataclass(frozen=True)
class ReceivedRequest:
    """One request as it arrived: header names are lower-cased, the body is kept as raw bytes."""

    path: str
    method: str
    headers: dict[str, str]
    body: bytes
    received_at: float

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    @property
    def payload_text(self) -> bytes:
        """The JSON payload: the body, or the ``payload`` field of a form-encoded body."""
        if (self.header("content-type") or "").startswith("application/x-www-form-urlencoded"):
            fields = parse_qs(self.body.decode("utf-8", errors="replace"))
            return fields.get("payload", [""])[0].encode()
        return self.body

    def json(self) -> Any:
        """The decoded payload, or None when it is not JSON."""
        try:
            return json.loads(self.payload_text)
        except ValueError:
            return None

    @property
    def event(self) -> str | None:
        return self.header("x-gitea-event")

    @property
    def action(self) -> str | None:
        document = self.json()
        action = document.get("action") if isinstance(document, dict) else None
        return action if isinstance(action, str) else None


def receiver_address(bind_host: str | None, public_url: str | None) -> tuple[str, int, str | None]:
    """``(host to bind, port to bind, public base URL)`` from the options; port 0 means any free port.

    A public URL with an explicit port fixes the port to bind (the forge will call that port).
    """
    host = bind_host or DEFAULT_BIND_HOST
    if not public_url:
        return host, 0, None
    parts = urlsplit(public_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"webhook URL {public_url!r} is not an absolute http URL")
    return host, parts.port or 0, public_url.rstrip("/")


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def _record(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self.send_error(413, "body too large")
            return
        body = self.rfile.read(length) if length > 0 else b""
        request = ReceivedRequest(
            path=urlsplit(self.path).path,
            method=self.command,
            headers={name.lower(): value for name, value in self.headers.items()},
            body=body,
            received_at=time.time(),
        )
        self.server.receiver.record(request)
        reply = b'{"ok":true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def do_POST(self) -> None:
        self._record()

    def do_PUT(self) -> None:
        self._record()

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean: requests are in the receiver's record, not on stderr."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    receiver: WebhookReceiver


class WebhookReceiver:
    """A threaded HTTP server storing requests per path; ``wait_for`` blocks until one matches."""

    def __init__(self, bind_host: str = DEFAULT_BIND_HOST, port: int = 0, public_url: str | None = None) -> None:
        self._bind = (bind_host, port)
        self._public_url = public_url
        self._requests: dict[str, list[ReceivedRequest]] = {}
        self._changed = threading.Condition()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> WebhookReceiver:
        server = _Server(self._bind, _Handler)
        server.receiver = self
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="webhook-receiver", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> WebhookReceiver:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """Where the forge sends deliveries: the public URL when given, else the bound address."""
        if self._public_url:
            return self._public_url
        if self._server is None:
            raise RuntimeError("the webhook receiver is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def new_path(self, name: str) -> str:
        """A fresh path for one hook, so each scenario sees only its own deliveries."""
        return f"/hooks/{name}-{secrets.token_hex(4)}"

    def url(self, path: str) -> str:
        return self.base_url + path

    def record(self, request: ReceivedRequest) -> None:
        with self._changed:
            self._requests.setdefault(request.path, []).append(request)
            self._changed.notify_all()

    def requests(self, path: str) -> list[ReceivedRequest]:
        with self._changed:
            return list(self._requests.get(path, []))

    def wait_for(
        self, path: str, matches: Callable[[ReceivedRequest], bool], what: str, timeout: float = 30.0
    ) -> ReceivedRequest:
        """The first request at ``path`` that ``matches``, waiting up to ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = next((request for request in self._requests.get(path, []) if matches(request)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [f"{request.event}/{request.action}" for request in self._requests.get(path, [])]
                    raise ReceiverTimeoutError(f"no {what} arrived at {path} within {timeout:g} s; received: {seen}")
                self._changed.wait(left)
