"""The HTTP client: no implicit raise, every exchange recorded, credentials and signatures masked, bodies cut."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest
import requests
from flask import Flask, Response, jsonify, redirect, request
from requests.structures import CaseInsensitiveDict
from werkzeug.serving import BaseWSGIServer, make_server
from werkzeug.wrappers import Response as WerkzeugResponse

from conformance.client import (
    MASK,
    BasicAuth,
    HttpClient,
    QueryTokenAuth,
    Recorder,
    TokenAuth,
    is_loopback,
    json_of,
    mask_text,
    mask_url,
)

SECRET = "f" * 40


def _response(status: int, body: bytes, content_type: str = "application/json") -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = body
    response.headers = CaseInsensitiveDict({"Content-Type": content_type, "Set-Cookie": "session=abc"})
    return response


def test_mask_url_hides_credentials_and_signatures_only() -> None:
    url = mask_url("https://forge.test/zip/raw?artifact=7&expires=99&sig=AbC_d-9&token=t0k&access_token=x&page=2")
    assert "sig=***" in url and "token=***" in url and "access_token=***" in url
    assert "artifact=7" in url and "expires=99" in url and "page=2" in url
    assert "AbC_d-9" not in url and "t0k" not in url


def test_mask_text_hides_registered_secrets_and_signed_query_values() -> None:
    text = f'{{"signed_url": "http://h/x?sig=SIGNATURE&expires=1", "note": "token {SECRET} here"}}'
    masked = mask_text(text, [SECRET])
    assert SECRET not in masked and "SIGNATURE" not in masked
    assert "expires=1" in masked


def test_recorded_exchange_masks_headers_and_secret_fields() -> None:
    recorder = Recorder()
    recorder.add_secret(SECRET)
    prepared = requests.Request(
        "POST",
        "http://forge.test/api/v1/users/alice/tokens?token=" + SECRET,
        json={"name": "ci", "password": "hunter2-secret"},
        auth=BasicAuth("alice", "hunter2-secret"),
    ).prepare()
    exchange = recorder.record(prepared, _response(201, json.dumps({"sha1": SECRET, "id": 3}).encode()), 12.5)
    rendered = json.dumps(exchange.as_dict())
    assert SECRET not in rendered and "hunter2-secret" not in rendered
    assert exchange.request_headers["Authorization"] == f"Basic {MASK}"
    assert exchange.response_headers["Set-Cookie"] == MASK
    assert json.loads(exchange.request_body)["password"] == MASK
    assert json.loads(exchange.response_body) == {"sha1": MASK, "id": 3}
    assert exchange.status == 201 and exchange.method == "POST"
    assert recorder.page() == [exchange]


def test_long_bodies_are_cut_and_binary_bodies_summarised() -> None:
    recorder = Recorder(body_limit=100)
    prepared = requests.Request("PUT", "http://forge.test/blob", data=b"\x00\x01\x02" * 10).prepare()
    exchange = recorder.record(prepared, _response(200, b"x" * 1000, "text/plain"), 1.0)
    assert exchange.request_body == "<30 bytes of binary data>"
    assert exchange.response_body.startswith("x" * 100) and exchange.response_body.endswith("(900 more characters)")


def test_a_captured_exchange_is_masked_with_the_secrets_known_when_it_is_shown() -> None:
    """The answer that reveals a secret is captured before the secret is registered; the page still hides it."""
    recorder = Recorder()
    prepared = requests.Request("GET", "http://forge.test/api/v1/repos/a/b/contents/notes.txt").prepare()
    recorder.capture(prepared, _response(200, f"the value is {SECRET}".encode(), "text/plain"), 1.0)
    recorder.add_secret(SECRET)
    [shown] = recorder.page()
    assert SECRET not in json.dumps(shown.as_dict()) and shown.response_body == f"the value is {MASK}"


def test_a_new_page_forgets_the_previous_scenario() -> None:
    recorder = Recorder()
    prepared = requests.Request("GET", "http://forge.test/a").prepare()
    recorder.record(prepared, _response(200, b"{}"), 1.0)
    recorder.start_page()
    assert recorder.page() == []


def test_recorder_ignores_too_short_secrets() -> None:
    recorder = Recorder()
    recorder.add_secret("ab")
    assert recorder.secrets == set()


@pytest.fixture(scope="module")
def local_server() -> Iterator[str]:
    """A tiny real HTTP server: echoes credentials, fails on demand, redirects."""
    app = Flask("echo")

    @app.get("/api/v1/echo")
    def echo() -> Response:
        return jsonify(authorization=request.headers.get("Authorization"), token=request.args.get("token"))

    @app.get("/api/v1/boom")
    def boom() -> tuple[Response, int]:
        return jsonify(message="broken", url="x"), 500

    @app.get("/api/v1/cookie")
    def cookie() -> Response:
        answer = jsonify(seen=request.cookies.get("who"))
        answer.set_cookie("who", request.args.get("set", ""))
        return answer

    @app.get("/api/v1/moved")
    def moved() -> WerkzeugResponse:
        return redirect("/api/v1/echo", code=302)

    server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/api/v1"
    server.shutdown()


def test_client_never_raises_on_a_status_and_records_it(local_server: str) -> None:
    client = HttpClient(local_server, TokenAuth(SECRET))
    client.recorder.add_secret(SECRET)
    response = client.get("boom")
    assert response.status_code == 500
    assert json_of(response)["message"] == "broken"
    [exchange] = client.recorder.page()
    assert exchange.status == 500 and exchange.url.endswith("/api/v1/boom")
    assert exchange.request_headers["Authorization"] == f"token {MASK}"


def test_client_sends_each_kind_of_credential(local_server: str) -> None:
    client = HttpClient(local_server)
    assert json_of(client.with_auth(TokenAuth("abc", "Bearer")).get("echo"))["authorization"] == "Bearer abc"
    assert json_of(client.with_auth(QueryTokenAuth("qtok")).get("echo"))["token"] == "qtok"
    assert json_of(client.get("echo"))["authorization"] is None
    masked_urls = [exchange.url for exchange in client.recorder.page()]
    assert "token=***" in masked_urls[1] and "qtok" not in masked_urls[1]


def test_client_does_not_follow_redirects_unless_asked(local_server: str) -> None:
    client = HttpClient(local_server)
    assert client.get("moved").status_code == 302
    assert client.get("moved", allow_redirects=True).status_code == 200


def test_client_records_a_connection_failure_and_raises_it() -> None:
    client = HttpClient("http://127.0.0.1:9/api/v1", timeout=2)
    with pytest.raises(requests.ConnectionError):
        client.get("version")
    [exchange] = client.recorder.page()
    assert exchange.status is None and exchange.error


def test_json_of_explains_a_body_that_is_not_json(local_server: str) -> None:
    client = HttpClient(local_server)
    response = client.get("nowhere")
    with pytest.raises(AssertionError, match="not JSON"):
        json_of(response)


def test_a_streamed_response_is_recorded_without_reading_its_body(local_server: str) -> None:
    client = HttpClient(local_server)
    response = client.get("echo", stream=True)
    [exchange] = client.recorder.page()
    assert exchange.status == 200 and exchange.response_body == "<streamed body, not recorded>"
    assert json_of(response)["authorization"] is None, "the body is still there for the caller"


def test_a_scenario_secret_is_masked_until_the_next_page_and_a_run_wide_one_always() -> None:
    recorder = Recorder()
    recorder.add_secret("admin-token-value", run_wide=True)
    recorder.add_secret("a-longer-scenario-password")
    assert recorder.masked_values() == ("a-longer-scenario-password", "admin-token-value")
    recorder.start_page()
    assert recorder.masked_values() == ("admin-token-value",)


def test_loopback_names_this_machine_only() -> None:
    assert is_loopback("http://127.0.0.1:3000/api/v1/")
    assert is_loopback("http://localhost/forge/")
    assert is_loopback("http://[::1]:8080/")
    assert not is_loopback("https://forge.example/")
    assert not is_loopback("http://192.168.1.20/")


def test_a_loopback_target_is_reached_without_the_proxy_settings(
    local_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert HttpClient(local_server).get("echo").status_code == 200
    assert HttpClient("https://forge.example/api/v1").session.trust_env, "other targets keep the environment's proxy"


def test_clients_of_one_target_share_connections_but_not_cookies(local_server: str) -> None:
    alice = HttpClient(local_server)
    bob = alice.with_auth(TokenAuth("b"))
    assert bob.session.adapters is alice.session.adapters
    assert json_of(alice.get("cookie", params={"set": "alice"}))["seen"] is None
    assert json_of(bob.get("cookie", params={"set": "bob"}))["seen"] is None, "bob never got alice's cookie"
    assert json_of(alice.get("cookie"))["seen"] == "alice"


def test_the_requests_made_on_a_page_are_listed_masked_without_showing_the_page() -> None:
    recorder = Recorder()
    recorder.add_secret(SECRET)
    prepared = requests.Request("GET", f"http://forge.test/api/v1/hooks/{SECRET}?sig=abc&page=2").prepare()
    recorder.capture(prepared, _response(200, b"{}"), 1.0)
    [(method, url)] = recorder.requests_made()
    assert method == "GET" and SECRET not in url and "abc" not in url and "page=2" in url
    recorder.start_page()
    assert recorder.requests_made() == []
