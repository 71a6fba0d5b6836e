"""Pauses between the polls of a step that waits for the forge to finish something in the background.

A fixed pause wastes half of it on average after the event: most waits here end within milliseconds
against the embedded server, so the pauses start short and double up to a cap, which keeps a slow
forge from being asked too often.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["Backoff"]


@dataclass
class Backoff:
    """Sleeps ``first`` seconds, then twice as long each time, never more than ``cap``."""

    cap: float
    first: float = 0.01
    _next: float = 0.0

    def sleep(self) -> None:
        """Wait before the next poll."""
        pause = min(self.cap, self._next or self.first)
        time.sleep(pause)
        self._next = pause * 2
