"""What a run created, deleted again in dependency order with basic operations, and what could not be.

Order: repositories, then organizations, then users (with ``purge``, which also removes their tokens
and anything they still own). A 404 means the thing is already gone (a scenario deleted it itself).
Anything else is a leak, listed in the report so a person can remove it by hand.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import requests

from .api import ForgeApi

__all__ = ["CleanupLedger", "Leak", "LedgerEntry"]

GONE_STATUSES = frozenset({200, 202, 204, 404})
KIND_ORDER = ("repository", "organization", "user")


@dataclass(frozen=True)
class LedgerEntry:
    """One created thing: ``kind`` is repository, organization or user; ``name`` is ``owner/repo`` for a repository."""

    kind: str
    name: str


@dataclass(frozen=True)
class Leak:
    """A created thing the cleanup could not delete, and why."""

    kind: str
    name: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        """The JSON form used in results.json."""
        return {"kind": self.kind, "name": self.name, "reason": self.reason}


@dataclass
class CleanupLedger:
    """Records creations; :meth:`cleanup` deletes them through the admin's API."""

    admin: ForgeApi
    entries: list[LedgerEntry] = field(default_factory=list)
    leaks: list[Leak] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _add(self, entry: LedgerEntry) -> None:
        with self._lock:
            if entry not in self.entries:
                self.entries.append(entry)

    def record_user(self, username: str) -> None:
        """A user the run created."""
        self._add(LedgerEntry("user", username))

    def record_org(self, name: str) -> None:
        """An organization the run created."""
        self._add(LedgerEntry("organization", name))

    def record_repo(self, owner: str, name: str) -> None:
        """A repository the run created."""
        self._add(LedgerEntry("repository", f"{owner}/{name}"))

    def ordered(self) -> list[LedgerEntry]:
        """Entries in deletion order: by kind (repositories first), newest first within a kind."""
        with self._lock:
            entries = list(self.entries)
        return [entry for kind in KIND_ORDER for entry in reversed(entries) if entry.kind == kind]

    def _delete(self, entry: LedgerEntry) -> requests.Response:
        if entry.kind == "repository":
            owner, _, name = entry.name.partition("/")
            return self.admin.repos.delete(owner, name)
        if entry.kind == "organization":
            return self.admin.orgs.delete(entry.name)
        return self.admin.users.admin_delete(entry.name, purge=True)

    def cleanup(self) -> list[Leak]:
        """Delete every recorded entry; return (and keep) the leaks of this pass."""
        leaks: list[Leak] = []
        for entry in self.ordered():
            try:
                response = self._delete(entry)
            except requests.RequestException as error:
                leaks.append(Leak(entry.kind, entry.name, f"request failed: {error}"))
                continue
            if response.status_code not in GONE_STATUSES:
                leaks.append(
                    Leak(entry.kind, entry.name, f"delete answered {response.status_code}: {response.text[:200]}")
                )
        with self._lock:
            self.entries = []
            self.leaks.extend(leaks)
        return leaks
