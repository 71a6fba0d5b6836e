"""Job, task, step and run statuses: Gitea's internal numbers, their names and their REST spelling."""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

__all__ = ["STATUS_FILTERS", "Status", "aggregate", "api_status"]


class Status(IntEnum):
    """Internal statuses, numbered as Gitea numbers them (0-4 equal the runner protocol's ``Result``)."""

    UNKNOWN = 0
    SUCCESS = 1
    FAILURE = 2
    CANCELLED = 3
    SKIPPED = 4
    WAITING = 5
    RUNNING = 6
    BLOCKED = 7

    @property
    def is_done(self) -> bool:
        """Final: nothing will change this status again."""
        return self in (Status.SUCCESS, Status.FAILURE, Status.CANCELLED, Status.SKIPPED)

    @property
    def label(self) -> str:
        """Gitea's ``Status.String()``: the lower-case name (``success``, ``waiting``...)."""
        return self.name.lower()

    def as_result(self) -> int:
        """The runner protocol ``Result`` of this status (unspecified while not final)."""
        return int(self) if self.is_done else 0


def aggregate(statuses: Iterable[Status]) -> Status:
    """A run's status from its jobs' statuses, first matching rule wins (as Gitea's aggregation)."""
    values = list(statuses)
    if not values:
        return Status.UNKNOWN
    if all(s == Status.SKIPPED for s in values):
        return Status.SKIPPED
    if all(s in (Status.SUCCESS, Status.SKIPPED) for s in values):
        return Status.SUCCESS
    for wanted in (Status.CANCELLED, Status.RUNNING, Status.WAITING, Status.FAILURE, Status.BLOCKED):
        if wanted in values:
            return wanted
    return Status.UNKNOWN


def api_status(status: Status) -> tuple[str, str | None]:
    """The REST ``status`` and ``conclusion`` (``None`` unless completed) of an internal status."""
    if status.is_done:
        return "completed", status.label
    if status == Status.RUNNING:
        return "in_progress", None
    if status == Status.BLOCKED:
        return "waiting", None
    return "queued", None


_DONE = (Status.SUCCESS, Status.FAILURE, Status.SKIPPED, Status.CANCELLED)

STATUS_FILTERS: dict[str, tuple[Status, ...]] = {
    "pending": (Status.BLOCKED,),
    "waiting": (Status.BLOCKED,),
    "requested": (Status.BLOCKED,),
    "action_required": (Status.BLOCKED,),
    "queued": (Status.WAITING,),
    "in_progress": (Status.RUNNING,),
    "completed": _DONE,
    "success": (Status.SUCCESS,),
    "failure": (Status.FAILURE,),
    "skipped": (Status.SKIPPED,),
    "neutral": (Status.SKIPPED,),
    "cancelled": (Status.CANCELLED,),
    "timed_out": (Status.CANCELLED,),
}
"""The ``status`` query filter of run and job lists: each accepted word and the internal statuses it means."""
