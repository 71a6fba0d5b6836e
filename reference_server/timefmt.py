"""Timestamps on the wire: ISO 8601 with an explicit UTC offset, stored as integer Unix seconds."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["from_unix", "iso", "iso_or_zero", "parse_iso", "to_unix"]

GO_ZERO_TIME = "0001-01-01T00:00:00Z"


def to_unix(moment: datetime) -> int:
    return int(moment.timestamp())


def from_unix(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def iso(seconds: float) -> str:
    """``2026-11-22T02:12:56+00:00`` for Unix seconds."""
    return from_unix(seconds).isoformat(timespec="seconds")


def iso_or_zero(seconds: float | None) -> str:
    """Like :func:`iso`, but Go's zero time when unset, as Gitea's non-nullable time fields do."""
    return GO_ZERO_TIME if not seconds else iso(seconds)


def parse_iso(text: str) -> int:
    """Unix seconds of an RFC 3339 time from a request (``Z`` or an offset; UTC when it has none); ValueError
    when it is not one."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return to_unix(moment)
