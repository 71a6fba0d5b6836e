"""LFS file locks (the API git-lfs calls on ``git lfs lock`` and before every push): one lock per path and
repository, owned by the user who took it; only the owner unlocks, unless another writer of the repository gives
``force`` (as Gitea)."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..repos import models as repos
from ..timefmt import iso
from . import store
from .errors import LfsBadRequest, LfsLockConflict, LfsLockNotFound, LfsNotLockOwner

__all__ = ["create_lock", "list_locks", "lock_to_api", "unlock", "verify_locks"]

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000


def lock_to_api(row: Row) -> dict[str, Any]:
    """The LFS ``Lock``: id as a string, the path, when and by whom."""
    return {
        "id": str(row["id"]),
        "path": row["path"],
        "locked_at": iso(row["created"]),
        "owner": {"name": row["owner_name"]},
    }


def _clean_path(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise LfsBadRequest("path is required")
    cleaned = posixpath.normpath("/" + raw.strip().replace("\\", "/")).lstrip("/")
    if not cleaned or cleaned == ".":
        raise LfsBadRequest("path is required")
    return cleaned


def _ref_name(body: Mapping[str, Any]) -> str:
    ref = body.get("ref")
    if isinstance(ref, Mapping) and isinstance(ref.get("name"), str):
        return str(ref["name"])
    return ""


def _int_arg(raw: object, default: int, name: str) -> int:
    if raw is None or raw == "":
        return default
    text = str(raw)
    if not text.isdigit() or len(text) > 18:
        raise LfsBadRequest(f"invalid {name}: {text!r}")
    return int(text)


def _page(repo: repos.Repo, cursor: object, limit: object) -> tuple[list[Row], str]:
    """Locks from ``cursor`` (a lock id) on, and the cursor of the next page ('' at the end)."""
    start = _int_arg(cursor, 0, "cursor")
    size = min(_int_arg(limit, DEFAULT_LIMIT, "limit") or DEFAULT_LIMIT, MAX_LIMIT)
    rows = store.locks_of_repo(repo.id, start, size + 1)
    next_cursor = str(rows[size]["id"]) if len(rows) > size else ""
    return rows[:size], next_cursor


def list_locks(repo: repos.Repo, args: Mapping[str, str]) -> dict[str, Any]:
    """``GET /locks``: all locks, or the one of ``id`` or ``path`` (404 for an unknown id, as Gitea)."""
    if args.get("id"):
        lock_id = _int_arg(args["id"], 0, "id")
        row = store.lock_by_id(repo.id, lock_id)
        if row is None:
            raise LfsLockNotFound(f"unable to get lock: no lock with id {lock_id}")
        return {"locks": [lock_to_api(row)], "next_cursor": ""}
    if args.get("path"):
        row = store.lock_by_path(repo.id, _clean_path(args["path"]))
        return {"locks": [lock_to_api(row)] if row is not None else [], "next_cursor": ""}
    rows, next_cursor = _page(repo, args.get("cursor"), args.get("limit"))
    return {"locks": [lock_to_api(row) for row in rows], "next_cursor": next_cursor}


def create_lock(repo: repos.Repo, body: Mapping[str, Any], principal: Principal) -> dict[str, Any]:
    """``POST /locks``: lock a path for the caller; 409 with the existing lock when it is already locked."""
    path = _clean_path(body.get("path"))
    with forge().db.transaction():
        existing = store.lock_by_path(repo.id, path)
        if existing is not None:
            raise LfsLockConflict(lock=lock_to_api(existing))
        lock_id = store.insert_lock(repo.id, principal.user_id, path, _ref_name(body), now_seconds())
        row = store.lock_by_id(repo.id, lock_id)
    assert row is not None
    return {"lock": lock_to_api(row)}


def verify_locks(repo: repos.Repo, body: Mapping[str, Any], principal: Principal) -> dict[str, Any]:
    """``POST /locks/verify``: the locks split into the caller's (``ours``) and everybody else's (``theirs``)."""
    rows, next_cursor = _page(repo, body.get("cursor"), body.get("limit"))
    ours = [lock_to_api(row) for row in rows if row["owner_id"] == principal.user_id]
    theirs = [lock_to_api(row) for row in rows if row["owner_id"] != principal.user_id]
    return {"ours": ours, "theirs": theirs, "next_cursor": next_cursor}


def unlock(repo: repos.Repo, raw_id: str, body: Mapping[str, Any], principal: Principal) -> dict[str, Any]:
    """``POST /locks/{id}/unlock``: the owner removes a lock; another writer needs ``force``."""
    lock_id = _int_arg(raw_id, 0, "id")
    force = body.get("force") is True
    with forge().db.transaction():
        row = store.lock_by_id(repo.id, lock_id)
        if row is None:
            raise LfsLockNotFound(f"unable to get lock: no lock with id {lock_id}")
        if row["owner_id"] != principal.user_id and not force:
            raise LfsNotLockOwner()
        store.delete_lock(lock_id)
    return {"lock": lock_to_api(row)}
