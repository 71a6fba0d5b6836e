"""Users' SSH public keys (Gitea's ``AddPublicKey``): one fingerprint is one key on the whole forge, user
key or deploy key alike, and a title is unique among one account's keys. The reference serves no Git over
SSH: a key is a record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..context import forge, now_seconds
from ..db import Row
from ..deploy_tokens import store as deploy_store
from ..errors import Unprocessable
from ..rest import Page
from ..sshkeys import KeyRefusal, parse_public_key
from ..users.models import User
from . import store
from .errors import KeyAccessDenied, KeyContentUsed, KeyNotFound, KeyTitleUsed

__all__ = ["SshKey", "add_key", "delete_key", "get_key", "keys_of", "keys_with_fingerprint"]


@dataclass(frozen=True)
class SshKey:
    """A stored user key: ``content`` is ``<type> <base64>``."""

    id: int
    owner_id: int
    title: str
    fingerprint: str
    content: str
    created: int
    updated: int

    @classmethod
    def from_row(cls, row: Row) -> SshKey:
        return cls(
            row["id"], row["owner_id"], row["title"], row["fingerprint"], row["content"], row["created"], row["updated"]
        )


def _text(options: Mapping[str, Any], field: str, name: str) -> str:
    value = options.get(field)
    if not isinstance(value, str) or not value.strip():
        raise Unprocessable(f"[{name}]: Required")
    return value


def add_key(owner: User, options: Mapping[str, Any]) -> SshKey:
    """A new key of ``owner``; 422 for a malformed or refused key, a key already on the forge, or a title the
    owner already gave another key."""
    title = _text(options, "title", "Title")
    if len(title) > 50:
        raise Unprocessable("[Title]: MaxSize")
    text = _text(options, "key", "Key")
    try:
        parsed = parse_public_key(text)
    except KeyRefusal as refusal:
        raise Unprocessable(f"Invalid key content: {refusal}") from None
    with forge().db.transaction():
        if store.ssh_key_by_fingerprint(parsed.fingerprint) is not None or deploy_store.first_key_id(
            parsed.fingerprint
        ):
            raise KeyContentUsed()
        if store.ssh_title_taken(owner.id, title):
            raise KeyTitleUsed()
        key_id = store.insert_ssh_key(
            owner_id=owner.id, title=title, fingerprint=parsed.fingerprint, content=parsed.content, now=now_seconds()
        )
    return get_key(key_id)


def get_key(key_id: int) -> SshKey:
    """Any account's key by id (Gitea shows it to every signed-in caller); 404 when there is none."""
    row = store.ssh_key(key_id)
    if row is None:
        raise KeyNotFound()
    return SshKey.from_row(row)


def keys_of(owner: User, page: Page) -> tuple[list[SshKey], int]:
    rows, total = store.ssh_keys_of(owner.id, page.limit, page.offset)
    return [SshKey.from_row(row) for row in rows], total


def keys_with_fingerprint(fingerprint: str, owner: User | None) -> list[SshKey]:
    """The keys with this fingerprint: of ``owner``, or of every account when None (Gitea's ``/user/keys``)."""
    rows = store.ssh_keys_with_fingerprint(fingerprint, owner.id if owner is not None else None)
    return [SshKey.from_row(row) for row in rows]


def delete_key(doer: User, key_id: int) -> None:
    """Remove a key: 404 when there is none, 403 unless ``doer`` owns it or is a site administrator."""
    with forge().db.transaction():
        key = get_key(key_id)
        if key.owner_id != doer.id and not doer.is_admin:
            raise KeyAccessDenied()
        store.delete_ssh_key(key.id)
