"""Issue deadlines: Gitea keeps only the date (the deadline is that day's last second) and records each
change in the timeline (``added_deadline`` with the date, ``modified_deadline`` with ``new|old``,
``removed_deadline`` with the old date)."""

from __future__ import annotations

from datetime import UTC, datetime, time

from ..context import forge
from . import store
from .comments import CommentType, add_event
from .errors import InvalidIssueOption

__all__ = ["change_deadline", "deadline_of", "end_of_day"]

GO_ZERO_YEAR = 1


def end_of_day(value: object, label: str = "DueDate") -> int:
    """The last second (UTC) of the day an RFC 3339 ``value`` names; 0 for Go's zero time (no deadline)."""
    if not isinstance(value, str):
        raise InvalidIssueOption(f"[{label}]: must be an RFC 3339 time")
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise InvalidIssueOption(f"[{label}]: must be an RFC 3339 time") from None
    if moment.year <= GO_ZERO_YEAR:
        return 0
    return int(datetime.combine(moment.date(), time(23, 59, 59), UTC).timestamp())


def deadline_of(issue_id: int) -> int:
    """The issue's deadline in Unix seconds, 0 without one."""
    return store.deadline_of(issue_id)


def _day(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d")


def change_deadline(issue_id: int, deadline: int, doer_id: int) -> None:
    """Set (0: remove) the deadline with its timeline entry; nothing when it does not change. Joins the
    caller's transaction."""
    old = store.deadline_of(issue_id)
    if old == deadline:
        return
    with forge().db.transaction():
        if not old:
            add_event(issue_id, CommentType.ADDED_DEADLINE, doer_id, content=_day(deadline))
        elif not deadline:
            add_event(issue_id, CommentType.REMOVED_DEADLINE, doer_id, content=_day(old))
        else:
            add_event(issue_id, CommentType.MODIFIED_DEADLINE, doer_id, content=f"{_day(deadline)}|{_day(old)}")
        store.set_deadline(issue_id, deadline)
