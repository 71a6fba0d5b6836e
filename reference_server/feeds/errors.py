"""Named error conditions of the feeds family."""

from __future__ import annotations

from ..errors import BadRequest

__all__ = ["InvalidFeedDate"]


class InvalidFeedDate(BadRequest):
    default_message = "invalid date: use YYYY-MM-DD"
