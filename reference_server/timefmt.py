"""Timestamps on the wire: ISO 8601 with an explicit UTC offset, stored as integer Unix seconds; Go durations
(``8h0m0s``) as Gitea reads and prints them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from .errors import ApiError, Unprocessable

__all__ = [
    "format_duration",
    "from_unix",
    "iso",
    "iso_or_zero",
    "parse_duration",
    "parse_iso",
    "parse_query_time",
    "to_unix",
]

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


_UNITS = {"ns": 1, "us": 10**3, "µs": 10**3, "μs": 10**3, "ms": 10**6, "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9}
_COMPONENT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")


def parse_duration(text: str) -> int | None:
    """Go's ``time.ParseDuration`` in nanoseconds; None when Go would refuse the text."""
    if not text:
        return None
    sign = -1 if text[0] == "-" else 1
    rest = text[1:] if text[0] in "+-" else text
    if rest == "0":
        return 0
    total, position = 0.0, 0
    while position < len(rest):
        match = _COMPONENT.match(rest, position)
        if match is None:
            return None
        total += float(match.group(1)) * _UNITS[match.group(2)]
        position = match.end()
    return sign * round(total) if rest else None


def format_duration(nanoseconds: int) -> str:
    """Go's ``Duration.String`` (``8h0m0s``, ``10m0s``, ``0s``, ``1.5s``, ``250ms``)."""
    if nanoseconds == 0:
        return "0s"
    sign, value = ("-" if nanoseconds < 0 else ""), abs(nanoseconds)
    if value < 10**9:
        for unit, size in (("ms", 10**6), ("µs", 10**3), ("ns", 1)):
            if value >= size or unit == "ns":
                return sign + _decimal(value, size) + unit
    hours, remainder = divmod(value, 3600 * 10**9)
    minutes, remainder = divmod(remainder, 60 * 10**9)
    seconds = _decimal(remainder, 10**9) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{seconds}"
    if minutes:
        return f"{sign}{minutes}m{seconds}"
    return sign + seconds


def _decimal(value: int, unit: int) -> str:
    whole, fraction = divmod(value, unit)
    if not fraction:
        return str(whole)
    digits = len(str(unit)) - 1
    return f"{whole}.{str(fraction).rjust(digits, '0').rstrip('0')}"


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


def parse_iso(text: str) -> int:
    """Unix seconds of an RFC 3339 time from a request (``Z`` or an offset; UTC when it has none); ValueError
    when it is not one."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return to_unix(moment)
