"""SSH public keys as Gitea's ``CheckPublicKeyString`` judges them: the authorized_keys line is parsed, its
type checked against the type inside the key blob, its size against Gitea's default minimums (RSA 3071 bits,
ECDSA and Ed25519 256; DSA not allowed), and its SHA256 fingerprint computed as ``ssh-keygen -l`` prints it."""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass

__all__ = ["KeyRefusal", "PublicKey", "parse_public_key"]

_MINIMUM_BITS = {"rsa": 3071, "ecdsa": 256, "ecdsa-sk": 256, "ed25519": 256, "ed25519-sk": 256}
"""Gitea's default ``[ssh.minimum_key_sizes]``; a key type absent here is not allowed."""
_FAMILIES = {
    "ssh-rsa": "rsa",
    "ssh-dss": "dsa",
    "ssh-ed25519": "ed25519",
    "sk-ssh-ed25519@openssh.com": "ed25519-sk",
    "ecdsa-sha2-nistp256": "ecdsa",
    "ecdsa-sha2-nistp384": "ecdsa",
    "ecdsa-sha2-nistp521": "ecdsa",
    "sk-ecdsa-sha2-nistp256@openssh.com": "ecdsa-sk",
}
_CURVE_BITS = {"nistp256": 256, "nistp384": 384, "nistp521": 521}


class KeyRefusal(ValueError):
    """Why a key is refused (the text after Gitea's ``Invalid key content: ``)."""


@dataclass(frozen=True)
class PublicKey:
    """A parsed key: ``content`` is ``<type> <base64>`` without the comment, as Gitea stores it."""

    type: str
    content: str
    fingerprint: str


def _strings(blob: bytes) -> list[bytes]:
    """The length-prefixed strings of an SSH wire-format key blob."""
    fields, position = [], 0
    while position < len(blob):
        if position + 4 > len(blob):
            raise KeyRefusal("ssh: short read")
        (length,) = struct.unpack(">I", blob[position : position + 4])
        position += 4
        if position + length > len(blob):
            raise KeyRefusal("ssh: short read")
        fields.append(blob[position : position + length])
        position += length
    return fields


def _bits(family: str, fields: list[bytes]) -> int:
    if family == "rsa":
        if len(fields) < 3:
            raise KeyRefusal("ssh: short read")
        return int.from_bytes(fields[2], "big").bit_length()
    if family.startswith("ecdsa"):
        curve = fields[1].decode("ascii", "replace") if len(fields) > 1 else ""
        return _CURVE_BITS.get(curve, 0)
    if family.startswith("ed25519"):
        return len(fields[1]) * 8 if len(fields) > 1 else 0
    return 0


def parse_public_key(text: str) -> PublicKey:
    """The key of an authorized_keys line (options and comment ignored); :class:`KeyRefusal` otherwise."""
    line = text.strip()
    if "PRIVATE KEY" in line:
        raise KeyRefusal("private keys are not accepted")
    words = line.split()
    start = next((index for index, word in enumerate(words) if word in _FAMILIES), None)
    if start is None or start + 1 >= len(words):
        raise KeyRefusal("ssh: no key found")
    key_type, encoded = words[start], words[start + 1]
    try:
        blob = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise KeyRefusal("ssh: no key found") from None
    fields = _strings(blob)
    if not fields or fields[0] != key_type.encode():
        raise KeyRefusal("ssh: no key found")
    family = _FAMILIES[key_type]
    minimum = _MINIMUM_BITS.get(family)
    if minimum is None:
        raise KeyRefusal(f"key type is not allowed: {family}")
    bits = _bits(family, fields)
    if bits < minimum:
        raise KeyRefusal(f"key length is not enough: got {bits}, needs {minimum}")
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
    return PublicKey(key_type, f"{key_type} {encoded}", f"SHA256:{digest}")
