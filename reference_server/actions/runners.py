"""Registration tokens and runner identities: one active token per scope, runners registered with it.

A scope is ``(owner_id, repo_id)``: global ``(0, 0)``, a user or organization ``(owner, 0)``, a
repository ``(0, repo)``, as Gitea keys runners and tokens. Runner and task tokens are 20 random bytes
in hex; only their SHA-256 is stored (they are long random secrets, so a salt adds nothing).
Registration tokens are looked up by their SHA-256 too; the active one must be shown again until it
is replaced (Gitea reuses it), so a copy is kept sealed with the instance secret as action secrets are.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid as uuid_module
from collections.abc import Sequence

from ..context import forge, now_seconds
from ..errors import ApiError, ConnectError
from ..events import AccountDeletedEvent
from ..repos.models import get_repo_by_id
from ..users.models import get_user
from . import config_store, runner_store
from .models import Runner
from .secrets import seal, unseal

__all__ = [
    "DELETED_RUNNER_GRACE_SECONDS",
    "authenticate_runner",
    "declare_runner",
    "hash_token",
    "new_secret_token",
    "on_account_deleted",
    "register_runner",
    "registration_token",
    "replace_registration_token",
    "seal_stored_registration_tokens",
]

DELETED_RUNNER_GRACE_SECONDS = 10
"""A just-deleted (ephemeral) runner may still finish reporting its task for this long, as in Gitea."""
MAX_RUNNER_NAME = 255
MAX_LABELS = 64
MAX_LABEL_LENGTH = 255


def new_secret_token() -> str:
    """A runner or task token: 40 lowercase hex characters."""
    return secrets.token_hex(20)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def registration_token(owner_id: int, repo_id: int) -> str:
    """The scope's active registration token, created when there is none (Gitea reuses it until replaced)."""
    with forge().db.transaction():
        latest = runner_store.latest_registration_token(owner_id, repo_id)
        if latest is not None and latest["is_active"]:
            try:
                return unseal(str(latest["sealed_token"]))
            except ValueError:
                pass  # sealed under another instance secret: replace it below
        token = secrets.token_hex(20)
        now = now_seconds()
        runner_store.deactivate_registration_tokens(owner_id, repo_id, now)
        runner_store.insert_registration_token(hash_token(token), seal(token), owner_id, repo_id, now)
        return token


def seal_stored_registration_tokens() -> None:
    """Bring a database from before sealing up to date: the plaintext becomes its SHA-256 plus a sealed copy."""
    with forge().db.transaction():
        if "token" in runner_store.registration_token_columns():
            runner_store.rename_plaintext_token_column()
        for row in runner_store.unsealed_registration_tokens():
            plaintext = str(row["token_hash"])
            runner_store.seal_registration_token(int(row["id"]), hash_token(plaintext), seal(plaintext))


def replace_registration_token(owner_id: int, repo_id: int) -> None:
    """Invalidate the scope's active token: the next request creates a new one, Register refuses the old."""
    with forge().db.transaction():
        runner_store.deactivate_registration_tokens(owner_id, repo_id, now_seconds())


def _scope_exists(owner_id: int, repo_id: int) -> None:
    """The token's repository (or owner) must still exist; Register refuses a token of a deleted one, and
    one of a pseudo-user (a negative id: no runner may belong to the Actions or ghost user)."""
    if repo_id < 0 or owner_id < 0:
        raise ConnectError("not_found", "owner of the token not found")
    if repo_id > 0:
        try:
            get_repo_by_id(repo_id)
        except ApiError as exc:
            raise ConnectError("not_found", "repository of the token not found") from exc
    elif owner_id > 0:
        try:
            get_user(owner_id)
        except ApiError as exc:
            raise ConnectError("not_found", "owner of the token not found") from exc


