"""Named refusals of notification threads, issue subscriptions and stopwatches, with Gitea's messages."""

from __future__ import annotations

from ..errors import Conflict, Forbidden, NotFound

__all__ = ["NotThreadOwner", "StopwatchConflict", "SubscriptionForbidden", "ThreadNotFound"]


class ThreadNotFound(NotFound):
    default_message = "notification does not exist"


class NotThreadOwner(Forbidden):
    """Only the user a thread belongs to (or a site administrator, for reading) may see or change it."""


class SubscriptionForbidden(Forbidden):
    """Only the user (or a site administrator) changes a user's subscription to an issue."""


class StopwatchConflict(Conflict):
    """A stopwatch already runs (start) or none runs (stop, cancel)."""
