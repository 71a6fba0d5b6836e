"""Deploy tokens as Gitea's development line shapes them: a ``gdt_`` secret bound to one repository, read-only
or read-write, used as the password of Git and LFS requests, kept only as its SHA-256, regenerated in place.

On Git paths (``/<owner>/<repo>.git/...``) a deploy token authenticates as the repository's owner (as Gitea's
deploy keys push as the owner) while the request's binding (:func:`..permissions.git_permission`) grants only
what the token allows, and only on its own repository.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..events import RepoDeletedEvent
from ..keys import store as keys_store
from ..permissions import RepoBinding, bind_request
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..rest import Page
from ..sshkeys import KeyRefusal, parse_public_key
from ..users import models as users
from ..users.tokens import principal_for_token, token_hash
from . import store
from .errors import (
    DeployKeyAlreadyAdded,
    DeployKeyNotFound,
    DeployKeyTitleTaken,
    InvalidDeployTokenOption,
    InvalidKeyContent,
    KeyUsedByAccount,
)

__all__ = [
    "TOKEN_LENGTH",
    "TOKEN_PREFIX",
    "DeployToken",
    "NewDeployToken",
    "create_key",
    "create_token",
    "delete_token",
    "deploy_principal",
    "get_token",
    "git_principal_for_token",
    "list_tokens",
    "on_repo_deleted",
    "prepare_table",
    "regenerate_token",
    "token_by_id",
    "verify_token",
]

TOKEN_PREFIX = "gdt_"  # noqa: S105 - a public prefix, not a secret
"""Lets secret scanners recognise a leaked deploy token (Gitea's prefix)."""
TOKEN_LENGTH = 43
"""Random characters after the prefix: 43 of 62 alphanumerics is about 256 bits."""
MAX_TITLE = 50
_ALPHABET = string.ascii_letters + string.digits


@dataclass(frozen=True)
class DeployToken:
    """A stored deploy token (the plaintext is never stored)."""

    id: int
    repo_id: int
    title: str
    read_only: bool
    last_eight: str
    created: int
    updated: int
    key_content: str = ""
    """An SSH deploy key's ``<type> <base64>``; empty for a deploy token."""
    fingerprint: str = ""
    key_id: int = 0

    @property
    def is_key(self) -> bool:
        """Whether the row is an SSH deploy key rather than a deploy token."""
        return bool(self.key_content)

    @classmethod
    def from_row(cls, row: Row) -> DeployToken:
        return cls(
            id=row["id"],
            repo_id=row["repo_id"],
            title=row["title"],
            read_only=bool(row["read_only"]),
            last_eight=row["token_last_eight"],
            created=row["created"],
            updated=row["updated"],
            key_content=row["key_content"],
            fingerprint=row["fingerprint"],
            key_id=row["key_id"],
        )


@dataclass(frozen=True)
class NewDeployToken:
    """A token just created or regenerated: the only moment its plaintext is known."""

    token: DeployToken
    plaintext: str


def _new_secret() -> str:
    return TOKEN_PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(TOKEN_LENGTH))


def _title(options: Mapping[str, Any]) -> str:
    title = options.get("title")
    if title is None or title == "":
        raise InvalidDeployTokenOption("[Title]: Required")
    if not isinstance(title, str):
        raise InvalidDeployTokenOption("[Title]: must be a string")
    if not title.strip():
        raise InvalidDeployTokenOption("[Title]: Required")
    if len(title) > MAX_TITLE:
        raise InvalidDeployTokenOption("[Title]: MaxSize")
    return title


