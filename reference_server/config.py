"""Configuration of one reference server instance: everything ``create_app`` needs, nothing global."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from .passwords import STANDARD_COST, ScryptCost

if TYPE_CHECKING:
    from .badges.models import BadgeDefinition

__all__ = ["Clock", "Config", "Limits", "SystemClock"]


class Clock(Protocol):
    """Source of the current time; injectable so tests and the harness can move it forward."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real clock, shifted by an offset the reference-only test hook may set."""

    def __init__(self, offset_seconds: float = 0.0) -> None:
        self.offset_seconds = offset_seconds

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset_seconds)


@dataclass(frozen=True)
class Limits:
    """Operator-configurable limits (Gitea's [api] and [actions] settings)."""

    default_paging_num: int = 30
    max_response_items: int = 50
    max_pinned_issues: int = 3
    artifact_retention_days: int = 90
    signed_url_lifetime_seconds: int = 3600
    runtime_token_lifetime_seconds: int = 24 * 3600
    runner_offline_seconds: int = 60
    runner_idle_seconds: int = 10
    fetch_task_long_poll_seconds: float = 0.0
    max_request_body_bytes: int = 64 * 1024 * 1024
    max_block_bytes: int = 256 * 1024 * 1024
    release_attachment_max_bytes: int = 2048 * 1024 * 1024
    """Gitea's ``[repository.release] FILE_MAX_SIZE`` (2048 MiB by default): a larger asset is refused, 413."""
    package_generic_max_bytes: int | None = None
    """Gitea's ``[packages] LIMIT_SIZE_GENERIC`` (-1, no limit, by default): a larger generic file is refused, 403."""


@dataclass
class Config:
    """Settings of one instance. ``base_url`` may carry a sub-path: the API is then at ``/<sub>/api/v1``."""

    data_dir: Path
    base_url: str = "http://127.0.0.1:3000/"
    admin_username: str = "forge_admin"
    admin_password: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    admin_email: str = "forge_admin@example.invalid"
    admin_token: str | None = None
    app_version: str = "1.27.3+reference"
    limits: Limits = field(default_factory=Limits)
    clock: Clock = field(default_factory=SystemClock)
    test_hooks: bool = False
    """Expose ``/api/v1/-/reference/*`` (clock control) for ``@reference_only`` scenarios."""
    badges: tuple[BadgeDefinition, ...] = ()
    """Badge definitions stored at start (Gitea seeds its badge table; it has no API to define badges)."""
    on_ready: Callable[[str], None] | None = None
    password_cost: ScryptCost = STANDARD_COST
    """scrypt cost of new password hashes; ``FAST_COST`` only for throw-away test servers."""
    webhook_allowed_hosts: str = "external"
    """Where webhook deliveries may go (Gitea's ``[webhook] ALLOWED_HOST_LIST``; ``hostmatch`` vocabulary)."""
    migrations_allowed_hosts: str = "external"
    """Where migrations and mirror syncs may fetch from (Gitea's ``[migrations] ALLOW_LOCALNETWORKS = false``
    is ``external``; ``external,private,loopback`` is its ``true``)."""

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir)
        if not self.base_url.endswith("/"):
            self.base_url += "/"

    @property
    def sub_path(self) -> str:
        """The deployment sub-path without slashes ('' at the root)."""
        return urlsplit(self.base_url).path.strip("/")
