"""A small HTTP client for steps: one ``requests.Session`` per identity, no implicit raise, a masked transcript.

The clients of one target share their connections (one pool, kept alive between scenarios) but not
their cookies. A loopback target (the embedded server) is reached without consulting proxy settings:
requests would otherwise scan the environment on every request, a measurable share of the harness's
time, and a proxy cannot serve a loopback address anyway.

Every exchange is recorded into a :class:`Recorder` shared by the whole run; the plugin opens a fresh
page of it for each scenario so a failed scenario's report shows exactly the traffic it caused. The run's
recorder also holds the API contract (:mod:`conformance.contract`): every answer any client of the run
receives is checked against it, and the breaches wait in the recorder until the plugin fails the step.
Credentials never reach the transcript: ``Authorization`` values, ``token=``/``access_token=``/``sig=``
query values, secret-looking JSON fields and every secret registered with :meth:`Recorder.add_secret`
are replaced by ``***``.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import requests
from requests.auth import AuthBase

from .contract import Contract, Violation
from .loopback import LoopbackTransport

__all__ = [
    "BODY_LIMIT",
    "MASK",
    "BasicAuth",
    "Capture",
    "Exchange",
    "HttpClient",
    "QueryTokenAuth",
    "Recorder",
    "TokenAuth",
    "is_loopback",
    "json_of",
    "mask_text",
    "mask_url",
]

MASK = "***"
BODY_LIMIT = 4096
SECRET_QUERY_KEYS = frozenset({"token", "access_token", "sig", "signature", "password"})
SECRET_JSON_KEYS = frozenset(
    {"password", "token", "sha1", "secret", "access_token", "runtime_token", "registration_token", "data"}
)
SECRET_KEY_PARTS = ("token", "secret", "password", "passwd", "authorization")
"""A JSON key containing one of these names a credential (``auth_password``, ``gitea_runtime_token``...)."""
NOT_SECRET_KEYS = frozenset({"token_last_eight"})
TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-]{20,}")
"""A ``key`` field holding a value of this shape is a deploy token, not a license or template key."""
SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
        "x-runner-token",
        "x-gitea-signature",
        "x-gogs-signature",
        "x-hub-signature",
        "x-hub-signature-256",
    }
)
_QUERY_SECRET = re.compile(r"(?i)\b(token|access_token|sig|signature|password)=([^&\s\"'#]+)")


class TokenAuth(AuthBase):
    """``Authorization: <scheme> <token>`` (Gitea accepts ``token`` and ``Bearer``)."""

    def __init__(self, token: str, scheme: str = "token") -> None:
        self.token = token
        self.scheme = scheme

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers["Authorization"] = f"{self.scheme} {self.token}"
        return request


class BasicAuth(requests.auth.HTTPBasicAuth):
    """HTTP basic auth with a password or a token as the password."""


class QueryTokenAuth(AuthBase):
    """The deprecated ``?token=`` credential, to check that a server still accepts it and warns."""

    def __init__(self, token: str, parameter: str = "token") -> None:
        self.token = token
        self.parameter = parameter

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.prepare_url(request.url, {self.parameter: self.token})
        return request


@dataclass(frozen=True)
class Exchange:
    """One request and its response, already masked and cut, as a report shows it."""

    method: str
    url: str
    status: int | None
    request_headers: dict[str, str]
    request_body: str
    response_headers: dict[str, str]
    response_body: str
    elapsed_ms: float
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The JSON form used in results.json."""
        return {
            "method": self.method,
            "url": self.url,
            "status": self.status,
            "request_headers": self.request_headers,
            "request_body": self.request_body,
            "response_headers": self.response_headers,
            "response_body": self.response_body,
            "elapsed_ms": round(self.elapsed_ms, 1),
            "error": self.error,
        }

    def render(self) -> str:
        """A readable block for a terminal or JUnit report."""
        lines = [f"> {self.method} {self.url}"]
        lines += [f"> {name}: {value}" for name, value in self.request_headers.items()]
        if self.request_body:
            lines.append(f"> {self.request_body}")
        if self.error:
            lines.append(f"< (no response: {self.error})")
        else:
            lines.append(f"< {self.status}")
            lines += [f"< {name}: {value}" for name, value in self.response_headers.items()]
            if self.response_body:
                lines.append(f"< {self.response_body}")
        return "\n".join(lines)


