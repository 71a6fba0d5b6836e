"""Pins storage: the position lives in ``issue.pin_order`` (0 = not pinned), numbered 1..n separately for the
issues and for the pull requests of each repository. Every statement runs inside the caller's transaction."""

from __future__ import annotations

from ..context import forge
from ..db import Row

__all__ = ["SCHEMA"]

SCHEMA = """
CREATE INDEX IF NOT EXISTS issue_pinned ON issue (repo_id, is_pull, pin_order);
"""


def pinned_count(repo_id: int, is_pull: bool) -> int:
    """How many issues (or pull requests) of the repository are pinned."""
    value = forge().db.scalar(
        "SELECT COUNT(*) FROM issue WHERE repo_id = ? AND is_pull = ? AND pin_order > 0", (repo_id, int(is_pull))
    )
    return int(value if isinstance(value, int) else 0)


def pin_order_of(issue_id: int) -> int:
    value = forge().db.scalar("SELECT pin_order FROM issue WHERE id = ?", (issue_id,))
    return int(value if isinstance(value, int) else 0)


def set_pin_order(issue_id: int, order: int) -> None:
    forge().db.execute("UPDATE issue SET pin_order = ? WHERE id = ?", (order, issue_id))


def shift(repo_id: int, is_pull: bool, low: int, high: int, step: int) -> None:
    """Add ``step`` (+1 or -1) to the positions ``low..high`` of the repository's issues (or pulls)."""
    forge().db.execute(
        "UPDATE issue SET pin_order = pin_order + ? "
        "WHERE repo_id = ? AND is_pull = ? AND pin_order >= ? AND pin_order <= ?",
        (step, repo_id, int(is_pull), low, high),
    )


def close_gap(repo_id: int, is_pull: bool, after: int) -> None:
    """Move every position after ``after`` one place up, so positions stay 1..n."""
    forge().db.execute(
        "UPDATE issue SET pin_order = pin_order - 1 WHERE repo_id = ? AND is_pull = ? AND pin_order > ?",
        (repo_id, int(is_pull), after),
    )


def pinned_rows(repo_id: int, is_pull: bool) -> list[Row]:
    """The pinned issues (or pulls) of the repository, first position first."""
    return forge().db.all(
        "SELECT * FROM issue WHERE repo_id = ? AND is_pull = ? AND pin_order > 0 ORDER BY pin_order, idx",
        (repo_id, int(is_pull)),
    )
