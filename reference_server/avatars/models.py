"""Uploaded avatars: one PNG per account (users and organizations) or repository, and the URLs that serve them.

The JSON ``avatar_url`` of an account with an upload is ``<base>/avatars/<hash>`` and of a repository
``<base>/repo-avatars/<repo id>-<hash>`` (Gitea's paths); the hash is the SHA-256 of the owner and the
stored PNG, so a new picture gets a new URL. Without an upload an account keeps the default URL the
users family gives (``/avatars/<md5 of the e-mail>``, served as a drawn default picture) and a
repository has an empty ``avatar_url``. Deleting an avatar removes its row and its blob.
"""

from __future__ import annotations

import hashlib
import re

from ..context import forge, now_seconds
from ..events import AccountDeletedEvent, RepoDeletedEvent
from . import images, store

__all__ = [
    "ACCOUNT",
    "REPO",
    "account_avatar_png",
    "account_avatar_url",
    "delete_avatar",
    "on_account_deleted",
    "on_repo_deleted",
    "repo_avatar_png",
    "repo_avatar_url",
    "set_avatar",
]

ACCOUNT = "account"
REPO = "repo"
_UPLOADED_HASH = re.compile(r"^[0-9a-f]{64}$")
_DEFAULT_HASH = re.compile(r"^[0-9a-f]{32}$")
_REPO_AVATAR = re.compile(r"^(?P<repo_id>[0-9]{1,18})-(?P<digest>[0-9a-f]{64})$")


def _blob_key(kind: str, owner_id: int, digest: str) -> str:
    return f"avatars/{kind}/{owner_id}-{digest}.png"


def set_avatar(kind: str, owner_id: int, image_base64: str) -> None:
    """Decode, check and store a new avatar; the previous picture's blob is removed once the row points away.

    The blob is written first and the row switched in one statement, so a failure leaves the old avatar.
    """
    png = images.prepare_avatar(images.decode_base64(image_base64))
    digest = hashlib.sha256(f"{kind}:{owner_id}:".encode() + png).hexdigest()
    previous = store.avatar_of(kind, owner_id)
    key = _blob_key(kind, owner_id, digest)
    forge().blobs.write(key, [png])
    try:
        with forge().db.transaction():
            store.save_avatar(kind, owner_id, digest, now_seconds())
    except BaseException:
        if previous is None or previous["hash"] != digest:
            forge().blobs.delete(key)
        raise
    if previous is not None and previous["hash"] != digest:
        forge().blobs.delete(_blob_key(kind, owner_id, previous["hash"]))


def delete_avatar(kind: str, owner_id: int) -> None:
    """Back to the default avatar: the row and the blob go (nothing to do when there is no upload)."""
    previous = store.avatar_of(kind, owner_id)
    if previous is None:
        return
    with forge().db.transaction():
        store.delete_avatar(kind, owner_id)
    forge().blobs.delete(_blob_key(kind, owner_id, previous["hash"]))


def account_avatar_url(account_id: int) -> str | None:
    """The URL of a user's or organization's uploaded avatar, or None when it has none."""
    row = store.avatar_of(ACCOUNT, account_id)
    return forge().url(f"avatars/{row['hash']}") if row is not None else None


def repo_avatar_url(repo_id: int) -> str:
    """The URL of a repository's uploaded avatar, or ``""`` (Gitea's value when a repository has none)."""
    row = store.avatar_of(REPO, repo_id)
    return forge().url(f"repo-avatars/{repo_id}-{row['hash']}") if row is not None else ""


def _read(kind: str, owner_id: int, digest: str) -> bytes | None:
    path = forge().blobs.path(_blob_key(kind, owner_id, digest))
    return path.read_bytes() if path.is_file() else None


def account_avatar_png(digest: str) -> bytes | None:
    """The picture behind ``/avatars/<hash>``: an uploaded avatar, a drawn default for a default URL, else None."""
    if _UPLOADED_HASH.match(digest):
        row = store.avatar_by_hash(ACCOUNT, digest)
        return _read(ACCOUNT, row["owner_id"], digest) if row is not None else None
    if _DEFAULT_HASH.match(digest):
        return images.default_avatar(digest)
    return None


def repo_avatar_png(name: str) -> bytes | None:
    """The picture behind ``/repo-avatars/<repo id>-<hash>``, or None."""
    match = _REPO_AVATAR.match(name)
    if match is None:
        return None
    repo_id = int(match["repo_id"])
    row = store.avatar_of(REPO, repo_id)
    if row is None or row["hash"] != match["digest"]:
        return None
    return _read(REPO, repo_id, match["digest"])


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's avatar goes with it."""
    delete_avatar(REPO, event.repo_id)


def on_account_deleted(event: AccountDeletedEvent) -> None:
    """A deleted user's or organization's avatar goes with it."""
    delete_avatar(ACCOUNT, event.account_id)


def copy_repo_avatar(from_repo_id: int, to_repo_id: int) -> None:
    """Give a repository generated from a template the template's avatar, when it has one."""
    row = store.avatar_of("repo", from_repo_id)
    png = None if row is None else _read("repo", from_repo_id, row["hash"])
    if png is None:
        return
    digest = hashlib.sha256(f"repo:{to_repo_id}:".encode() + png).hexdigest()
    forge().blobs.write(_blob_key("repo", to_repo_id, digest), [png])
    with forge().db.transaction():
        store.save_avatar("repo", to_repo_id, digest, now_seconds())
