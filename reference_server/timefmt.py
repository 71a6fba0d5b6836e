"""Timestamps on the wire: ISO 8601 with an explicit UTC offset, stored as integer Unix seconds."""

from __future__ import annotations

from datetime import UTC, datetime

from .errors import ApiError, Unprocessable

__all__ = ["from_unix", "iso", "iso_or_zero", "parse_query_time", "to_unix"]

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


def parse_query_time(raw: str, error: type[ApiError] = Unprocessable) -> int | None:
    """An RFC 3339 query parameter (``since``, ``before``, ``last_read_at``) as Unix seconds; None when empty;
    ``error`` (422 by default, as Gitea's ``GetQueryBeforeSince``) with Go's parse message when malformed."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        return to_unix(datetime.fromisoformat(raw.replace("Z", "+00:00")))
    except ValueError as exc:
        raise error(f'parsing time "{raw}" as "2006-01-02T15:04:05Z07:00": cannot parse') from exc
