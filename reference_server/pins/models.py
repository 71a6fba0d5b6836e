"""Pin rules: a pin takes the next position while the configured limit allows another (``Limits``'s
``max_pinned_issues``, Gitea's ``[repository.issue] MAX_PINNED``, counted apart for issues and for pull
requests); unpinning closes the gap so positions stay 1..n; a move shifts the pins in between. Pin and
unpin add Gitea's ``pin``/``unpin`` timeline entries (comment types 36/37).
"""

from __future__ import annotations

from ..auth import Principal
from ..context import forge
from ..issues.comments import CommentType, add_event
from ..issues.models import Issue
from ..repos.models import Repo
from . import store
from .errors import InvalidPinPosition, IssueNotPinned, PinLimitReached

__all__ = ["move_pin", "new_pin_allowed", "pin_issue", "pinned_issues", "unpin_issue"]


def _kind(issue: Issue) -> str:
    return "pull requests" if issue.is_pull else "issues"


def pin_issue(issue: Issue, principal: Principal) -> None:
    """Pin at the last position with a ``pin`` entry; an already pinned issue keeps its place and no second
    entry is added (Gitea fails with 500 there). Over the limit: 422 and nothing changes (Gitea: 500)."""
    limit = forge().config.limits.max_pinned_issues
    with forge().db.transaction():
        if store.pin_order_of(issue.id) > 0:
            return
        count = store.pinned_count(issue.repo_id, issue.is_pull)
        if count >= limit:
            raise PinLimitReached(
                f"the max number of pinned {_kind(issue)} has been reached ({limit} allowed per repository)"
            )
        store.set_pin_order(issue.id, count + 1)
        add_event(issue.id, CommentType.PIN, principal.user_id)


def unpin_issue(issue: Issue, principal: Principal) -> None:
    """Unpin with an ``unpin`` entry and move the later pins up; an unpinned issue is left alone (no entry)."""
    with forge().db.transaction():
        position = store.pin_order_of(issue.id)
        if position == 0:
            return
        store.set_pin_order(issue.id, 0)
        store.close_gap(issue.repo_id, issue.is_pull, position)
        add_event(issue.id, CommentType.UNPIN, principal.user_id)


def parse_position(raw: str) -> int:
    """The ``{position}`` of a move as an integer; 422 for anything else."""
    try:
        return int(raw)
    except ValueError:
        raise InvalidPinPosition(f"the position must be an integer, not {raw!r}") from None


def move_pin(issue: Issue, position: int) -> None:
    """Move a pinned issue to ``position`` (1..n); the pins in between shift by one. 422 for an unpinned
    issue or a position outside 1..n (Gitea answers 500 or silently clamps)."""
    with forge().db.transaction():
        current = store.pin_order_of(issue.id)
        if current == 0:
            raise IssueNotPinned(f"issue #{issue.index} is not pinned, so it has no position to move")
        count = store.pinned_count(issue.repo_id, issue.is_pull)
        if not 1 <= position <= count:
            raise InvalidPinPosition(
                f"the position must be between 1 and {count} (the number of pinned {_kind(issue)}), not {position}"
            )
        if position == current:
            return
        if position < current:
            store.shift(issue.repo_id, issue.is_pull, position, current - 1, +1)
        else:
            store.shift(issue.repo_id, issue.is_pull, current + 1, position, -1)
        store.set_pin_order(issue.id, position)


def pinned_issues(repo: Repo, *, pulls: bool) -> list[Issue]:
    """The repository's pinned issues (or pull requests), first position first."""
    return [Issue.from_row(row) for row in store.pinned_rows(repo.id, pulls)]


def new_pin_allowed(repo: Repo) -> dict[str, bool]:
    """Gitea's ``NewIssuePinsAllowed``: whether one more issue, and one more pull request, may be pinned."""
    limit = forge().config.limits.max_pinned_issues
    return {
        "issues": store.pinned_count(repo.id, False) < limit,
        "pull_requests": store.pinned_count(repo.id, True) < limit,
    }