def mask_url(url: str) -> str:
    """Hide credential and signature query values of a URL."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = [
        (key, MASK if key.lower() in SECRET_QUERY_KEYS else value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit(parts._replace(query=urlencode(pairs, safe="*")))


def _is_secret_key(key: str, value: Any) -> bool:
    lowered = key.lower()
    if lowered in NOT_SECRET_KEYS:
        return False
    if lowered == "key":
        return isinstance(value, str) and TOKEN_LIKE.fullmatch(value) is not None
    return lowered in SECRET_JSON_KEYS or any(part in lowered for part in SECRET_KEY_PARTS)


def _mask_all(value: Any) -> Any:
    """Every string under a secret key (a job's ``secrets`` map) is masked, whatever its own key."""
    if isinstance(value, dict):
        return {key: _mask_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_mask_all(item) for item in value]
    return MASK if isinstance(value, str) and value else value


def _mask_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: (_mask_all(item) if _is_secret_key(key, item) else _mask_json(item)) for key, item in value.items()
        }
    if isinstance(value, list):
        return [_mask_json(item) for item in value]
    return value


def mask_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Hide registered secrets (longest first) and signed-URL query values anywhere in a text."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret and secret in text:
            text = text.replace(secret, MASK)
    return _QUERY_SECRET.sub(lambda match: f"{match.group(1)}={MASK}", text)


def _body_text(body: bytes | str | None, content_type: str, secrets: Iterable[str], limit: int) -> str:
    if body is None or body in (b"", ""):
        return ""
    raw = body.encode("utf-8") if isinstance(body, str) else body
    if "json" in content_type or raw[:1] in (b"{", b"["):
        try:
            text = json.dumps(_mask_json(json.loads(raw)), ensure_ascii=False)
        except (ValueError, UnicodeDecodeError):
            text = ""
        if text:
            return _cut(mask_text(text, secrets), limit)
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return f"<{len(raw)} bytes of binary data>"
    if any(ord(char) < 9 for char in decoded[:512]):
        return f"<{len(raw)} bytes of binary data>"
    return _cut(mask_text(decoded, secrets), limit)


def _shown_url(url: str, secrets: Iterable[str]) -> str:
    """A URL as a report shows it: credential query values and registered secrets masked."""
    return mask_text(mask_url(url), secrets)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def _headers(headers: Mapping[str, str], secrets: Iterable[str]) -> dict[str, str]:
    shown: dict[str, str] = {}
    for name, value in headers.items():
        if name.lower() in SECRET_HEADERS:
            scheme = value.split(" ", 1)[0] if " " in value else ""
            shown[name] = f"{scheme} {MASK}".strip()
        else:
            shown[name] = mask_text(mask_url(value) if value.startswith("http") else value, secrets)
    return shown


@dataclass(frozen=True)
class Capture:
    """One HTTP exchange as sent and received, before masking (only a report's :meth:`Recorder.page` masks it)."""

    request: requests.PreparedRequest
    response: requests.Response | None
    elapsed_ms: float
    error: str = ""
    streamed: bool = False


