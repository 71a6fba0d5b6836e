"""Gitea's ``PublicKey``, ``GPGKey`` and ``Email`` models; above the models, which never render."""

from __future__ import annotations

from typing import Any

from ..auth import Principal
from ..context import forge
from ..timefmt import iso, iso_or_zero
from ..users.models import get_user
from ..users.presenters import user_to_api
from .gpg import GpgKey
from .ssh import SshKey

__all__ = ["gpg_key_to_api", "public_key_to_api"]


def public_key_to_api(key: SshKey, viewer: Principal | None) -> dict[str, Any]:
    """Gitea's ``PublicKey``; its owner, ``key_type`` and ``read_only`` only for the owner or an administrator.
    The ``url`` is always under ``/user/keys/``, as in Gitea."""
    body: dict[str, Any] = {
        "id": key.id,
        "key": key.content,
        "url": forge().api_url(f"user/keys/{key.id}"),
        "title": key.title,
        "fingerprint": key.fingerprint,
        "created_at": iso(key.created),
        "last_used_at": iso(key.updated),
    }
    if viewer is not None and (viewer.is_admin or viewer.user_id == key.owner_id):
        owner = get_user(key.owner_id)
        body.update(key_type="user", read_only=False, user=user_to_api(owner, viewer))
    return body


def gpg_key_to_api(key: GpgKey) -> dict[str, Any]:
    """Gitea's ``GPGKey``: a subkey has no e-mail addresses nor subkeys (null), and ``can_certify`` repeats
    ``can_sign``."""
    body: dict[str, Any] = {
        "id": key.id,
        "primary_key_id": key.primary_key_id,
        "key_id": key.key_id,
        "public_key": key.content,
        "emails": [{"email": email, "verified": verified} for email, verified in key.emails],
        "subkeys": [gpg_key_to_api(sub) for sub in key.subkeys],
        "can_sign": key.can_sign,
        "can_encrypt_comms": key.can_encrypt,
        "can_encrypt_storage": key.can_encrypt,
        "can_certify": key.can_sign,
        "verified": key.verified,
        "created_at": iso(key.created),
        "expires_at": iso_or_zero(key.expires),  # Go's zero time for a key that never expires
    }
    if key.primary_key_id:
        body["emails"] = None
        body["subkeys"] = None
    return body
