"""Server facts for the misc endpoints and the test clock of ``@reference_only`` scenarios."""

from __future__ import annotations

import math
from typing import Any

from ..config import SystemClock
from ..context import forge
from ..errors import Unprocessable
from ..hostmatch import literal_address
from ..timefmt import iso
from .errors import ClockNotAdjustable, InvalidClockOffset

__all__ = ["api_settings", "clock_state", "set_clock_offset", "set_static_host", "version"]

DEFAULT_GIT_TREES_PER_PAGE = 1000
DEFAULT_MAX_BLOB_SIZE = 10 * 1024 * 1024
DEFAULT_MAX_RESPONSE_SIZE = 100 * 1024 * 1024


def version() -> dict[str, str]:
    """Gitea's ``ServerVersion``."""
    return {"version": forge().config.app_version}


def api_settings() -> dict[str, int]:
    """Gitea's ``GeneralAPISettings`` from the configured limits."""
    limits = forge().config.limits
    return {
        "max_response_items": limits.max_response_items,
        "default_paging_num": limits.default_paging_num,
        "default_git_trees_per_page": DEFAULT_GIT_TREES_PER_PAGE,
        "default_max_blob_size": DEFAULT_MAX_BLOB_SIZE,
        "default_max_response_size": DEFAULT_MAX_RESPONSE_SIZE,
    }


def clock_state() -> dict[str, Any]:
    """The clock's offset from real time and the server's idea of now."""
    clock = forge().config.clock
    return {"offset_seconds": float(getattr(clock, "offset_seconds", 0.0)), "now": iso(forge().now())}


def set_static_host(name: str, options: dict[str, Any]) -> None:
    """Make outgoing requests resolve ``name`` to ``addresses`` (an empty list: back to DNS)."""
    addresses = options.get("addresses")
    if not isinstance(addresses, list) or not all(isinstance(a, str) and literal_address(a) for a in addresses):
        raise Unprocessable("[Addresses]: must be a list of IP addresses")
    forge().resolver.set_static(name, tuple(addresses))


def set_clock_offset(options: dict[str, Any]) -> dict[str, Any]:
    """Move the server clock to real time plus ``offset_seconds`` (which may be negative)."""
    offset = options.get("offset_seconds")
    if isinstance(offset, bool) or not isinstance(offset, int | float) or not math.isfinite(offset):
        raise InvalidClockOffset("offset_seconds must be a finite number")
    clock = forge().config.clock
    if not isinstance(clock, SystemClock):
        raise ClockNotAdjustable("the configured clock has no adjustable offset")
    clock.offset_seconds = float(offset)
    return clock_state()
