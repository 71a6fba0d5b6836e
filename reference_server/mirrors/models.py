"""Push mirrors: a repository pushes every ref (``git push --force --mirror``) to a remote it was given.

The remote address must be http(s) on a host the migrations allow-list accepts (Gitea checks push
mirrors with IsMigrateURLAllowed): checked when the mirror is added and again, after DNS, before each
push, with git pinned to the checked address. The credentials (remote_username and remote_password, or
the URL's user info) are stored sealed, travel as an HTTP Authorization header through git's
environment, and never come back: the answered remote_address has no user info. ``interval`` is a Go
duration, 0 or at least 10 minutes (Gitea's ``Mirror.MinInterval``).
Sources: Gitea 1.27 routers/api/v1/repo/mirror.go, services/mirror/mirror_push.go.
"""

from __future__ import annotations

import base64
import secrets
import string
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..actions.secrets import seal, unseal
from ..context import forge, now_seconds
from ..db import Row
from ..errors import NotFound
from ..gitcli import GitError
from ..outgoing import curl_pin
from ..repos import models as repos
from ..repos.commit_gate import require_unarchived
from ..timefmt import parse_duration
from . import store
from .errors import MirrorAddressRefused, MirrorBadRequest, MirrorNotFound

__all__ = [
    "commit_synced_mirrors",
    "create_mirror",
    "delete_mirror",
    "get_mirror",
    "list_mirrors",
    "on_repo_deleted",
    "sync_due_mirrors",
    "sync_mirrors",
    "sync_one",
]

UPDATE_LIMIT = 50
"""Gitea's ``[cron.update_mirrors] PUSH_LIMIT``: mirrors synced by one run of the task."""
MIN_INTERVAL_NS = 10 * 60 * 10**9
"""Gitea's ``Mirror.MinInterval`` (10 minutes); 0 turns periodic syncs off."""
_ALPHABET = string.ascii_letters + string.digits


def _text(options: Mapping[str, Any], key: str) -> str:
    value = options.get(key)
    return value if isinstance(value, str) else ""


def _address(raw: str, username: str, password: str) -> tuple[str, str | None]:
    """The address without user info and the Authorization header for it (Gitea's ParseRemoteAddr and
    IsMigrateURLAllowed): 400 for what is not an http(s) URL, 401 for a local path or a disallowed host."""
    stripped = raw.strip()
    if stripped.lower().startswith("file:") or stripped.startswith(("/", ".", "~")):
        raise MirrorAddressRefused()
    parts = urlsplit(stripped)
    if "://" not in stripped or not parts.hostname:
        raise MirrorBadRequest("Invalid Url ")
    if parts.scheme.lower() not in ("http", "https"):
        raise MirrorBadRequest("Invalid mirror protocol")
    if forge().migration_hosts.refusal(parts.hostname) is not None:
        raise MirrorAddressRefused()
    pair = f"{username}:{password}" if username or password else None
    if pair is None and parts.username is not None:
        pair = f"{parts.username}:{parts.password or ''}"
    netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
    clean = urlunsplit((parts.scheme.lower(), netloc, parts.path, parts.query, ""))
    authorization = None if pair is None else "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")
    return clean, authorization


def create_mirror(repo: repos.Repo, options: Mapping[str, Any]) -> Row:
    """Add a push mirror (``CreatePushMirrorOption``) named ``remote_mirror_<10 random characters>``."""
    require_unarchived(repo)
    interval = parse_duration(_text(options, "interval"))
    if interval is None or (interval != 0 and interval < MIN_INTERVAL_NS):
        raise MirrorBadRequest(f"time: invalid duration {_text(options, 'interval')!r}")
    address, authorization = _address(
        _text(options, "remote_address"), _text(options, "remote_username"), _text(options, "remote_password")
    )
    name = "remote_mirror_" + "".join(secrets.choice(_ALPHABET) for _ in range(10))
    sealed = seal(authorization) if authorization else ""
    with forge().db.transaction():
        store.insert_mirror(
            repo.id,
            name=name,
            address=address,
            sealed=sealed,
            interval_ns=interval,
            sync_on_commit=options.get("sync_on_commit") is True,
            now=now_seconds(),
        )
    return get_mirror(repo, name)


def list_mirrors(repo: repos.Repo, limit: int, offset: int) -> tuple[list[Row], int]:
    return store.list_mirrors(repo.id, limit, offset)


def get_mirror(repo: repos.Repo, name: str) -> Row:
    row = store.mirror_by_name(repo.id, name)
    if row is None:
        raise MirrorNotFound()
    return row


def delete_mirror(repo: repos.Repo, name: str) -> None:
    require_unarchived(repo)
    row = get_mirror(repo, name)
    with forge().db.transaction():
        store.delete_mirror(int(row["id"]))


def _push(repo: repos.Repo, row: Row) -> str:
    """Push every ref to the mirror's remote; the error text ("" on success), never the credentials."""
    sealed = str(row["sealed_authorization"])
    authorization = unseal(sealed) if sealed else None
    address = str(row["remote_address"])
    try:
        pinned = curl_pin(address, forge().migration_hosts, forge().resolver)
    except PermissionError:
        return "the remote host is not allowed"
    except OSError:
        return f"{urlsplit(address).hostname} does not resolve"
    try:
        repo.git.push_mirror(address, authorization=authorization, pinned=pinned)
    except GitError as error:
        lines = [line for line in error.stderr.splitlines() if line.strip()]
        return lines[-1] if lines else f"git push exited with {error.returncode}"
    return ""


def sync_mirrors(repo: repos.Repo) -> None:
    """Push to every mirror now, recording each outcome; 400 naming the first mirror that failed."""
    require_unarchived(repo)
    rows, _ = store.list_mirrors(repo.id, 10**6, 0)
    failed: list[str] = []
    for row in rows:
        with repos.repo_lock(repo):
            error = _push(repo, row)
        with forge().db.transaction():
            store.record_sync(int(row["id"]), now_seconds(), error)
        if error:
            failed.append(str(row["remote_name"]))
    if failed:
        raise MirrorBadRequest(f"error occurred when syncing push mirror {failed[0]}")


def sync_one(repo_id: int, mirror_id: int) -> None:
    """Push to one mirror and record the outcome (a background sync: the repository or the mirror may be gone)."""
    try:
        repo = repos.get_repo_by_id(repo_id)
    except NotFound:
        return
    row = store.mirror_by_id(mirror_id)
    if row is None or repo.archived:
        return
    with repos.repo_lock(repo):
        error = _push(repo, row)
    with forge().db.transaction():
        store.record_sync(mirror_id, now_seconds(), error)


def sync_due_mirrors(limit: int = UPDATE_LIMIT) -> int:
    """The push half of Gitea's ``update_mirrors`` task: sync every mirror whose interval has passed since its
    last sync (oldest first, at most ``limit``); how many were synced."""
    due = store.due_mirrors(now_seconds(), limit)
    for row in due:
        sync_one(int(row["repo_id"]), int(row["id"]))
    return len(due)


def commit_synced_mirrors(repo_id: int) -> list[int]:
    """The mirrors of a repository that sync on every push."""
    return [int(row["id"]) for row in store.sync_on_commit_mirrors(repo_id)]


def on_repo_deleted(repo_id: int) -> None:
    store.delete_mirrors_of_repo(repo_id)
