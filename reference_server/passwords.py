"""Password hashing (scrypt) and a short-lived cache of verified passwords.

Every stored hash carries its own cost (``scrypt$n$r$p$salt$hash``), so a server started with the
test-only ``fast`` cost still verifies hashes made with the standard one and the other way round.
The standard cost (n = 2^14, r = 8: about 50 ms and 16 MiB per hash) is the default and the only
one a production server uses; ``fast`` exists so that the embedded test server, which creates and
logs in hundreds of throw-away users, does not spend most of a suite run in scrypt.

Basic-auth clients send the password with every request; each would cost a full scrypt. A verified
(stored hash, password) pair is therefore remembered for a short time, keyed by an HMAC of both
under a per-process random key (the cache never holds a password or anything an attacker could test
offline against the stored hash). A password change changes the stored hash, so the old pair no
longer matches; only successful checks are cached, so a wrong password always costs a full scrypt.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "FAST_COST",
    "PASSWORD_COSTS",
    "STANDARD_COST",
    "ScryptCost",
    "VerifiedPasswordCache",
    "hash_password",
    "verify_password",
]


@dataclass(frozen=True)
class ScryptCost:
    """scrypt's work parameters."""

    n: int
    r: int
    p: int


STANDARD_COST = ScryptCost(n=2**14, r=8, p=1)
FAST_COST = ScryptCost(n=2**4, r=8, p=1)
"""For test servers only (``reference-server --password-cost fast``): microseconds instead of ~50 ms."""
PASSWORD_COSTS = {"standard": STANDARD_COST, "fast": FAST_COST}


def hash_password(password: str, cost: ScryptCost = STANDARD_COST) -> str:
    """``scrypt$n$r$p$salt$hash`` with a fresh random salt."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=cost.n, r=cost.r, p=cost.p, dklen=32)
    return f"scrypt${cost.n}${cost.r}${cost.p}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """Constant-time check of ``password`` against a stored hash, at the cost written in the hash."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return False
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt, expected = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
        digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=len(expected))
    except ValueError:
        return False
    return hmac.compare_digest(digest, expected)


class VerifiedPasswordCache:
    """Successful password checks remembered for ``ttl_seconds`` (at most ``size`` of them)."""

    def __init__(
        self, ttl_seconds: float = 60.0, size: int = 1024, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_seconds = ttl_seconds
        self.size = size
        self._clock = clock
        self._key = secrets.token_bytes(32)
        self._entries: OrderedDict[bytes, float] = OrderedDict()
        self._lock = threading.Lock()

    def _fingerprint(self, password: str, stored: str) -> bytes:
        message = stored.encode("utf-8") + b"\0" + password.encode("utf-8")
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def verify(self, password: str, stored: str) -> bool:
        """Like :func:`verify_password`, answering from the cache when this pair was verified lately."""
        fingerprint = self._fingerprint(password, stored)
        now = self._clock()
        with self._lock:
            expires = self._entries.get(fingerprint)
            if expires is not None and expires > now:
                self._entries.move_to_end(fingerprint)
                return True
            self._entries.pop(fingerprint, None)
        if not verify_password(password, stored):
            return False
        with self._lock:
            self._entries[fingerprint] = now + self.ttl_seconds
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return True
