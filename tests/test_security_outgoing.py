"""Outgoing requests honour the host allow-list after DNS resolution (``hostmatch`` and ``outgoing``).

A canary HTTP server on 127.0.0.1 stands for the machine's own services: a name that resolves to it is
never contacted under ``external``, whatever the name looks like, and a delivery to it is recorded as
failed with the refusal.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from reference_server.hostmatch import HostPolicy, literal_address
from reference_server.outgoing import Resolver, checked_session, curl_pin

EXTERNAL = HostPolicy.parse("external", "test ALLOWED_HOST_LIST")


class _Canary(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_POST(self) -> None:
        self.hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *_args: object) -> None:
        return


@pytest.fixture
def canary() -> Iterator[int]:
    _Canary.hits = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Canary)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()


@pytest.mark.parametrize(
    ("host", "refused"),
    [
        ("169.254.169.254", True),
        ("10.0.0.1", True),
        ("192.168.1.1", True),
        ("[fd00::1]", True),
        ("0.0.0.0", True),  # noqa: S104 - a hostile hook target, not a bind address
        ("2130706433", True),
        ("0x7f.1", True),
        ("[::ffff:127.0.0.1]", True),
        ("metadata.google.internal", True),
        ("localhost", True),
        ("printer.local", True),
        ("8.8.8.8", False),
        ("hooks.example.com", False),
    ],
)
def test_a_stored_url_is_judged_by_what_its_host_names(host: str, refused: bool) -> None:
    assert (EXTERNAL.refusal(host.strip("[]")) is not None) is refused


def test_gitea_vocabulary() -> None:
    policy = HostPolicy.parse("loopback, 10.1.0.0/16, *.corp.example", "s")
    assert policy.allows_address(ipaddress.ip_address("127.0.0.5"))
    assert policy.allows_address(ipaddress.ip_address("10.1.2.3"))
    assert not policy.allows_address(ipaddress.ip_address("10.2.0.1"))
    assert policy.refusal("git.corp.example") is None
    assert HostPolicy.parse("*", "s").refusal("localhost") is None
    assert literal_address("127.1") == ipaddress.ip_address("127.0.0.1")
    with pytest.raises(ValueError, match="empty"):
        HostPolicy.parse(" , ", "s")


def test_a_name_resolving_to_a_refused_address_is_never_contacted(canary: int) -> None:
    resolver = Resolver()
    resolver.set_static("innocent.example", ("127.0.0.1",))
    session = checked_session(EXTERNAL, resolver)
    with pytest.raises(requests.ConnectionError, match="allowed HTTP servers"):
        session.post(f"http://innocent.example:{canary}/steal", data=b"x", timeout=5)
    assert _Canary.hits == []
    allowing = checked_session(HostPolicy.parse("external,loopback", "s"), resolver)
    assert allowing.post(f"http://innocent.example:{canary}/ok", data=b"x", timeout=5).status_code == 204
    assert _Canary.hits == ["/ok"], "the same name is reached where the list allows its address"


def test_a_name_with_one_refused_address_among_several_is_refused() -> None:
    resolver = Resolver()
    resolver.set_static("mixed.example", ("8.8.8.8", "10.0.0.1"))
    with pytest.raises(PermissionError):
        curl_pin("http://mixed.example/x.git", EXTERNAL, resolver)
    resolver.set_static("public.example", ("8.8.8.8",))
    assert curl_pin("https://public.example/x.git", EXTERNAL, resolver) == "public.example:443:8.8.8.8"
