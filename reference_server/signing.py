"""Signed URLs and runtime tokens, both keyed by the instance's secret (made once, kept in the data dir).

A signed URL carries ``expires`` (Unix seconds) and ``sig``: HMAC-SHA256 over the purpose and every
other query parameter, each length-prefixed so no two parameter sets share a payload, encoded as
unpadded base64url and compared in constant time. A signed URL is bound to all of its query: a
parameter that is repeated, or that is neither signed nor one the protocol adds to the URL it was given
(``comp``/``blockid`` of an Azure-style upload), makes the URL invalid (:func:`stray_parameter`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from collections.abc import Collection, Iterable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any

import jwt

__all__ = ["Signer", "UrlCheck", "load_or_create_secret", "stray_parameter"]


def load_or_create_secret(data_dir: Path) -> bytes:
    """The instance secret: 32 random bytes, created on first start and reused after."""
    path = data_dir / "signing.key"
    if path.exists():
        return path.read_bytes()
    secret = secrets.token_bytes(32)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(secret)
    tmp.chmod(0o600)
    tmp.replace(path)
    return secret


def stray_parameter(
    pairs: Iterable[tuple[str, str]], signed: Collection[str], added: Collection[str] = ()
) -> str | None:
    """The first query parameter that is repeated or neither ``signed`` nor ``added`` by the protocol, if any."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen or (key not in signed and key not in added):
            return key
        seen.add(key)
    return None


class UrlCheck(Enum):
    """Outcome of checking a signed URL's query."""

    OK = "ok"
    MALFORMED = "malformed"  # missing or undecodable sig/expires
    BAD_SIGNATURE = "bad_signature"
    EXPIRED = "expired"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _field(value: str) -> bytes:
    data = value.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


class Signer:
    """HMAC signatures for URLs and HS256 runtime tokens."""

    def __init__(self, secret: bytes) -> None:
        self._url_key = hmac.new(secret, b"signed-url", hashlib.sha256).digest()
        self._jwt_key = hmac.new(secret, b"runtime-token", hashlib.sha256).digest()

    def signature(self, purpose: str, params: Mapping[str, str]) -> str:
        """The signature of ``params`` (everything but ``sig``) for ``purpose``."""
        payload = _field(purpose)
        for key in sorted(params):
            if key != "sig":
                payload += _field(key) + _field(params[key])
        return _b64(hmac.new(self._url_key, payload, hashlib.sha256).digest())

    def sign(self, purpose: str, params: Mapping[str, str], *, now: float, lifetime: int) -> dict[str, str]:
        """``params`` plus ``expires`` and ``sig``, ready to put in a query string."""
        signed = dict(params)
        signed["expires"] = str(int(now) + lifetime)
        signed["sig"] = self.signature(purpose, signed)
        return signed

    def check(self, purpose: str, query: Mapping[str, str], *, now: float) -> UrlCheck:
        """Verify a signed query: the MAC first (constant time), then the expiry."""
        sig = query.get("sig", "")
        expires = query.get("expires", "")
        if not sig or not expires.isdigit() or "=" in sig:
            return UrlCheck.MALFORMED
        try:
            base64.urlsafe_b64decode(sig + "=" * (-len(sig) % 4))
        except (binascii.Error, ValueError):
            return UrlCheck.MALFORMED
        if not hmac.compare_digest(sig, self.signature(purpose, query)):
            return UrlCheck.BAD_SIGNATURE
        if int(expires) < now:
            return UrlCheck.EXPIRED
        return UrlCheck.OK

    def issue_runtime_token(self, *, task_id: int, run_id: int, job_id: int, now: float, lifetime: int) -> str:
        """The job's ``ACTIONS_RUNTIME_TOKEN``: claims as Gitea issues them (``scp``, ``TaskID``...)."""
        claims = {
            "scp": f"Actions.Results:{run_id}:{job_id}",
            "TaskID": task_id,
            "RunID": run_id,
            "JobID": job_id,
            "ac": '[{"Scope":"","Permission":2}]',
            "nbf": int(now) - 5,
            "iat": int(now),
            "exp": int(now) + lifetime,
        }
        return jwt.encode(claims, self._jwt_key, algorithm="HS256")

    def decode_runtime_token(self, token: str, *, now: float) -> dict[str, Any] | None:
        """The claims of a valid runtime token, or None when it is forged, expired or malformed."""
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                self._jwt_key,
                algorithms=["HS256"],
                options={
                    "verify_exp": False,
                    "verify_nbf": False,
                    "verify_iat": False,
                    "require": ["exp", "TaskID", "RunID", "JobID"],
                },
            )
        except jwt.PyJWTError:
            return None
        if not all(isinstance(claims.get(k), int) for k in ("TaskID", "RunID", "JobID", "exp")):
            return None
        if claims["exp"] < now or claims.get("nbf", 0) > now:
            return None
        return claims
