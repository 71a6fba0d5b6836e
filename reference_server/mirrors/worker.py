"""Syncs of push mirrors marked ``sync_on_commit``, run after a push by one background thread in order,
as Gitea queues them (services/mirror/mirror_push.go AddPushMirrorToQueue)."""

from __future__ import annotations

from flask import Flask

from ..workers import IdleWorker
from . import models

__all__ = ["EXTENSION", "MirrorSyncWorker"]

EXTENSION = "push_mirror_syncs"
IDLE_SECONDS = 5.0


class MirrorSyncWorker(IdleWorker[tuple[int, int]]):
    """Syncs ``(repo_id, mirror_id)`` in order on one background thread (``workers.IdleWorker``)."""

    def __init__(self, app: Flask) -> None:
        super().__init__(self._sync, name="push-mirror-sync", what="a push mirror sync", idle=IDLE_SECONDS)
        self._app = app

    def _sync(self, item: tuple[int, int]) -> None:
        repo_id, mirror_id = item
        with self._app.app_context():
            models.sync_one(repo_id, mirror_id)
