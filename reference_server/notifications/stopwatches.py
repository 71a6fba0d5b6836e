"""Stopwatches (Gitea's ``routers/api/v1/repo/issue_stopwatch.go``, ``models/issues/stopwatch.go``).

Only writers of the issues (or pulls) who may track time start, stop or cancel one: 403 otherwise. A user runs
one stopwatch at a time: starting one stops the running one first (its time is tracked). Stopping adds the
elapsed seconds as a tracked time; every change leaves its timeline entry (start, stop, cancel tracking).
"""

from __future__ import annotations

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..errors import Forbidden
from ..issues import models as issues
from ..issues.comments import CommentType, add_event
from ..permissions import permission
from ..repos.models import Repo
from ..times import store as times_store
from . import store
from .errors import StopwatchConflict

__all__ = ["cancel", "duration", "start", "stop", "stopwatches_of"]


def duration(seconds: int) -> str:
    """Gitea's ``SecToHours``: hours and minutes in words, seconds only under a minute."""
    hours, minutes = seconds // 3600, (seconds // 60) % 60
    parts = [
        f"{value} {name}{'s' if value > 1 else ''}" for value, name in ((hours, "hour"), (minutes, "minute")) if value
    ]
    if not parts and seconds > 0:
        parts = [f"{seconds} second{'s' if seconds > 1 else ''}"]
    return " ".join(parts)


def _guard(repo: Repo, index: int, principal: Principal) -> issues.Issue:
    """The issue, when the caller writes issues (or pulls) and may use the time tracker; 403 otherwise."""
    issue = issues.get_issue(repo, index)
    access = permission(principal, repo)
    if not access.can_write:
        raise Forbidden("user should have a permission to write to the issues or pulls")
    if not repo.has_issues:
        raise Forbidden("time tracking disabled")
    return issue


def _finish(row: Row, issue: issues.Issue, user_id: int) -> None:
    """Stop a running stopwatch: its seconds become a tracked time (joins the caller's transaction)."""
    now = now_seconds()
    seconds = max(now - int(row["created"]), 0)
    times_store.insert_time(issue.repo_id, issue.id, user_id, now, seconds)
    add_event(issue.id, CommentType.STOP_TRACKING, user_id, content=f"|{seconds}")
    store.delete_stopwatch(int(row["id"]))


def start(repo: Repo, index: int, principal: Principal) -> None:
    """Start the caller's stopwatch on the issue (409 when it already runs there), stopping another one first."""
    issue = _guard(repo, index, principal)
    with forge().db.transaction():
        if store.stopwatch(issue.id, principal.user_id) is not None:
            raise StopwatchConflict("cannot start a stopwatch again if it already exists")
        for other in store.stopwatches_of(principal.user_id):
            _finish(other, issues.get_issue_by_id(int(other["issue_id"])), principal.user_id)
        store.insert_stopwatch(issue.id, principal.user_id, now_seconds())
        add_event(issue.id, CommentType.START_TRACKING, principal.user_id)


def stop(repo: Repo, index: int, principal: Principal) -> None:
    """Stop the caller's stopwatch on the issue and track its time; 409 when none runs."""
    issue = _guard(repo, index, principal)
    with forge().db.transaction():
        row = store.stopwatch(issue.id, principal.user_id)
        if row is None:
            raise StopwatchConflict("cannot stop a non-existent stopwatch")
        _finish(row, issue, principal.user_id)


def cancel(repo: Repo, index: int, principal: Principal) -> None:
    """Drop the caller's stopwatch on the issue without tracking time; 409 when none runs."""
    issue = _guard(repo, index, principal)
    with forge().db.transaction():
        row = store.stopwatch(issue.id, principal.user_id)
        if row is None:
            raise StopwatchConflict("cannot cancel a non-existent stopwatch")
        store.delete_stopwatch(int(row["id"]))
        add_event(issue.id, CommentType.CANCEL_TRACKING, principal.user_id)


def stopwatches_of(principal: Principal) -> list[Row]:
    return store.stopwatches_of(principal.user_id)
