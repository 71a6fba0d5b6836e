"""Gitea's ``Cron``: a task, its schedule, when it runs next and last ran, and how often it has run."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..context import forge
from ..db import Row
from ..timefmt import iso, iso_or_zero
from .tasks import Task, next_run

__all__ = ["cron_to_api"]


def cron_to_api(task: Task, run: Row | None) -> dict[str, Any]:
    now = datetime.fromtimestamp(forge().now(), UTC)
    prev = datetime.fromtimestamp(run["prev"], UTC) if run is not None else None
    return {
        "name": task.name,
        "schedule": task.schedule,
        "next": iso(next_run(task.schedule, prev, now).timestamp()),
        "prev": iso_or_zero(prev.timestamp() if prev is not None else None),
        "exec_times": run["exec_times"] if run is not None else 0,
    }
