"""What a run created, deleted again in dependency order with basic operations, and what could not be.

Cleanup runs after each scenario (:meth:`CleanupLedger.cleanup_scenario`), so a run on a shared live
forge leaves at most one scenario's things behind at any moment, and once more at the end of the
run (:meth:`CleanupLedger.cleanup`, the sweep) for whatever a scenario's cleanup could not delete.
Order: packages (an organization that owns one cannot be deleted on Gitea), repositories, then
organizations, then users (with ``purge``, which also removes their tokens and anything they still own, so a
user's own repositories are not deleted one by one before it).
A 404 means the thing is already gone (a scenario deleted it itself).
What the sweep cannot delete either is a leak, listed in the report so a person (or ``conformance
janitor``) can remove it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import requests

from .api import ForgeApi
from .api.packages import PackagesApi

__all__ = ["CleanupLedger", "Leak", "LedgerEntry"]

GONE_STATUSES = frozenset({200, 202, 204, 404})
KIND_ORDER = ("package", "repository", "organization", "user")


@dataclass(frozen=True)
class LedgerEntry:
    """One created thing: ``kind`` is package, repository, organization or user; ``name`` is ``owner/repo`` for a
    repository, ``owner/type/name`` for a package."""

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
    deferred: list[LedgerEntry] = field(default_factory=list)
    """Entries a scenario's cleanup could not delete: tried again by the end-of-run sweep."""
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

    def record_package(self, owner: str, package_type: str, name: str) -> None:
        """A package the run uploaded (all its versions go together)."""
        self._add(LedgerEntry("package", f"{owner}/{package_type}/{name}"))

    def ordered(self) -> list[LedgerEntry]:
        """Entries in deletion order: by kind (repositories first), newest first within a kind."""
        with self._lock:
            entries = list(self.entries)
        return [entry for kind in KIND_ORDER for entry in reversed(entries) if entry.kind == kind]

    @staticmethod
    def _requests(entries: list[LedgerEntry]) -> list[LedgerEntry]:
        """The entries that need a request of their own: a repository whose owner is a user deleted in the
        same pass goes with that user's purge (Gitea's and the reference's ``purge=true`` delete the user's
        repositories first), one request instead of two; if it cannot, the user's deletion fails and says so."""
        purged = {entry.name for entry in entries if entry.kind == "user"}
        return [
            entry for entry in entries if not (entry.kind == "repository" and entry.name.partition("/")[0] in purged)
        ]

    def _delete(self, entry: LedgerEntry) -> requests.Response:
        if entry.kind == "package":
            owner, package_type, name = entry.name.split("/", 2)
            return self.admin.area(PackagesApi).delete_package(owner, package_type, name)
        if entry.kind == "repository":
            owner, _, name = entry.name.partition("/")
            return self.admin.repos.delete(owner, name)
        if entry.kind == "organization":
            return self.admin.orgs.delete(entry.name)
        return self.admin.users.admin_delete(entry.name, purge=True)

    def _delete_all(self, entries: list[LedgerEntry]) -> list[Leak]:
        """Delete ``entries`` in order; what could not be deleted, and why."""
        failures: list[Leak] = []
        for entry in self._requests(entries):
            try:
                response = self._delete(entry)
            except requests.RequestException as error:
                failures.append(Leak(entry.kind, entry.name, f"request failed: {error}"))
                continue
            if response.status_code not in GONE_STATUSES:
                failures.append(
                    Leak(entry.kind, entry.name, f"delete answered {response.status_code}: {response.text[:200]}")
                )
        return failures

    def cleanup_scenario(self) -> list[Leak]:
        """Delete what was recorded since the last cleanup; failures are deferred to the sweep and returned."""
        entries = self.ordered()
        with self._lock:
            self.entries = [entry for entry in self.entries if entry not in entries]
        failures = self._delete_all(entries)
        failed = {(leak.kind, leak.name) for leak in failures}
        with self._lock:
            for entry in entries:
                if (entry.kind, entry.name) in failed and entry not in self.deferred:
                    self.deferred.append(entry)
        return failures

    def cleanup(self) -> list[Leak]:
        """The sweep: delete every recorded and deferred entry; return (and keep) the leaks of this pass."""
        with self._lock:
            self.entries = self.deferred + [entry for entry in self.entries if entry not in self.deferred]
            self.deferred = []
        leaks = self._delete_all(self.ordered())
        with self._lock:
            self.entries = []
            self.leaks.extend(leaks)
        return leaks
