"""Actions secrets: Gitea's name rules, write-only values sealed at rest, and the map a job receives.

Values are sealed with a key derived from the instance secret (``signing.key`` in the data directory):
an HMAC-SHA256 keystream in counter mode with a random 16-byte nonce, then an HMAC-SHA256 tag over
nonce and ciphertext (encrypt-then-MAC). A copied database alone does not reveal them, and a value is
never put into a response, a log line or an error message.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..context import forge, now_seconds
from ..errors import BadRequest, NotFound, Unprocessable
from ..signing import load_or_create_secret
from ..timefmt import iso
from . import config_store

__all__ = [
    "SECRET_DATA_MAX_LENGTH",
    "SECRET_DESCRIPTION_MAX_LENGTH",
    "Secret",
    "delete_secret",
    "job_secrets",
    "list_secrets",
    "put_secret",
    "secret_to_api",
    "text_field",
    "validate_config_name",
]

SECRET_DATA_MAX_LENGTH = 65536
SECRET_DESCRIPTION_MAX_LENGTH = 4096
NAME_PATTERN = re.compile(r"[A-Z_][A-Z0-9_]*", re.IGNORECASE | re.ASCII)
RESERVED_PREFIXES = ("GITEA_", "GITHUB_")
INVALID_NAME = "invalid variable or secret name"
NONCE_BYTES = 16
TAG_BYTES = 32
TABLE: config_store.ConfigTable = "action_secret"


def validate_config_name(name: object) -> str:
    """Gitea's ``secrets.ValidateName`` (1.25 and later) for secret and variable names alike: the pattern, no
    ``GITEA_``/``GITHUB_`` prefix and not ``CI`` (which runners set themselves); the name upper-cased, or
    400 ``invalid variable or secret name``."""
    if (
        not isinstance(name, str)
        or not NAME_PATTERN.fullmatch(name)
        or name.upper().startswith(RESERVED_PREFIXES)
        or name.upper() == "CI"
    ):
        raise BadRequest(INVALID_NAME)
    return name.upper()


def text_field(body: Mapping[str, Any], key: str, limit: int, *, required: bool) -> str:
    """A string field of a request body: 422 when required and missing or not a string, 400 when too long."""
    value = body.get(key)
    label = f"[{key[:1].upper()}{key[1:]}]"
    if value is None or value == "":
        if required:
            raise Unprocessable(f"{label}: Required")
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"{label}: must be a string")
    if len(value.encode("utf-8")) > limit:
        raise BadRequest(f"{key} too long: at most {limit} bytes")
    return value


# --- sealing ----------------------------------------------------------------------------------------


def _keys() -> tuple[bytes, bytes]:
    """The encryption and authentication keys, derived from the instance secret."""
    master = load_or_create_secret(forge().config.data_dir)
    return (
        hmac.new(master, b"actions-secret-encrypt", hashlib.sha256).digest(),
        hmac.new(master, b"actions-secret-authenticate", hashlib.sha256).digest(),
    )


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = (length + 31) // 32
    return b"".join(hmac.new(key, nonce + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(blocks))[
        :length
    ]


def seal(value: str) -> str:
    """The value encrypted and authenticated, as base64 text for the database."""
    enc_key, mac_key = _keys()
    plain = value.encode("utf-8")
    nonce = os.urandom(NONCE_BYTES)
    cipher = bytes(a ^ b for a, b in zip(plain, _keystream(enc_key, nonce, len(plain)), strict=True))
    tag = hmac.new(mac_key, nonce + cipher, hashlib.sha256).digest()
    return base64.b64encode(nonce + cipher + tag).decode("ascii")


def unseal(sealed: str) -> str:
    """The clear value; ``ValueError`` when the stored text was altered or sealed under another key."""
    enc_key, mac_key = _keys()
    raw = base64.b64decode(sealed.encode("ascii"), validate=True)
    if len(raw) < NONCE_BYTES + TAG_BYTES:
        raise ValueError("sealed secret too short")
    nonce, cipher, tag = raw[:NONCE_BYTES], raw[NONCE_BYTES:-TAG_BYTES], raw[-TAG_BYTES:]
    if not hmac.compare_digest(tag, hmac.new(mac_key, nonce + cipher, hashlib.sha256).digest()):
        raise ValueError("sealed secret failed authentication")
    plain = bytes(a ^ b for a, b in zip(cipher, _keystream(enc_key, nonce, len(cipher)), strict=True))
    return plain.decode("utf-8")


# --- secrets ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """A secret as the API shows it: never its value."""

    name: str
    description: str
    created: int


def secret_to_api(secret: Secret) -> dict[str, Any]:
    """Gitea's ``Secret``: ``name``, ``description``, ``created_at``."""
    return {"name": secret.name, "description": secret.description, "created_at": iso(secret.created)}


def put_secret(owner_id: int, repo_id: int, raw_name: str, body: Mapping[str, Any]) -> bool:
    """Create or update a secret of a scope; True when it was created (201), False when updated (204)."""
    data = text_field(body, "data", SECRET_DATA_MAX_LENGTH, required=True)
    description = text_field(body, "description", SECRET_DESCRIPTION_MAX_LENGTH, required=False)
    name = validate_config_name(raw_name)
    now = now_seconds()
    with forge().db.transaction():
        existing = config_store.find(TABLE, owner_id, repo_id, name)
        if existing is None:
            config_store.insert(
                TABLE, owner_id=owner_id, repo_id=repo_id, name=name, data=seal(data), description=description, now=now
            )
            return True
        config_store.update(TABLE, existing["id"], name=name, data=seal(data), description=description, now=now)
        return False


def list_secrets(owner_id: int, repo_id: int, limit: int, offset: int) -> tuple[list[Secret], int]:
    rows, total = config_store.page(TABLE, owner_id, repo_id, limit, offset)
    return [Secret(row["name"], row["description"], row["created"]) for row in rows], total


def delete_secret(owner_id: int, repo_id: int, raw_name: str) -> None:
    """Delete a secret; 400 for a name no secret can have, 404 when the scope has none of that name."""
    name = validate_config_name(raw_name)
    with forge().db.transaction():
        existing = config_store.find(TABLE, owner_id, repo_id, name)
        if existing is None:
            raise NotFound("secret not found")
        config_store.delete(TABLE, existing["id"])


def job_secrets(owner_id: int, repo_id: int) -> dict[str, str]:
    """The secrets a job of the repository receives: the owner's, then the repository's (which win)."""
    found: dict[str, str] = {}
    for scope_owner, scope_repo in ((owner_id, 0), (0, repo_id)):
        for row in config_store.all_of(TABLE, scope_owner, scope_repo):
            found[row["name"]] = unseal(row["data"])
    return found
