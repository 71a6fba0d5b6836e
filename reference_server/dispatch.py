"""waitress' task queue with REST API requests served first, so they do not wait behind a crowd of job traffic.

waitress hands each complete request (its channel) to a FIFO queue that the worker threads drain. Under a
hundred jobs at once (``./kit load``) that queue holds uploads, downloads, artifact RPCs and runner reports,
and a REST call from a person or a tool waited behind all of them: its own handler runs in a few
milliseconds, its queue wait was most of a 500 ms p99. :class:`PriorityDispatcher` keeps two queues and
serves a waiting ``/api/v1/`` request before any other. Nothing is refused or reordered within a class,
and other traffic cannot starve: after :data:`BURST` REST requests in a row, one other request goes first.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from waitress.task import ThreadedTaskDispatcher

__all__ = ["BURST", "REST_MARK", "PriorityDispatcher", "is_rest"]

REST_MARK = "/api/v1/"
"""What a REST API path holds (after any sub-path the server is served under); runner, artifact and git
traffic lives elsewhere (``/api/actions/``, ``/twirp/``, ``/<owner>/<repo>.git/``, ``/_apis/``)."""
BURST = 8
"""REST requests served in a row at most while other requests wait."""


def is_rest(task: Any) -> bool:
    """Whether the request a waitress channel is about to serve is a REST API call."""
    requests = getattr(task, "requests", None)
    if not requests:
        return False
    path = getattr(requests[0], "path", "") or ""
    return REST_MARK in path


class _TwoQueues:
    """The deque interface waitress' dispatcher uses (``append``, ``popleft``, ``len``), over two deques."""

    def __init__(self) -> None:
        self.first: deque[Any] = deque()
        self.rest: deque[Any] = deque()
        self.in_a_row = 0

    def append(self, task: Any) -> None:
        (self.first if is_rest(task) else self.rest).append(task)

    def popleft(self) -> Any:
        if self.first and (not self.rest or self.in_a_row < BURST):
            self.in_a_row += 1
            return self.first.popleft()
        self.in_a_row = 0
        return self.rest.popleft() if self.rest else self.first.popleft()

    def __len__(self) -> int:
        return len(self.first) + len(self.rest)

    def __bool__(self) -> bool:
        return bool(self.first or self.rest)


class PriorityDispatcher(ThreadedTaskDispatcher):  # type: ignore[misc]
    """waitress' thread pool, whose queue serves REST API requests first (all access is under its lock)."""

    def __init__(self) -> None:
        super().__init__()
        self.queue = _TwoQueues()
