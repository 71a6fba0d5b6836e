"""Named refusals of the pins family: Gitea answers them with 500; the reference answers 422 with a reason."""

from __future__ import annotations

from ..errors import Unprocessable

__all__ = ["InvalidPinPosition", "IssueNotPinned", "PinLimitReached"]


class PinLimitReached(Unprocessable):
    """The repository already has the configured maximum of pinned issues (or pull requests)."""

    default_message = "the max number of pinned issues has been reached"


class IssueNotPinned(Unprocessable):
    """Only a pinned issue can be moved to another position."""

    default_message = "the issue is not pinned"


class InvalidPinPosition(Unprocessable):
    """A position outside 1..n, n being the number of pinned issues (or pull requests)."""

    default_message = "invalid pin position"
