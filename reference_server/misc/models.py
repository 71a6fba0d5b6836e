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

__all__ = [
    "ATTACHMENT_TYPES",
    "REACTIONS",
    "api_settings",
    "attachment_settings",
    "clock_state",
    "repository_settings",
    "set_clock_offset",
    "set_static_host",
    "ui_settings",
    "version",
]

DEFAULT_GIT_TREES_PER_PAGE = 1000
DEFAULT_MAX_BLOB_SIZE = 10 * 1024 * 1024
DEFAULT_MAX_RESPONSE_SIZE = 100 * 1024 * 1024
REACTIONS = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
"""Gitea's default ``[ui] REACTIONS``: the reactions issues and comments accept."""
CUSTOM_EMOJIS = ("git", "gitea", "codeberg", "gitlab", "github", "gogs")
"""Gitea's default ``[ui] CUSTOM_EMOJIS``."""
DEFAULT_THEME = "gitea-auto"
ATTACHMENT_TYPES = (
    ".avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,"
    ".odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip"
)
"""Gitea's default ``[attachment] ALLOWED_TYPES``."""
MAX_ATTACHMENT_FILES = 5
"""Gitea's default ``[attachment] MAX_FILES``."""
MEBIBYTE = 1024 * 1024


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


def ui_settings() -> dict[str, Any]:
    """Gitea's ``GeneralUISettings``: the reference keeps Gitea's defaults."""
    return {"default_theme": DEFAULT_THEME, "allowed_reactions": list(REACTIONS), "custom_emojis": list(CUSTOM_EMOJIS)}


def repository_settings() -> dict[str, bool]:
    """Gitea's ``GeneralRepoSettings``: every feature the reference serves is on."""
    return {
        "mirrors_disabled": False,
        "http_git_disabled": False,
        "migrations_disabled": False,
        "stars_disabled": False,
        "time_tracking_disabled": False,
        "lfs_disabled": False,
    }


def attachment_settings() -> dict[str, Any]:
    """Gitea's ``GeneralAttachmentSettings``; ``max_size`` (MiB) is the largest attachment the server takes: the
    attachment limit (Gitea's default 2048) or, when smaller, the largest request body, so a client that
    believes it never sends an upload the server refuses."""
    limits = forge().config.limits
    limit = min(limits.release_attachment_max_bytes, limits.max_request_body_bytes) // MEBIBYTE
    return {
        "enabled": True,
        "allowed_types": ATTACHMENT_TYPES,
        "max_size": limit,
        "max_files": MAX_ATTACHMENT_FILES,
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
