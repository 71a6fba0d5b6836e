"""The bootstrap admin: the account and token an operator configures, made true on every start."""

from __future__ import annotations

import secrets

from ..config import Config
from ..context import forge, now_seconds
from . import store, tokens
from .models import account_values, hash_password

__all__ = ["BOOTSTRAP_TOKEN_PREFIX", "bootstrap"]

BOOTSTRAP_TOKEN_PREFIX = "bootstrap"  # noqa: S105 - a token name, not a secret
"""Tokens the server made for the admin are named ``bootstrap...``; tokens the admin made are left alone."""


def _ensure_admin(config: Config, now: int) -> int:
    """The admin account's id: created when missing; else made a site admin with the configured password."""
    row = store.account_by_name(config.admin_username)
    if row is None:
        values = account_values(
            config.admin_username,
            is_org=False,
            now=now,
            email=config.admin_email,
            login_name=config.admin_username,
            password_hash=hash_password(config.admin_password),
            is_admin=True,
        )
        return store.insert_account(values)
    if row["is_org"]:
        raise RuntimeError(f"the admin name {config.admin_username!r} belongs to an organization")
    store.make_site_admin(row["id"], hash_password(config.admin_password), now)
    return int(row["id"])


def _token_name(admin_id: int, token: str) -> str:
    name = f"{BOOTSTRAP_TOKEN_PREFIX}-{token[-8:]}"
    suffix = 1
    while store.token_name_exists(admin_id, name):
        suffix += 1
        name = f"{BOOTSTRAP_TOKEN_PREFIX}-{token[-8:]}-{suffix}"
    return name


def bootstrap() -> str | None:
    """Make the configured admin and token work; a changed ``admin_token`` revokes the previous bootstrap
    token (so rotating it in the configuration really rotates it). Returns a generated token to print
    when none was configured and the admin has no token at all."""
    config = forge().config
    now = now_seconds()
    with forge().db.transaction():
        admin_id = _ensure_admin(config, now)
        if config.admin_token:
            digest = tokens.token_hash(config.admin_token)
            existing = store.token_by_hash(digest)
            if existing is not None and existing["user_id"] != admin_id:
                raise RuntimeError("the configured admin token is already a token of another account")
            store.delete_tokens_named_like(admin_id, BOOTSTRAP_TOKEN_PREFIX, keep_hash=digest)
            if existing is None:
                tokens.insert_token(admin_id, _token_name(admin_id, config.admin_token), ("all",), config.admin_token)
            return None
        if store.count_tokens(admin_id):
            return None
        generated = secrets.token_hex(20)
        tokens.insert_token(admin_id, BOOTSTRAP_TOKEN_PREFIX, ("all",), generated)
        return generated
