"""The per-app bundle of services (config, storage, clock, signer, events) that handlers reach."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import cast

from flask import current_app

from .blobs import BlobStore
from .config import Config
from .db import Database
from .events import EventBus
from .hostmatch import HostPolicy
from .outgoing import Resolver
from .signing import Signer

__all__ = ["Forge", "forge"]


@dataclass
class Forge:
    """Everything one instance owns; built by ``create_app``, never at import time."""

    config: Config
    db: Database
    blobs: BlobStore
    signer: Signer
    events: EventBus
    resolver: Resolver = field(default_factory=Resolver)
    """Name resolution of outgoing requests (static entries from the reference's test hook win over DNS)."""

    @cached_property
    def webhook_hosts(self) -> HostPolicy:
        """Where webhook deliveries may go."""
        return HostPolicy.parse(self.config.webhook_allowed_hosts, "webhook ALLOWED_HOST_LIST")

    @cached_property
    def migration_hosts(self) -> HostPolicy:
        """Where migrations and mirror syncs may fetch from."""
        return HostPolicy.parse(self.config.migrations_allowed_hosts, "migrations ALLOWED_HOST_LIST")

    def now(self) -> float:
        """Current Unix time from the injectable clock."""
        return self.config.clock.now().timestamp()

    def url(self, path: str = "") -> str:
        """Absolute public URL of a path relative to the base URL (sub-path included)."""
        return self.config.base_url + path.lstrip("/")

    def api_url(self, path: str = "") -> str:
        """Absolute URL under ``/api/v1``."""
        return self.url("api/v1/" + path.lstrip("/"))


def forge() -> Forge:
    """The services of the app handling the current request."""
    return cast(Forge, current_app.extensions["forge"])


def now_seconds() -> int:
    """The forge clock's time in whole Unix seconds, as rows store it."""
    return int(forge().now())
