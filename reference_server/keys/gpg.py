"""Users' GPG keys (Gitea's ``AddGPGKey`` and ``VerifyGPGKey``).

A key is kept with the user's activated addresses its user ids name; without a signature at least one must
match (404 otherwise), with a detached signature of the verification token the key is verified whatever its
addresses. The token is Gitea's: the SHA-256 of the minute it expires (RFC 1123 with numeric zone, UTC here),
the account's creation time, name, e-mail and id; the current and the previous token are both accepted.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..context import forge, now_seconds
from ..db import Row
from ..errors import Unprocessable
from ..openpgp import GpgKeyRefusal, ParsedGpgKey, parse_armored_key, signature_matches
from ..rest import Page
from ..users.emails import list_emails
from ..users.models import User
from . import store
from .errors import GpgInvalidSignature, GpgKeyIdUsed, GpgNoEmailFound, KeyAccessDenied, KeyNotFound

__all__ = [
    "GpgKey",
    "add_key",
    "delete_key",
    "get_own_key",
    "keys_of",
    "verification_token",
    "verify_key",
]

_RFC1123Z = "%a, %d %b %Y %H:%M:%S +0000"


@dataclass(frozen=True)
class GpgKey:
    """A stored key; ``subkeys`` are loaded for a primary key."""

    id: int
    key_id: str
    primary_key_id: str
    content: str
    emails: tuple[tuple[str, bool], ...]
    created: int
    expires: int | None
    verified: bool
    can_sign: bool
    can_encrypt: bool
    subkeys: tuple[GpgKey, ...] = ()

    @classmethod
    def from_row(cls, row: Row, subkeys: tuple[GpgKey, ...] = ()) -> GpgKey:
        emails = tuple((str(item["email"]), bool(item["verified"])) for item in json.loads(row["emails"]))
        return cls(
            row["id"],
            row["key_id"],
            row["primary_key_id"],
            row["content"],
            emails,
            row["created"],
            row["expires"],
            bool(row["verified"]),
            bool(row["can_sign"]),
            bool(row["can_encrypt"]),
            subkeys,
        )


def _with_subkeys(row: Row) -> GpgKey:
    subkeys = (
        tuple(GpgKey.from_row(sub) for sub in store.gpg_subkeys(row["key_id"])) if not row["primary_key_id"] else ()
    )
    return GpgKey.from_row(row, subkeys)


def verification_token(user: User, minutes: int) -> str:
    """Gitea's token to sign, valid until the end of the minute ``minutes`` from now."""
    moment = int(forge().now()) // 60 * 60 + minutes * 60
    text = ":".join(
        (
            time.strftime(_RFC1123Z, time.gmtime(moment)),
            time.strftime(_RFC1123Z, time.gmtime(user.created)),
            user.name,
            user.email,
            str(user.id),
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _signed_texts(user: User) -> tuple[str, ...]:
    """What a valid signature may sign: either token, bare or with a line ending (as Gitea tries)."""
    return tuple(
        token + ending
        for token in (verification_token(user, 1), verification_token(user, 0))
        for ending in ("", "\n", "\r\n", "\n\n")
    )


def _row(
    owner: User, key: ParsedGpgKey, *, primary: str, emails: list[dict[str, Any]], verified: bool, armored: str
) -> dict[str, Any]:
    return {
        "owner_id": owner.id,
        "key_id": key.key_id,
        "primary_key_id": primary,
        "content": key.content,
        "armored": armored,
        "emails": json.dumps(emails),
        "created": key.created,
        "expires": key.expires,
        "added": now_seconds(),
        "verified": int(verified),
        "can_sign": int(key.can_sign),
        "can_encrypt": int(key.can_encrypt),
    }


def add_key(owner: User, options: Mapping[str, Any]) -> GpgKey:
    """Import an armored public key for ``owner``: 422 when unreadable, already imported (by anyone) or
    signed wrongly; 404 when unsigned and none of its addresses is an activated address of ``owner``."""
    armored = options.get("armored_public_key")
    if not isinstance(armored, str) or not armored.strip():
        raise Unprocessable("[ArmoredKey]: Required")
    signature = options.get("armored_signature") or ""
    if not isinstance(signature, str):
        raise Unprocessable("[Signature]: must be a string")
    token = verification_token(owner, 1)
    try:
        parsed = parse_armored_key(armored)
    except GpgKeyRefusal as refusal:
        raise Unprocessable(str(refusal)) from None
    verified = False
    if signature:
        if signature_matches(armored, signature, _signed_texts(owner)) is None:
            raise GpgInvalidSignature(
                f"{GpgInvalidSignature.default_message}. Provide a valid signature for the token: {token}"
            )
        verified = True
    activated = {address.email.lower(): address for address in list_emails(owner) if address.verified}
    emails = [
        {"email": activated[email.lower()].email, "verified": True}
        for email in dict.fromkeys(parsed.emails)
        if email.lower() in activated
    ]
    if not verified and not emails:
        raise GpgNoEmailFound(
            f"{GpgNoEmailFound.default_message}."
            f" It may still be added if you provide a valid signature for the token: {token}"
        )
    with forge().db.transaction():
        if store.gpg_key_id_used(parsed.key_id):
            raise GpgKeyIdUsed()
        row_id = store.insert_gpg_key(
            _row(owner, parsed, primary="", emails=emails, verified=verified, armored=armored)
        )
        for sub in parsed.subkeys:
            store.insert_gpg_key(_row(owner, sub, primary=parsed.key_id, emails=[], verified=verified, armored=""))
    return get_own_key(owner, row_id)


def get_own_key(owner: User, row_id: int) -> GpgKey:
    """A key of ``owner`` by id; 404 for another's or none."""
    row = store.gpg_key(row_id)
    if row is None or row["owner_id"] != owner.id:
        raise KeyNotFound()
    return _with_subkeys(row)


def keys_of(owner: User, page: Page) -> tuple[list[GpgKey], int]:
    rows, total = store.gpg_keys_of(owner.id, page.limit, page.offset)
    return [_with_subkeys(row) for row in rows], total


def delete_key(doer: User, row_id: int) -> None:
    """Remove a key and its subkeys; none with that id is no error (Gitea's 204), another's a 403 unless
    ``doer`` is a site administrator."""
    with forge().db.transaction():
        row = store.gpg_key(row_id)
        if row is None:
            return
        if row["owner_id"] != doer.id and not doer.is_admin:
            raise KeyAccessDenied()
        store.delete_gpg_key(row["key_id"])


def verify_key(owner: User, options: Mapping[str, Any]) -> GpgKey:
    """Mark ``owner``'s key ``key_id`` verified by a detached signature of the token: 404 for an unknown key,
    422 when the signature is not the key's (or a subkey's) over the current or previous token."""
    raw = options.get("key_id")
    key_id = raw.strip().upper().lstrip("0") if isinstance(raw, str) else ""
    if not key_id:
        raise KeyNotFound()
    row = store.gpg_primary_of(owner.id, key_id.rjust(16, "0"))
    if row is None:
        raise KeyNotFound()
    signature = options.get("armored_signature")
    token = verification_token(owner, 1)
    message = f"{GpgInvalidSignature.default_message}. Provide a valid signature for the token: {token}"
    if not isinstance(signature, str) or not signature:
        raise GpgInvalidSignature(message)
    key = _with_subkeys(row)
    signer = signature_matches(row["armored"], signature, _signed_texts(owner))
    if signer is None or signer not in {key.key_id, *(sub.key_id for sub in key.subkeys)}:
        raise GpgInvalidSignature(message)
    with forge().db.transaction():
        store.mark_gpg_verified(row["id"])
    return get_own_key(owner, row["id"])
