"""Named error conditions of the misc family."""

from __future__ import annotations

from ..errors import Unprocessable

__all__ = ["ClockNotAdjustable", "InvalidClockOffset"]


class InvalidClockOffset(Unprocessable):
    default_message = "offset_seconds must be a finite number"


class ClockNotAdjustable(Unprocessable):
    default_message = "the configured clock cannot be moved"
