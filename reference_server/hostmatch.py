"""Which hosts the server may contact (webhook deliveries, migrations, mirror syncs), in Gitea's vocabulary.

A list is comma-separated entries, as Gitea's ``[webhook] ALLOWED_HOST_LIST``:

- ``external``: global unicast addresses that are not private (Python's ``is_global``: no loopback,
  link-local, unspecified, multicast, documentation or shared ranges);
- ``private``: RFC 1918 (10/8, 172.16/12, 192.168/16), unique-local fc00::/7 and the reserved ranges
  Gitea adds to them (shared 100.64/10, documentation, benchmarking, 6to4, NAT64...);
- ``loopback``: 127/8 and ::1;
- ``*``: everything;
- a CIDR (``10.1.0.0/16``) or a single address;
- a host-name glob (``*.example.com``), matched against the name in the URL (case-insensitive).

An IPv4-mapped or -compatible IPv6 address counts as its IPv4 address, and the numeric forms the C
resolver accepts (``2130706433``, ``0x7f.1``, ``127.1``) as the address they spell. Before any DNS
lookup, names of the special-use domains count as what they name: ``localhost`` and ``*.localhost``
(RFC 6761) as loopback, ``*.internal``, ``*.local``, ``*.localdomain`` and ``*.home.arpa`` as private,
so ``metadata.google.internal`` is refused where only ``external`` is allowed. A URL is checked when it
is stored (:meth:`HostPolicy.refusal`) and every address is checked again when the server connects
(:meth:`HostPolicy.allows_address`), after DNS resolution, so a name that resolves to a refused address
is never contacted.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import socket
from dataclasses import dataclass

__all__ = ["HostPolicy", "IpAddress", "literal_address"]

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
BUILTINS = frozenset({"external", "private", "loopback", "*"})
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(net)
    for net in (
        *("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"),
        # Gitea's reserved ranges, which its ``private`` includes too (modules/hostmatcher)
        *("100.64.0.0/10", "168.63.129.16/32", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "198.18.0.0/15"),
        *("198.51.100.0/24", "203.0.113.0/24", "100::/64", "64:ff9b::/96", "64:ff9b:1::/48", "2001::/32"),
        *("2001:10::/28", "2001:20::/28", "2001:db8::/32", "2002::/16"),
    )
)
LOOPBACK_NAMES = ("localhost",)
PRIVATE_SUFFIXES = ("internal", "local", "localdomain", "home.arpa")


def _unmapped(address: IpAddress) -> IpAddress:
    """The IPv4 address an IPv4-mapped (``::ffff:a.b.c.d``) or -compatible (``::a.b.c.d``) one carries."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        packed = address.packed
        if packed[:12] == bytes(12) and int(address) > 1:
            return ipaddress.IPv4Address(packed[12:])
    return address


def literal_address(host: str) -> IpAddress | None:
    """The address ``host`` spells, in any form a resolver would take without DNS, or None for a name."""
    text = host.strip("[]")
    try:
        return _unmapped(ipaddress.ip_address(text.split("%", 1)[0]))
    except ValueError:
        pass
    if text and all(ch in "0123456789abcdefxABCDEFX." for ch in text) and text[0].isdigit():
        try:  # inet_aton's forms: 2130706433, 0x7f000001, 127.1, 0177.0.0.1
            return ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    return None


def _name_category(host: str) -> str | None:
    """``loopback`` or ``private`` for names of the special-use domains, else None."""
    name = host.rstrip(".").lower()
    if any(name == root or name.endswith("." + root) for root in LOOPBACK_NAMES):
        return "loopback"
    if any(name == root or name.endswith("." + root) for root in PRIVATE_SUFFIXES):
        return "private"
    return None


@dataclass(frozen=True)
class HostPolicy:
    """A parsed allow-list."""

    builtins: frozenset[str]
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
    globs: tuple[str, ...]
    setting: str
    """The option that holds the list, named in refusals so an operator knows what to change."""

    @classmethod
    def parse(cls, text: str, setting: str) -> HostPolicy:
        """A policy from ``external,10.0.0.0/8,*.example.com``; ValueError on an empty list."""
        builtins: set[str] = set()
        networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        globs: list[str] = []
        for raw in text.split(","):
            entry = raw.strip().lower()
            if not entry:
                continue
            if entry in BUILTINS:
                builtins.add(entry)
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                globs.append(entry)
        if not (builtins or networks or globs):
            raise ValueError(f"{setting} is empty: name at least one of external, private, loopback, *")
        return cls(frozenset(builtins), tuple(networks), tuple(globs), setting)

    @property
    def allows_everything(self) -> bool:
        return "*" in self.builtins

    def allows_address(self, address: IpAddress, host: str = "") -> bool:
        """Whether the server may connect to ``address`` (reached through the name ``host``)."""
        if self.allows_everything or (host and self._name_matches(host)):
            return True
        plain = _unmapped(address)
        if "loopback" in self.builtins and plain.is_loopback:
            return True
        private = any(plain in net for net in PRIVATE_NETWORKS if net.version == plain.version)
        if "private" in self.builtins and private:
            return True
        if "external" in self.builtins and plain.is_global and not plain.is_private and not private:
            return True
        return any(plain in net for net in self.networks if net.version == plain.version)

    def _name_matches(self, host: str) -> bool:
        name = host.rstrip(".").lower()
        return any(fnmatch.fnmatchcase(name, glob) for glob in self.globs)

    def refusal(self, host: str) -> str | None:
        """Why a URL naming ``host`` may not be stored, or None. Literal addresses and special-use names are
        judged now; other names when the server resolves them to connect."""
        if self.allows_everything or self._name_matches(host):
            return None
        address = literal_address(host)
        if address is not None:
            return None if self.allows_address(address) else self.denial(host, address)
        category = _name_category(host)
        if category is not None and category not in self.builtins:
            return self._deny(host, f"a {category} host name")
        return None

    def denial(self, host: str, address: IpAddress) -> str:
        """The refusal of a connection to ``address``, in Gitea's words."""
        return self._deny(host, str(address))

    def _deny(self, host: str, what: str) -> str:
        return f"can only call allowed HTTP servers (check your {self.setting} setting), deny '{host}({what})'"
