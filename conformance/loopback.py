"""Plain HTTP to a loopback target over kept-alive ``http.client`` connections, answering ``requests`` objects.

A step's request to the embedded server went through requests' whole session machinery (settings merged
from the environment and the session, urllib3's pool, retries and response wrapping): about 1.2 ms of the
harness's CPU for each of the suite's twenty thousand requests, several times what the bytes cost. This
transport builds the same :class:`requests.PreparedRequest` by hand, sends it on a pooled
:class:`http.client.HTTPConnection` and answers a complete :class:`requests.Response`, so steps, the
transcript and the contract check see exactly what requests would have given them. It serves only what it
can serve the same way: plain ``http`` to this machine, no redirect followed, no streamed body; the client
sends everything else through requests.
"""

from __future__ import annotations

import datetime
import http.client
import json
import select
import socket
import threading
import time
import weakref
import zlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.auth import AuthBase
from requests.cookies import MockRequest, MockResponse, RequestsCookieJar, get_cookie_header
from requests.models import RequestEncodingMixin
from requests.structures import CaseInsensitiveDict
from requests.utils import get_encoding_from_headers, requote_uri

__all__ = ["LoopbackTransport"]

BODYLESS_METHODS = frozenset({"GET", "HEAD"})
"""requests sends ``Content-Length: 0`` with an empty body for every other method."""
CONNECTION_ERRORS = (ConnectionError, http.client.HTTPException, OSError)


class LoopbackTransport:
    """Kept-alive connections to one ``http://host:port`` origin, shared by every client of a target."""

    def __init__(self, origin: str) -> None:
        parts = urlsplit(origin)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"a loopback transport needs an http://host:port origin, not {origin!r}")
        self.origin = f"http://{parts.netloc}"
        self._host = parts.hostname
        self._port = parts.port or 80
        self._idle: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()
        weakref.finalize(self, _close_all, self._idle)  # a forgotten client's kept connections are closed

    def serves(self, url: str, *, data: object, stream: bool, allow_redirects: bool) -> bool:
        """Whether this transport answers the request as requests would (else the caller uses requests)."""
        return (
            not stream
            and not allow_redirects
            and url.startswith(self.origin + "/")
            and "#" not in url
            and isinstance(data, bytes | str | None)
        )

    def prepare(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any],
        json_body: Any,
        data: bytes | str | None,
        headers: Mapping[str, str],
        auth: AuthBase | None,
        session: requests.Session,
    ) -> requests.PreparedRequest:
        """The request requests' ``Session.prepare_request`` would build: the session's headers under the
        caller's, the parameters encoded after the URL's own query, the JSON or raw body with its length."""
        prepared = requests.PreparedRequest()
        prepared.method = method
        query = RequestEncodingMixin._encode_params(params) if params else ""  # type: ignore[attr-defined]
        if query:
            url = f"{url}&{query}" if "?" in url else f"{url}?{query}"
        prepared.url = requote_uri(url)
        merged = CaseInsensitiveDict(session.headers)
        merged.update(headers)
        prepared.headers = CaseInsensitiveDict(
            {name: str(value) for name, value in merged.items() if value is not None}
        )
        body: bytes | str | None = data if data else None
        if body is None and json_body is not None:
            body = json.dumps(json_body, allow_nan=False).encode("utf-8")
            prepared.headers.setdefault("Content-Type", "application/json")
        prepared.body = body
        if body is not None and len(body):
            prepared.headers["Content-Length"] = str(len(body.encode("utf-8") if isinstance(body, str) else body))
        elif method not in BODYLESS_METHODS and "Content-Length" not in prepared.headers:
            prepared.headers["Content-Length"] = "0"
        prepared._cookies = session.cookies  # type: ignore[attr-defined]
        if len(session.cookies):
            cookie = get_cookie_header(session.cookies, prepared)  # type: ignore[no-untyped-call]
            if cookie:
                prepared.headers["Cookie"] = cookie
        prepared.hooks = {"response": []}
        if auth is not None:
            prepared = auth(prepared)
        return prepared

    def send(
        self, prepared: requests.PreparedRequest, *, timeout: float, cookies: RequestsCookieJar
    ) -> requests.Response:
        """Send on an idle connection (a fresh one if the server closed it) and read the whole answer; like
        requests, a request is never sent twice."""
        started = time.perf_counter()
        connection = self._take(timeout)
        try:
            answer, content = self._exchange(connection, prepared)
        except CONNECTION_ERRORS as error:
            connection.close()
            raise _requests_error(error, prepared) from error
        if answer.will_close:
            connection.close()
        else:
            with self._lock:
                self._idle.append(connection)
        return _response(prepared, answer, content, time.perf_counter() - started, cookies)

    def close(self) -> None:
        """Close the idle connections."""
        with self._lock:
            _close_all(self._idle)

    def _take(self, timeout: float) -> http.client.HTTPConnection:
        while True:
            with self._lock:
                connection = self._idle.pop() if self._idle else None
            if connection is None:
                return self._fresh(timeout)
            if connection.sock is not None and not _dropped(connection.sock):
                connection.sock.settimeout(timeout)
                return connection
            connection.close()

    def _fresh(self, timeout: float) -> http.client.HTTPConnection:
        connection = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        try:
            connection.connect()
        except OSError as error:
            connection.close()
            raise requests.ConnectionError(f"cannot connect to {self.origin}: {error}") from error
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection

    @staticmethod
    def _exchange(
        connection: http.client.HTTPConnection, prepared: requests.PreparedRequest
    ) -> tuple[http.client.HTTPResponse, bytes]:
        split = urlsplit(prepared.url or "")
        target = split.path or "/"
        if split.query:
            target += "?" + split.query
        connection.putrequest(prepared.method or "GET", target, skip_accept_encoding=True)
        for name, value in prepared.headers.items():
            connection.putheader(name, value)
        body = prepared.body
        connection.endheaders(body.encode("utf-8") if isinstance(body, str) else body)
        answer = connection.getresponse()
        return answer, answer.read()