@dataclass
class Recorder:
    """Collects the masked exchanges of the current scenario; shared by every client of a run."""

    body_limit: int = BODY_LIMIT
    exchanges: list[Exchange | Capture] = field(default_factory=list)
    """This page's traffic: HTTP exchanges as captured, and exchanges other clients (git) show themselves."""
    secrets: set[str] = field(default_factory=set)
    """Masked for the whole run (the admin's token)."""
    page_secrets: set[str] = field(default_factory=set)
    """Masked until the next page: a scenario's passwords and tokens, which no later scenario can use."""
    contract: Contract | None = None
    """The API contract every answer is checked against (the plugin sets the run's; none checks nothing)."""
    violations: list[Violation] = field(default_factory=list)
    """Breaches of the contract not yet reported (:meth:`take_violations`)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _ordered: tuple[str, ...] | None = field(default=None, repr=False)

    def add_secret(self, secret: str, *, run_wide: bool = False) -> None:
        """Mask this value wherever it appears for the rest of the scenario (``run_wide``: of the run).

        Scoping a scenario's secrets to its page keeps masking cheap: with every secret of the run kept,
        each exchange was checked against thousands of values by the end of a suite.
        """
        if len(secret) >= 4:
            with self._lock:
                (self.secrets if run_wide else self.page_secrets).add(secret)
                self._ordered = None

    def masked_values(self) -> tuple[str, ...]:
        """Every secret to mask now, longest first (so a secret containing another is masked whole)."""
        with self._lock:
            if self._ordered is None:
                self._ordered = tuple(sorted(self.secrets | self.page_secrets, key=len, reverse=True))
            return self._ordered

    def start_page(self) -> None:
        """Forget the previous scenario's exchanges and its secrets."""
        with self._lock:
            self.exchanges = []
            self.page_secrets = set()
            self.violations = []
            self._ordered = None

    def page(self) -> list[Exchange]:
        """The exchanges recorded since the last :meth:`start_page`, masked with every secret known now."""
        with self._lock:
            entries = list(self.exchanges)
        return [entry if isinstance(entry, Exchange) else self._shown(entry) for entry in entries]

    def requests_made(self) -> list[tuple[str, str]]:
        """The method and masked URL of each exchange of this page: what coverage needs, without the cost of
        masking every body (:meth:`page`)."""
        secrets = self.masked_values()
        with self._lock:
            entries = list(self.exchanges)
        made: list[tuple[str, str]] = []
        for entry in entries:
            if isinstance(entry, Exchange):
                made.append((entry.method, entry.url))
            else:
                made.append((entry.request.method or "", _shown_url(entry.request.url or "", secrets)))
        return made

    def capture(
        self,
        request: requests.PreparedRequest,
        response: requests.Response | None,
        elapsed_ms: float,
        error: str = "",
        *,
        streamed: bool = False,
    ) -> None:
        """Keep one exchange as it was sent and received; it is masked and cut only when a report asks for the
        page. Most scenarios pass, and masking every body as it came cost a tenth of the harness's time."""
        with self._lock:
            self.exchanges.append(Capture(request, response, elapsed_ms, error, streamed))

    def record(
        self,
        request: requests.PreparedRequest,
        response: requests.Response | None,
        elapsed_ms: float,
        error: str = "",
        *,
        streamed: bool = False,
    ) -> Exchange:
        """Keep one exchange (as :meth:`capture`) and return it as a report would show it now."""
        self.capture(request, response, elapsed_ms, error, streamed=streamed)
        return self._shown(Capture(request, response, elapsed_ms, error, streamed))

    def _shown(self, capture: Capture) -> Exchange:
        """A captured exchange masked and cut; a streamed response's body is left unread for its reader."""
        secrets = self.masked_values()
        request, response = capture.request, capture.response
        request_type = request.headers.get("Content-Type", "")
        body = request.body if isinstance(request.body, bytes | str) else None
        return Exchange(
            method=request.method or "",
            url=_shown_url(request.url or "", secrets),
            status=response.status_code if response is not None else None,
            request_headers=_headers(request.headers, secrets),
            request_body=_body_text(body, request_type, secrets, self.body_limit),
            response_headers=_headers(response.headers, secrets) if response is not None else {},
            response_body=(
                "<streamed body, not recorded>"
                if capture.streamed
                else _body_text(response.content, response.headers.get("Content-Type", ""), secrets, self.body_limit)
                if response is not None
                else ""
            ),
            elapsed_ms=capture.elapsed_ms,
            error=capture.error,
        )

    def check(self, request: requests.PreparedRequest, response: requests.Response) -> None:
        """Check one answer against the contract; a breach (its found values masked) waits for the plugin."""
        contract = self.contract
        if contract is None:
            return
        final = response.request if response.request is not None else request  # after redirects, if followed
        violation = contract.check(
            final.method or "",
            final.url or "",
            response.status_code,
            response.headers.get("Content-Type", ""),
            response.content,
        )
        if violation is None:
            return
        secrets = self.masked_values()

        def hide(pointer: str, found: str) -> str:
            key = pointer.rsplit("/", 1)[-1]
            return MASK if _is_secret_key(key, found.partition(" ")[2].strip('"')) else mask_text(found, secrets)

        with self._lock:
            self.violations.append(violation.masked(hide))

    def take_violations(self) -> list[Violation]:
        """The breaches since the last call (or page), forgotten once taken: each fails one step."""
        with self._lock:
            taken, self.violations = self.violations, []
        return taken


