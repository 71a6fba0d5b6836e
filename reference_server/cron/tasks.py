"""The cron tasks of the reference: each does its work when run, as Gitea's task of that name does.

The reference runs no scheduler: a task runs when an administrator runs it (``POST /admin/cron/{task}``),
synchronously, so the work is done when the answer comes. The schedules are Gitea's defaults and only say
when Gitea would run them next.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ..artifacts.models import cleanup_expired_artifacts
from ..gitcli import Git, GitError
from ..mirrors.models import sync_due_mirrors
from ..repos.models import all_repos
from ..timefmt import parse_duration

__all__ = ["TASKS", "Task", "next_run"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Task:
    name: str
    schedule: str
    """Gitea's schedule notation: ``@midnight`` or ``@every <duration>``."""
    run: Callable[[], None]


def _cleanup_actions() -> None:
    """Gitea's ``cleanup_actions``: expired artifacts lose their stored files (their records stay, expired)."""
    removed = cleanup_expired_artifacts()
    log.info("cleanup_actions: removed the files of %d expired artifacts", removed)


def _git_gc_repos() -> None:
    """Gitea's ``git_gc_repos``: ``git gc --auto`` in every repository; a failing one does not stop the rest."""
    for repo in all_repos():
        try:
            Git(repo.git_path).run("gc", "--auto", "--quiet")
        except GitError as error:
            log.warning("git gc of %s failed: %s", repo.full_name, error)


def _update_mirrors() -> None:
    """Gitea's ``update_mirrors``: push mirrors whose ``interval`` has passed since their last sync are pushed
    (the reference keeps no pull mirrors that would update)."""
    synced = sync_due_mirrors()
    log.info("update_mirrors: synced %d push mirrors", synced)


TASKS: dict[str, Task] = {
    task.name: task
    for task in (
        Task("cleanup_actions", "@midnight", _cleanup_actions),
        Task("git_gc_repos", "@every 72h", _git_gc_repos),
        Task("update_mirrors", "@every 10m", _update_mirrors),
    )
}
"""Every task by name, in the order Gitea lists them (by name)."""


def next_run(schedule: str, prev: datetime | None, now: datetime) -> datetime:
    """When the schedule next comes after ``now`` (``@every`` counts from the last run, or from now)."""
    if schedule == "@midnight":
        return datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)
    step = timedelta(microseconds=(parse_duration(schedule.removeprefix("@every ")) or 0) // 1000)
    if step <= timedelta(0):  # pragma: no cover - every schedule of TASKS is a positive duration
        raise ValueError(f"not a schedule: {schedule!r}")
    start = prev if prev is not None else now
    upcoming = start + step
    while upcoming <= now:
        upcoming += step
    return upcoming
