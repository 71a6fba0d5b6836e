"""The reference server's channel keeps a connection open after a 204 (waitress alone closes it)."""

from __future__ import annotations

import contextlib
import http.client
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import waitress.server

from reference_server import spool
from reference_server.keepalive import KeepAliveChannel


def app(environ: dict[str, str], start_response: object) -> Iterable[bytes]:
    status = "204 No Content" if environ["REQUEST_METHOD"] == "DELETE" else "200 OK"
    body = b"" if status.startswith("204") else b"hello"
    start_response(status, [("Content-Length", str(len(body)))] if body else [])  # type: ignore[operator]
    return [body]


@pytest.fixture(params=[True, False], ids=["keep-alive-channel", "waitress-channel"])
def server(request: pytest.FixtureRequest) -> Iterator[tuple[int, bool]]:
    created = waitress.server.create_server(app, host="127.0.0.1", port=0, threads=2)
    if request.param:
        created.channel_class = KeepAliveChannel
    thread = threading.Thread(target=serve, args=(created,), daemon=True)
    thread.start()
    yield created.effective_port, request.param
    created.close()


def serve(server: Any) -> None:
    """Run ``server`` until it is closed (closing it under select ends the loop with EBADF)."""
    with contextlib.suppress(OSError, ValueError):
        server.run()


def exchange(connection: http.client.HTTPConnection, method: str, headers: dict[str, str] | None = None) -> str:
    connection.request(method, "/", headers=headers or {})
    response = connection.getresponse()
    response.read()
    return response.getheader("Connection") or ""


def test_a_204_keeps_the_connection_only_with_the_keep_alive_channel(server: tuple[int, bool]) -> None:
    port, keeps = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.connect()
    first_socket = connection.sock

    assert exchange(connection, "DELETE") == ("" if keeps else "close")
    assert exchange(connection, "GET") == ""
    assert (connection.sock is first_socket) is keeps, "http.client reconnects after a close"


def test_a_client_asking_to_close_still_gets_a_close(server: tuple[int, bool]) -> None:
    port, _ = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    assert exchange(connection, "DELETE", {"Connection": "close"}) == "close"


def test_the_spooling_server_of_the_cli_keeps_alive_too(tmp_path: Path) -> None:
    created = spool.create_server(app, tmp_path / "spool", channel_class=KeepAliveChannel, host="127.0.0.1", port=0)
    threading.Thread(target=serve, args=(created,), daemon=True).start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", created.effective_port, timeout=10)
        connection.connect()
        first_socket = connection.sock
        assert exchange(connection, "DELETE") == ""
        assert exchange(connection, "GET") == ""
        assert connection.sock is first_socket
        assert issubclass(created.channel_class, KeepAliveChannel)
        assert created.channel_class.parser_class.__name__ == "SpoolingParser"
    finally:
        created.close()
