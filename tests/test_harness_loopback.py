"""The loopback transport: what it sends and answers is what requests would send and answer."""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import waitress
from flask import Flask, Response, jsonify, request

from conformance.client import BasicAuth, HttpClient, QueryTokenAuth, TokenAuth, json_of
from conformance.loopback import LoopbackTransport

IGNORED_HEADERS = {"host", "remote-port"}


@pytest.fixture(scope="module")
def echo_server() -> Iterator[str]:
    """Echoes what arrived; compresses or stalls on demand. Served by waitress, which keeps connections alive
    (werkzeug's development server closes each one) and here closes one idle for a second."""
    app = Flask("echo")

    @app.route("/api/v1/echo/<path:rest>", methods=["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"])
    def echo(rest: str) -> Response:
        return jsonify(
            method=request.method,
            target=request.full_path if request.query_string else request.path,
            headers={name.lower(): value for name, value in request.headers.items()},
            body=request.get_data().decode("latin-1"),
            port=request.environ.get("REMOTE_PORT"),
        )

    @app.get("/api/v1/compressed")
    def compressed() -> Response:
        return Response(
            gzip.compress(b'{"packed": true}'), headers={"Content-Encoding": "gzip"}, mimetype="application/json"
        )

    @app.get("/api/v1/slow")
    def slow() -> Response:
        time.sleep(1.0)
        return jsonify(late=True)

    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=4, channel_timeout=1, cleanup_interval=1)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}/api/v1"
    server.task_dispatcher.shutdown()
    server.close()


def _by_requests(base: str, method: str, path: str, **options: Any) -> dict[str, Any]:
    """What requests itself sends for the same call (HttpClient's session settings, requests' path)."""
    session = requests.Session()
    session.trust_env = False
    session.headers["User-Agent"] = "forge-conformance-kit"
    answer = session.request(method, f"{base}/{path}", allow_redirects=False, **options)
    return dict(answer.json())


def _seen(body: dict[str, Any]) -> tuple[str, str, dict[str, str], str]:
    headers = {name: value for name, value in body["headers"].items() if name not in IGNORED_HEADERS}
    return body["method"], body["target"], headers, body["body"]


CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "echo/plain", {}),
    ("GET", "echo/query?kept=1", {"params": {"page": 2, "state": "all", "dropped": None}}),
    ("GET", "echo/list", {"params": {"labels": ["a b", "c/d"]}}),
    ("GET", "echo/ünïcode name.txt", {}),
    ("POST", "echo/json", {"json": {"name": "x", "list": [1, 2], "nested": {"ok": True}}}),
    ("POST", "echo/empty", {}),
    ("PUT", "echo/bytes", {"data": b"\x00\x01raw", "headers": {"Content-Type": "application/octet-stream"}}),
    ("PATCH", "echo/text", {"data": "é text", "headers": {"Content-Type": "text/plain"}}),
    ("DELETE", "echo/thing", {"params": {"purge": "true"}}),
    ("POST", "echo/both", {"json": {"ignored": True}, "data": b"data wins"}),
    ("GET", "echo/accept", {"headers": {"Accept": "application/vnd.git-lfs+json", "X-Custom": "1"}}),
    ("GET", "echo/basic", {"auth": BasicAuth("alice", "pa:ss wörd")}),
    ("GET", "echo/token", {"auth": TokenAuth("abc", "Bearer")}),
    ("GET", "echo/query-token", {"auth": QueryTokenAuth("qtok"), "params": {"a": "1"}}),
]


@pytest.mark.parametrize(("method", "path", "options"), CALLS, ids=[f"{call[0]} {call[1]}" for call in CALLS])
def test_a_request_arrives_exactly_as_requests_would_send_it(
    echo_server: str, method: str, path: str, options: dict[str, Any]
) -> None:
    client = HttpClient(echo_server)
    assert client.transport is not None, "a plain http loopback target goes through the transport"
    answer = client.request(method, path, **options)
    assert answer.status_code == 200
    assert _seen(json_of(answer)) == _seen(_by_requests(echo_server, method, path, **options))


def test_the_answer_is_a_complete_requests_response(echo_server: str) -> None:
    client = HttpClient(echo_server, TokenAuth("secret-token"))
    answer = client.post("echo/made", json={"a": 1})
    assert isinstance(answer, requests.Response) and answer.ok and answer.reason == "OK"
    assert answer.headers["content-type"] == "application/json" and answer.encoding == "utf-8"
    assert answer.url == f"{echo_server}/echo/made" and answer.request.method == "POST"
    assert answer.request.headers["Authorization"] == "token secret-token"
    assert json.loads(answer.request.body or b"") == {"a": 1}
    assert answer.elapsed.total_seconds() > 0 and answer.text.startswith("{")
    [exchange] = client.recorder.page()
    assert exchange.status == 200 and exchange.request_headers["Authorization"] == "token ***"


def test_connections_are_kept_and_a_closed_one_is_replaced(echo_server: str) -> None:
    client = HttpClient(echo_server)
    first = json_of(client.get("echo/a"))["port"]
    assert json_of(client.get("echo/b"))["port"] == first, "the connection was kept alive"
    assert json_of(client.with_auth(TokenAuth("t")).get("echo/c"))["port"] == first, "identities share connections"
    assert json_of(client.get("echo/d", headers={"Connection": "close"}))["port"] == first
    second = json_of(client.get("echo/e"))["port"]
    assert second != first, "a connection the answer closed is not used again"
    time.sleep(2.5)  # the server closes the idle connection
    third = json_of(client.get("echo/f"))["port"]
    assert third != second, "a connection the server closed while idle is replaced before sending"


def test_a_compressed_answer_is_inflated_as_requests_does(echo_server: str) -> None:
    answer = HttpClient(echo_server).get("compressed")
    assert answer.json() == {"packed": True}


def test_failures_are_requests_exceptions(echo_server: str) -> None:
    with pytest.raises(requests.Timeout):
        HttpClient(echo_server, timeout=0.2).get("slow")
    with pytest.raises(requests.ConnectionError):
        HttpClient("http://127.0.0.1:9/api/v1", timeout=2).get("anything")


def test_what_the_transport_cannot_serve_the_same_way_goes_through_requests(echo_server: str) -> None:
    transport = LoopbackTransport(echo_server)
    url = f"{echo_server}/echo/x"
    assert transport.serves(url, data=None, stream=False, allow_redirects=False)
    assert not transport.serves(url, data=None, stream=True, allow_redirects=False)
    assert not transport.serves(url, data=None, stream=False, allow_redirects=True)
    assert not transport.serves(url, data=iter([b"x"]), stream=False, allow_redirects=False)
    assert not transport.serves("http://127.0.0.2:1/elsewhere", data=None, stream=False, allow_redirects=False)
    assert HttpClient("https://localhost:1/api/v1").transport is None
    assert HttpClient("http://forge.example/api/v1").transport is None
    assert json_of(HttpClient(echo_server).get("echo/streamed", stream=True))["method"] == "GET"