def clean_labels(labels: Sequence[str]) -> list[str]:
    """Label names as the runner sends them, de-duplicated in order; invalid_argument when unusable."""
    cleaned: list[str] = []
    for label in labels:
        name = label.strip()
        if not name or len(name) > MAX_LABEL_LENGTH or any(ord(c) < 32 for c in name):
            raise ConnectError("invalid_argument", f"invalid runner label {label!r}")
        if name not in cleaned:
            cleaned.append(name)
    if len(cleaned) > MAX_LABELS:
        raise ConnectError("invalid_argument", f"too many runner labels (at most {MAX_LABELS})")
    return cleaned


def register_runner(token: str, name: str, version: str, labels: Sequence[str], ephemeral: bool) -> tuple[Runner, str]:
    """Create a runner in the token's scope; returns it with its plaintext token (shown only now and on Declare)."""
    if not token or not name:
        raise ConnectError("invalid_argument", "missing runner token, name")
    clean = clean_labels(labels)
    with forge().db.transaction():
        row = runner_store.registration_token_row(hash_token(token))
        if row is None:
            raise ConnectError("not_found", "runner registration token not found")
        if not row["is_active"]:
            raise ConnectError(
                "failed_precondition", "runner registration token has been invalidated, please use the latest one"
            )
        owner_id, repo_id = int(row["owner_id"]), int(row["repo_id"])
        _scope_exists(owner_id, repo_id)
        plaintext = new_secret_token()
        runner_id = runner_store.insert_runner(
            uuid=str(uuid_module.uuid4()),
            name=name[: MAX_RUNNER_NAME - 1] + "…" if len(name) > MAX_RUNNER_NAME else name,
            owner_id=owner_id,
            repo_id=repo_id,
            token_hash=hash_token(plaintext),
            version=version[:64],
            labels=clean,
            ephemeral=ephemeral,
            now=now_seconds(),
        )
    runner = runner_store.runner_by_id(runner_id)
    if runner is None:  # pragma: no cover - written just above
        raise ConnectError("internal", "the runner vanished right after it was registered")
    return Runner.from_row(runner), plaintext


def authenticate_runner(uuid: str, token: str, method: str) -> Runner:
    """The runner a call's ``x-runner-uuid``/``x-runner-token`` name; records that it was seen.

    ``unauthenticated`` for a missing, unknown or deleted runner or a wrong token, except that a
    deleted runner may still call UpdateTask/UpdateLog for a short grace period (to finish its report).
    """
    if not uuid or not token:
        raise ConnectError("unauthenticated", "missing x-runner-uuid or x-runner-token header")
    row = runner_store.runner_by_uuid(uuid)
    if row is None or not hmac.compare_digest(str(row["token_hash"]), hash_token(token)):
        raise ConnectError("unauthenticated", "unregistered runner")
    runner = Runner.from_row(row)
    now = now_seconds()
    reporting = method in ("UpdateTask", "UpdateLog")
    if runner.deleted and not (reporting and now - runner.deleted <= DELETED_RUNNER_GRACE_SECONDS):
        raise ConnectError("unauthenticated", "runner is deleted")
    if runner.last_online != now or (reporting and runner.last_active != now):  # else the row says so already
        with forge().db.transaction():  # (a write waits for SQLite's one writer: many runners polling queue on it)
            runner_store.touch_runner(runner.id, now, active=reporting)
    return runner


def declare_runner(runner: Runner, version: str, labels: Sequence[str]) -> Runner:
    """Replace the runner's labels and version (act_runner declares them at every daemon start)."""
    clean = clean_labels(labels)
    with forge().db.transaction():
        runner_store.declare_runner(runner.id, version[:64], clean, now_seconds())
    row = runner_store.runner_by_id(runner.id)
    if row is None:  # pragma: no cover - updated just above
        raise ConnectError("not_found", "runner not found")
    return Runner.from_row(row)


def on_account_deleted(event: AccountDeletedEvent) -> None:
    """A user or organization is going: its runners, registration tokens, secrets and variables go first.

    Runs inside the deleting transaction (not guarded), so a failure here keeps the account as it was.
    """
    with forge().db.transaction():
        runner_store.delete_runners_of_owner(event.account_id)
        config_store.delete_of_owner(event.account_id)
