"""Syncs of push mirrors marked ``sync_on_commit``, run after a push by one background thread in order,
as Gitea queues them (services/mirror/mirror_push.go AddPushMirrorToQueue)."""

from __future__ import annotations

import logging
import queue
import threading
import time

from flask import Flask

from . import models

__all__ = ["EXTENSION", "MirrorSyncWorker"]

log = logging.getLogger(__name__)

EXTENSION = "push_mirror_syncs"
IDLE_SECONDS = 5.0


class MirrorSyncWorker:
    """A queue of ``(repo_id, mirror_id)`` and one thread that ends when idle and restarts on demand."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._queue: queue.Queue[tuple[int, int]] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, repo_id: int, mirror_id: int) -> None:
        self._queue.put((repo_id, mirror_id))
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="push-mirror-sync", daemon=True)
                self._thread.start()

    def wait_idle(self, timeout: float) -> bool:
        """Whether every submitted sync ran within ``timeout`` seconds (for tests)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def _run(self) -> None:
        while True:
            try:
                repo_id, mirror_id = self._queue.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            try:
                with self._app.app_context():
                    models.sync_one(repo_id, mirror_id)
            except Exception:
                log.exception("push mirrors: the sync of mirror %s failed unexpectedly", mirror_id)
            finally:
                self._queue.task_done()
