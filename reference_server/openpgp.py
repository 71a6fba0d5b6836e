"""OpenPGP public keys and detached signatures, read as Gitea's ``AddGPGKey`` reads them (with ``pgpy``).

A key's abilities follow its algorithm, not its key flags, as Gitea's ``CanSign``/``CanEncrypt`` of the packet
do; the key id is the last 16 hexadecimal digits of the fingerprint in capitals; the stored content is the
base64 of the public key packet alone. pgpy warns about checks it does not make (revocations, self-signature
parsing): those warnings are silenced here so that they never reach a log as noise.
"""

from __future__ import annotations

import base64
import warnings
from dataclasses import dataclass, replace
from datetime import datetime

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # pgpy imports the deprecated ``imghdr``
    import pgpy

__all__ = ["GpgKeyRefusal", "ParsedGpgKey", "parse_armored_key", "signature_matches"]

_SIGNING = {1, 3, 17, 19, 22, 27, 28}
"""RSA, RSA sign-only, DSA, ECDSA, EdDSA (legacy), Ed25519, Ed448: algorithms that can sign and certify."""
_ENCRYPTING = {1, 2, 16, 18, 25, 26}
"""RSA, RSA encrypt-only, ElGamal, ECDH, X25519, X448: algorithms that can encrypt."""


class GpgKeyRefusal(ValueError):
    """Why an armored key cannot be read (Gitea's ``failed to parse gpg key ...``)."""


@dataclass(frozen=True)
class ParsedGpgKey:
    """A primary key or a subkey as Gitea stores it."""

    key_id: str
    content: str
    created: int
    expires: int | None
    can_sign: bool
    can_encrypt: bool
    emails: tuple[str, ...] = ()
    """The e-mail addresses of the primary key's user ids (empty for a subkey)."""
    subkeys: tuple[ParsedGpgKey, ...] = ()


def _seconds(moment: datetime | None) -> int | None:
    return int(moment.timestamp()) if moment is not None else None


def _parsed(key: pgpy.PGPKey, expires: int | None, emails: tuple[str, ...] = ()) -> ParsedGpgKey:
    algorithm = int(key.key_algorithm.value)
    return ParsedGpgKey(
        key_id=str(key.fingerprint.keyid).upper(),
        content=base64.b64encode(bytes(key._key)).decode(),  # the public key packet, as Gitea stores it
        created=int(key.created.timestamp()),
        expires=expires,
        can_sign=algorithm in _SIGNING,
        can_encrypt=algorithm in _ENCRYPTING,
        emails=emails,
    )


def _load(text: str) -> pgpy.PGPKey:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            key, _others = pgpy.PGPKey.from_blob(text)
        except Exception as error:  # untrusted input: any failure of the parser is a refusal, never a 500
            raise GpgKeyRefusal(f"failed to parse gpg key openpgp: invalid argument: {error}") from None
    if not isinstance(key, pgpy.PGPKey) or not key.is_public or not key.is_primary:
        raise GpgKeyRefusal("failed to parse gpg key openpgp: invalid argument: no public key found")
    return key


def parse_armored_key(text: str) -> ParsedGpgKey:
    """The first public key of an ASCII-armored key block with its subkeys and user ids' e-mail addresses;
    :class:`GpgKeyRefusal` when it is not one. Subkeys take the primary key's expiry, as in Gitea."""
    key = _load(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expires = _seconds(key.expires_at)
        emails = tuple(uid.email.strip() for uid in key.userids if uid.email)
        subkeys = tuple(_parsed(sub, expires) for sub in key.subkeys.values())
    primary = _parsed(key, expires, emails)
    return replace(primary, subkeys=subkeys)


def signature_matches(armored_key: str, armored_signature: str, texts: tuple[str, ...]) -> str | None:
    """The id of the key (primary or subkey) whose detached signature ``armored_signature`` signs one of
    ``texts``, or None when the signature is unreadable or signs none of them."""
    try:
        key = _load(armored_key)
    except GpgKeyRefusal:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            signature = pgpy.PGPSignature.from_blob(armored_signature)
        except Exception:  # an unreadable signature matches nothing
            return None
        signer = str(signature.signer or "").upper()
        for text in texts:
            try:
                if key.verify(text, signature):
                    return signer
            except Exception:  # noqa: S112 - a signature pgpy cannot check matches nothing
                continue
    return None
