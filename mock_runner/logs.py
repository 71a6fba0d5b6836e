"""The job log: masked rows, numbered from 0, sent with ``UpdateLog`` and dropped once acknowledged.

The server stores rows at ``index`` onward and answers ``ack_index`` (rows it now holds); rows it has
not acknowledged are sent again on the next flush, so a lost reply never loses or duplicates a line.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from forge_proto import runner_pb2
from google.protobuf.timestamp_pb2 import Timestamp

__all__ = ["MAX_ROWS_PER_CALL", "LogReporter", "Masker"]

log = logging.getLogger("mock_runner.logs")

MAX_ROWS_PER_CALL = 2000
MASK = "***"

UpdateLog = Callable[[int, int, list[runner_pb2.LogRow], bool], int]


class Masker:
    """Replaces secret values by ``***`` in log lines (longest first, each line of a multi-line secret too)."""

    def __init__(self, values: Iterable[str] = ()) -> None:
        self._values: set[str] = set()
        self._lock = threading.Lock()
        for value in values:
            self.add(value)

    def add(self, value: str) -> None:
        """Mask ``value`` from now on; each line of a multi-line value is masked on its own too."""
        with self._lock:
            for candidate in (value, *(line.strip() for line in value.splitlines())):
                if candidate.strip():
                    self._values.add(candidate)

    def __call__(self, text: str) -> str:
        with self._lock:
            values = sorted(self._values, key=len, reverse=True)
        for value in values:
            if value in text:
                text = text.replace(value, MASK)
        return text


def _timestamp(moment: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


class LogReporter:
    """Collects a task's log rows and streams them with correct indexes and acknowledgements."""

    def __init__(
        self,
        task_id: int,
        update_log: UpdateLog,
        masker: Masker | None = None,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        echo: Callable[[str], None] | None = None,
    ) -> None:
        self.task_id = task_id
        self._update_log = update_log
        self.masker = masker or Masker()
        self._clock = clock
        self._echo = echo
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._pending: list[runner_pb2.LogRow] = []
        self._offset = 0  # index of the first pending row == rows acknowledged so far
        self.lines: list[str] = []  # every row's content, kept for the caller's outcome
        self.closed = False

    @property
    def count(self) -> int:
        """Rows written so far: the index the next row will get."""
        with self._lock:
            return len(self.lines)

    @property
    def acknowledged(self) -> int:
        with self._lock:
            return self._offset

    def write(self, text: str) -> None:
        """Add one or more lines (split on newlines), masked, stamped now."""
        lines = text.split("\n")
        if len(lines) > 1 and lines[-1] == "":
            lines.pop()
        now = _timestamp(self._clock())
        with self._lock:
            for line in lines:
                content = self.masker(line.rstrip("\r"))
                self._pending.append(runner_pb2.LogRow(time=now, content=content))
                self.lines.append(content)
        if self._echo is not None:
            for line in lines:
                self._echo(self.masker(line.rstrip("\r")))

    def flush(self, no_more: bool = False) -> bool:
        """Send un-acknowledged rows; True once the server holds every row (and, with ``no_more``, was told so)."""
        with self._send_lock:
            while True:
                with self._lock:
                    offset = self._offset
                    batch = list(self._pending[:MAX_ROWS_PER_CALL])
                    last_batch = len(self._pending) <= MAX_ROWS_PER_CALL
                if not batch and not no_more:
                    return True
                final = no_more and last_batch
                ack = self._update_log(self.task_id, offset, batch, final)
                with self._lock:
                    if ack < offset:
                        log.error(
                            "task %d: server acknowledged %d rows, fewer than the %d it had", self.task_id, ack, offset
                        )
                        return False
                    taken = min(ack - offset, len(self._pending))
                    del self._pending[:taken]
                    self._offset = offset + taken
                    done = not self._pending
                if final:
                    if done:
                        self.closed = True
                    return done
                if taken < len(batch) or done:
                    return done
