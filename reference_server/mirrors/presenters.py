"""Gitea's ``PushMirror`` (services/convert/mirror.go): never the credentials."""

from __future__ import annotations

from typing import Any

from ..db import Row
from ..repos.models import Repo
from ..timefmt import format_duration, iso

__all__ = ["push_mirror_to_api"]


def push_mirror_to_api(row: Row, repo: Repo) -> dict[str, Any]:
    """``last_update`` is null until the first sync; ``interval`` a Go duration (``8h0m0s``)."""
    return {
        "repo_name": repo.name,
        "remote_name": row["remote_name"],
        "remote_address": row["remote_address"],
        "created": iso(int(row["created"])),
        "last_update": iso(int(row["last_update"])) if row["last_update"] else None,
        "last_error": row["last_error"],
        "interval": format_duration(int(row["interval_ns"])),
        "sync_on_commit": bool(row["sync_on_commit"]),
    }
