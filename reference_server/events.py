"""In-process event bus: families announce what happened (a push) without importing each other."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["EventBus", "PushEvent", "RepoDeletedEvent"]


@dataclass(frozen=True)
class PushEvent:
    """A ref moved in a repository: by the contents API, a branch operation or a Git push."""

    repo_id: int
    ref: str
    before: str
    after: str
    pusher_id: int


@dataclass(frozen=True)
class RepoDeletedEvent:
    """A repository is gone; families drop what hangs off it (runs, artifacts, runners)."""

    repo_id: int


class EventBus:
    """Synchronous publish/subscribe; listeners run in the publisher's request."""

    def __init__(self) -> None:
        self._listeners: dict[type, list[Callable[[Any], None]]] = defaultdict(list)

    def subscribe(self, kind: type, listener: Callable[[Any], None]) -> None:
        self._listeners[kind].append(listener)

    def publish(self, event: object) -> None:
        for listener in list(self._listeners[type(event)]):
            listener(event)
