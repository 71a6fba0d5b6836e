"""A background queue worker shared by the families that work after the answer (webhook deliveries, push
mirror syncs): items are handled one at a time in order by one thread, which ends when the queue has been
idle for a while and starts again on the next item, so an idle server keeps no thread."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["IdleWorker"]

log = logging.getLogger(__name__)

Item = TypeVar("Item")


class IdleWorker(Generic[Item]):
    """Runs ``handle`` on each submitted item, in order, on one thread that ends after ``idle`` seconds
    without work; a failing item is logged (as ``what``) and the next one runs."""

    def __init__(self, handle: Callable[[Item], None], *, name: str, what: str, idle: float) -> None:
        self._handle = handle
        self._name = name
        self._what = what
        self._idle = idle
        self._queue: queue.Queue[Item] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, item: Item) -> None:
        self._queue.put(item)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()

    def wait_idle(self, timeout: float) -> bool:
        """Whether every submitted item was handled within ``timeout`` seconds (for tests and shutdown)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=self._idle)
            except queue.Empty:
                with self._lock:
                    if self._queue.empty():
                        self._thread = None
                        return
                continue
            try:
                self._handle(item)
            except Exception:
                log.exception("%s failed unexpectedly", self._what)
            finally:
                self._queue.task_done()