def _close_all(connections: list[http.client.HTTPConnection]) -> None:
    while connections:
        connections.pop().close()


def _dropped(sock: socket.socket) -> bool:
    """An idle kept connection that has something to read was closed (or broken) by the server."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _decoded(content: bytes, encoding: str) -> bytes:
    """The body as requests gives it: a gzip or deflate coding undone."""
    coding = encoding.strip().lower()
    if coding == "gzip":
        return zlib.decompress(content, 16 + zlib.MAX_WBITS)
    if coding == "deflate":
        try:
            return zlib.decompress(content)
        except zlib.error:
            return zlib.decompress(content, -zlib.MAX_WBITS)
    return content


def _response(
    prepared: requests.PreparedRequest,
    answer: http.client.HTTPResponse,
    content: bytes,
    seconds: float,
    cookies: RequestsCookieJar,
) -> requests.Response:
    headers: CaseInsensitiveDict[str] = CaseInsensitiveDict()
    for name, value in answer.msg.items():
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    response = requests.Response()
    response.status_code = answer.status
    response.reason = answer.reason
    response.headers = headers
    coding = headers.get("Content-Encoding", "")
    try:
        response._content = _decoded(content, coding) if coding and content else content
    except zlib.error as error:
        raise requests.exceptions.ContentDecodingError(f"the {coding} body does not decode: {error}") from error
    response._content_consumed = True  # type: ignore[attr-defined]
    response.encoding = get_encoding_from_headers(headers)
    response.url = prepared.url or ""
    response.request = prepared
    response.elapsed = datetime.timedelta(seconds=seconds)
    if "Set-Cookie" in headers:
        cookies.extract_cookies(MockResponse(answer.msg), MockRequest(prepared))  # type: ignore[arg-type]
        response.cookies.extract_cookies(MockResponse(answer.msg), MockRequest(prepared))  # type: ignore[arg-type]
    return response


def _requests_error(error: BaseException, prepared: requests.PreparedRequest) -> requests.RequestException:
    """The exception requests raises for the same failure, so callers catch one family."""
    if isinstance(error, TimeoutError | socket.timeout):
        return requests.exceptions.ReadTimeout(f"{prepared.method} {prepared.url}: {error}", request=prepared)
    return requests.ConnectionError(f"{prepared.method} {prepared.url}: {error}", request=prepared)