def json_of(response: requests.Response) -> Any:
    """The response's JSON body, or an AssertionError that says what came instead."""
    try:
        return response.json()
    except ValueError:
        snippet = response.text[:200]
        raise AssertionError(
            f"{response.request.method} {mask_url(response.url)} answered {response.status_code} "
            f"with a body that is not JSON: {snippet!r}"
        ) from None


def is_loopback(url: str) -> bool:
    """Whether ``url`` names this machine (``localhost`` or a loopback address)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HttpClient:
    """HTTP verbs over one session, relative to ``base_url``; never raises on an HTTP status."""

    def __init__(
        self,
        base_url: str,
        auth: AuthBase | None = None,
        *,
        recorder: Recorder | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.auth = auth
        self.recorder = recorder if recorder is not None else Recorder()
        self.timeout = timeout
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "forge-conformance-kit"
        self.transport: LoopbackTransport | None = None
        """Plain HTTP to this machine skips requests' machinery (:mod:`conformance.loopback`)."""
        if is_loopback(self.base_url):
            self.session.trust_env = False
            self.session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
            if self.base_url.startswith("http://"):
                self.transport = LoopbackTransport(self.base_url)

    def with_auth(self, auth: AuthBase | None) -> HttpClient:
        """A client to the same base URL with other credentials, recording into the same transcript and
        sending over the same connections."""
        client = HttpClient(self.base_url, auth, recorder=self.recorder, timeout=self.timeout)
        client.session.adapters = self.session.adapters
        client.transport = self.transport
        return client

    def url(self, path: str) -> str:
        """An absolute URL: ``path`` as is when absolute, else relative to the base URL."""
        if path.startswith(("http://", "https://")):
            return path
        return self.base_url + path.lstrip("/")

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        json: Any = None,
        data: bytes | str | None = None,
        headers: Mapping[str, str] | None = None,
        auth: AuthBase | None = None,
        allow_redirects: bool = False,
        stream: bool = False,
    ) -> requests.Response:
        """Send one request and record it; redirects are not followed unless asked."""
        url = self.url(path)
        chosen = auth if auth is not None else self.auth
        transport = self.transport
        if transport is not None and transport.serves(url, data=data, stream=stream, allow_redirects=allow_redirects):
            prepared = transport.prepare(
                method.upper(),
                url,
                params=params or {},
                json_body=json,
                data=data,
                headers=headers or {},
                auth=chosen,
                session=self.session,
            )
            return self._sent(
                prepared, lambda: transport.send(prepared, timeout=self.timeout, cookies=self.session.cookies)
            )
        request = requests.Request(
            method.upper(),
            url,
            params=dict(params or {}),
            json=json,
            data=data,
            headers=dict(headers or {}),
            auth=chosen,
        )
        prepared = self.session.prepare_request(request)
        return self._sent(
            prepared,
            lambda: self.session.send(prepared, timeout=self.timeout, allow_redirects=allow_redirects, stream=stream),
            stream=stream,
        )

    def _sent(
        self, prepared: requests.PreparedRequest, send: Callable[[], requests.Response], *, stream: bool = False
    ) -> requests.Response:
        """Send, record the exchange (a failure too) and check a read answer against the contract."""
        started = time.perf_counter()
        try:
            response = send()
        except requests.RequestException as error:
            self.recorder.capture(prepared, None, (time.perf_counter() - started) * 1000, error=str(error))
            raise
        self.recorder.capture(prepared, response, (time.perf_counter() - started) * 1000, streamed=stream)
        if not stream:
            self.recorder.check(prepared, response)
        return response

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        """GET ``path``."""
        return self.request("GET", path, **kwargs)

    def head(self, path: str, **kwargs: Any) -> requests.Response:
        """HEAD ``path``."""
        return self.request("HEAD", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        """POST ``path``."""
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> requests.Response:
        """PUT ``path``."""
        return self.request("PUT", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> requests.Response:
        """PATCH ``path``."""
        return self.request("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> requests.Response:
        """DELETE ``path``."""
        return self.request("DELETE", path, **kwargs)

    def close(self) -> None:
        """Release the session's connections."""
        self.session.close()
        if self.transport is not None:
            self.transport.close()