def _read_only(options: Mapping[str, Any]) -> bool:
    value = options.get("read_only", False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InvalidDeployTokenOption("[ReadOnly]: must be a boolean")
    return value


def create_token(repo: repos.Repo, options: Mapping[str, Any]) -> NewDeployToken:
    """A new token of ``repo``; 422 on a missing, too long or already used title (unique per repository)."""
    title = _title(options)
    read_only = _read_only(options)
    plaintext = _new_secret()
    now = now_seconds()
    with forge().db.transaction():
        if store.title_taken(repo.id, title):
            raise DeployKeyTitleTaken()
        token_id = store.insert_token(
            repo_id=repo.id,
            title=title,
            token_hash=token_hash(plaintext),
            last_eight=plaintext[-8:],
            read_only=read_only,
            now=now,
        )
    return NewDeployToken(get_token(repo, token_id), plaintext)


def prepare_table() -> None:
    """Give an existing table the SSH deploy key columns (at start, before any request)."""
    store.upgrade(forge().db)


def create_key(repo: repos.Repo, options: Mapping[str, Any]) -> DeployToken:
    """A new SSH deploy key of ``repo`` (Gitea's ``AddDeployKey``): 422 for a malformed or refused key
    (``Invalid key content: ...``), a key already added to this repository, or a title already used in it."""
    title = _title(options)
    read_only = _read_only(options)
    text = options.get("key")
    if not isinstance(text, str) or not text.strip():
        raise InvalidDeployTokenOption("[Key]: Required")
    try:
        parsed = parse_public_key(text)
    except KeyRefusal as refusal:
        raise InvalidKeyContent(f"Invalid key content: {refusal}") from None
    with forge().db.transaction():
        if store.key_in_repo(repo.id, parsed.fingerprint):
            raise DeployKeyAlreadyAdded()
        if keys_store.ssh_key_by_fingerprint(parsed.fingerprint) is not None:
            raise KeyUsedByAccount()
        if store.title_taken(repo.id, title):
            raise DeployKeyTitleTaken()
        key_id = store.insert_key(
            repo_id=repo.id,
            title=title,
            content=parsed.content,
            fingerprint=parsed.fingerprint,
            read_only=read_only,
            now=now_seconds(),
        )
    return get_token(repo, key_id)


def get_token(repo: repos.Repo, token_id: int) -> DeployToken:
    """The token ``token_id`` of ``repo``; 404 when missing or another repository's."""
    row = store.token_by_id(repo.id, token_id)
    if row is None:
        raise DeployKeyNotFound()
    return DeployToken.from_row(row)


def list_tokens(repo: repos.Repo, page: Page, token_id: int | None = None) -> tuple[list[DeployToken], int]:
    """One page of the repository's tokens (oldest first), optionally only ``token_id``, and the total."""
    rows = store.tokens_of_repo(repo.id, page.limit, page.offset, token_id)
    return [DeployToken.from_row(row) for row in rows], store.count_tokens_of_repo(repo.id, token_id)


def delete_token(repo: repos.Repo, token_id: int) -> None:
    """Remove a token: every request made with it fails from now on."""
    with forge().db.transaction():
        get_token(repo, token_id)
        store.delete_token(token_id)


def regenerate_token(repo: repos.Repo, token_id: int) -> NewDeployToken:
    """Give the token a new secret in place (same id, title and access); the old secret stops working at once."""
    plaintext = _new_secret()
    with forge().db.transaction():
        get_token(repo, token_id)
        store.replace_hash(token_id, token_hash(plaintext), plaintext[-8:], now_seconds())
    return NewDeployToken(get_token(repo, token_id), plaintext)


def verify_token(plaintext: str) -> DeployToken | None:
    """The token a secret stands for, or None (the prefix check spares a lookup for ordinary passwords)."""
    if not plaintext.startswith(TOKEN_PREFIX) or len(plaintext) > 128:
        return None
    row = store.token_by_hash(token_hash(plaintext))
    found = DeployToken.from_row(row) if row is not None else None
    return found if found is not None and not found.is_key else None


# -- Git and LFS requests ------------------------------------------------------------------------


def deploy_principal(token: DeployToken) -> Principal | None:
    """The caller a deploy token stands for: its repository's owner (as Gitea's deploy keys push), with the
    repository scope only; :func:`..permissions.git_permission` then grants what the token allows on its
    repository alone."""
    try:
        repo = repos.get_repo_by_id(token.repo_id)
    except RepoNotFound:
        return None
    owner = users.get_user(repo.owner_id)
    return Principal(owner.id, owner.name, False, frozenset({"write:repository"}))


def git_principal_for_token(token: str) -> Principal | None:
    """Credentials of a Git request: an access token, else a deploy token (bound to its repository for this
    request). An LFS transfer token is not one of them: Gitea accepts it on LFS routes only."""
    principal = principal_for_token(token)
    if principal is not None:
        return principal
    found = verify_token(token)
    if found is not None:
        principal = deploy_principal(found)
        if principal is not None:
            bind_request(RepoBinding(found.repo_id, not found.read_only, found))
        return principal
    return None


def token_by_id(token_id: int) -> DeployToken | None:
    """A token by id whatever its repository (an LFS transfer token names the deploy token it came from)."""
    row = store.token_by_any_id(token_id)
    return DeployToken.from_row(row) if row is not None else None


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository takes its deploy tokens with it."""
    with forge().db.transaction():
        store.delete_tokens_of_repo(event.repo_id)
