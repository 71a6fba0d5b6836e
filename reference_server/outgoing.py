"""Outgoing connections that honour a :class:`~.hostmatch.HostPolicy` after DNS resolution.

The check is made on the very addresses the socket connects to, so a name that resolves (or re-resolves,
between a check and the connection) to a refused address is never contacted; TLS still verifies the
certificate against the name in the URL. Proxies from the environment are ignored: a proxy would make
the peer address meaningless. :class:`Resolver` takes static entries (the reference's test hook), so
scenarios can make a name resolve where they need without touching the machine's DNS.
"""

from __future__ import annotations

import socket
import threading
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError
from urllib3.util.connection import create_connection

from .hostmatch import HostPolicy, IpAddress, literal_address

__all__ = ["HostRefusedError", "Resolver", "checked_session", "curl_pin", "resolve_allowed"]


class HostRefusedError(NewConnectionError):
    """The host resolved only to addresses the policy refuses."""


class Resolver:
    """``getaddrinfo`` with static entries that win over DNS (names are case-insensitive)."""

    def __init__(self) -> None:
        self._static: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def set_static(self, name: str, addresses: tuple[str, ...]) -> None:
        """Make ``name`` resolve to ``addresses`` (none: back to DNS)."""
        with self._lock:
            if addresses:
                self._static[name.rstrip(".").lower()] = addresses
            else:
                self._static.pop(name.rstrip(".").lower(), None)

    def static(self, name: str) -> tuple[str, ...]:
        with self._lock:
            return self._static.get(name.rstrip(".").lower(), ())

    def addresses(self, host: str, port: int) -> list[IpAddress]:
        """Every address ``host`` stands for: the literal it spells, its static entry, or DNS's answer."""
        literal = literal_address(host)
        if literal is not None:
            return [literal]
        static = self.static(host)
        texts = static or tuple(
            str(info[4][0])
            for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
        )
        found: list[IpAddress] = []
        for text in texts:
            address = literal_address(text)
            if address is not None and address not in found:
                found.append(address)
        return found


def resolve_allowed(host: str, port: int, policy: HostPolicy, resolver: Resolver) -> list[IpAddress]:
    """The addresses of ``host`` the policy allows; ``HostRefusedError``-style ``PermissionError`` when
    any address is refused (a name is trusted only when all of its addresses are), OSError when it does
    not resolve."""
    addresses = resolver.addresses(host, port)
    if not addresses:
        raise OSError(f"{host} does not resolve")
    for address in addresses:
        if not policy.allows_address(address, host):
            raise PermissionError(policy.denial(host, address))
    return addresses


def curl_pin(url: str, policy: HostPolicy, resolver: Resolver) -> str:
    """``host:port:address`` for curl's (and git's ``http.curloptResolve``) pinning of ``url``'s host to an
    address the policy allows, so the tool connects where the check looked. PermissionError when the host
    resolves to a refused address, OSError when it does not resolve."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = resolve_allowed(host, port, policy, resolver)[0]
    shown = f"[{address}]" if address.version == 6 else str(address)
    return f"{host}:{port}:{shown}"


def _connect(conn: HTTPConnection, policy: HostPolicy, resolver: Resolver) -> socket.socket:
    host = conn._dns_host  # urllib3: the host name this connection resolves
    try:
        addresses = resolve_allowed(host, conn.port or 80, policy, resolver)
    except PermissionError as refused:
        raise HostRefusedError(conn, str(refused)) from None
    except OSError as error:
        raise NewConnectionError(conn, f"Failed to resolve {host}: {error}") from error
    last: OSError | None = None
    for address in addresses:
        try:
            return create_connection(
                (str(address), conn.port),
                conn.timeout,
                source_address=conn.source_address,
                socket_options=conn.socket_options,
            )
        except OSError as error:
            last = error
    raise NewConnectionError(conn, f"Failed to establish a new connection: {last}")


def _adapter(policy: HostPolicy, resolver: Resolver) -> HTTPAdapter:
    class CheckedHTTPConnection(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, policy, resolver)

    class CheckedHTTPSConnection(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, policy, resolver)

    class CheckedHTTPPool(HTTPConnectionPool):
        ConnectionCls = CheckedHTTPConnection

    class CheckedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = CheckedHTTPSConnection

    class CheckedAdapter(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = {"http": CheckedHTTPPool, "https": CheckedHTTPSPool}

    return CheckedAdapter()


def checked_session(policy: HostPolicy, resolver: Resolver) -> requests.Session:
    """A session whose every connection goes only to addresses ``policy`` allows (no environment proxies)."""
    session = requests.Session()
    session.trust_env = False
    adapter = _adapter(policy, resolver)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
