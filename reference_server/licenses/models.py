"""A repository's detected licenses: which files count, when they are recomputed, and where they are kept.

License files are the root entries of the default branch named ``LICENSE``, ``LICENCE``, ``COPYING``,
``UNLICENSE`` (any case), bare or with the extension ``.md``, ``.txt`` or ``.rst`` (Gitea 1.27 reads
only ``LICENSE``; the specification says "license files", so the reference reads the usual names).
The licenses of every file are merged, sorted and stored; a branch without such a file clears them.
Files over ``MAX_LICENSE_FILE`` bytes are not read. Results are cached per blob sha in the app, so a
push that leaves the license file alone costs one tree listing.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable

from flask import current_app

from ..context import now_seconds
from ..events import DefaultBranchChangedEvent, PushEvent, RepoCreatedEvent, RepoDeletedEvent
from ..gitcli import ZERO_SHA, GitError
from ..repos.errors import RepoNotFound
from ..repos.models import Repo, get_repo_by_id
from . import classifier, store

__all__ = [
    "LICENSE_FILE",
    "is_license_file",
    "on_default_branch_changed",
    "on_push",
    "on_repo_created",
    "on_repo_deleted",
    "refresh_licenses",
    "repo_licenses",
]

log = logging.getLogger(__name__)

LICENSE_FILE = re.compile(r"^(?:license|licence|copying|unlicense)(?:\.(?:md|txt|rst))?$", re.IGNORECASE)
MAX_LICENSE_FILE = 1024 * 1024
CACHE_SIZE = 512


class BlobLicenseCache:
    """SPDX identifiers per blob sha (a blob's content never changes), least recently used dropped first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, sha: str) -> tuple[str, ...] | None:
        with self._lock:
            found = self._entries.get(sha)
            if found is not None:
                self._entries.move_to_end(sha)
            return found

    def put(self, sha: str, licenses: tuple[str, ...]) -> None:
        with self._lock:
            self._entries[sha] = licenses
            self._entries.move_to_end(sha)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


def _cache() -> BlobLicenseCache:
    cache: BlobLicenseCache = current_app.extensions.setdefault("license_blob_cache", BlobLicenseCache())
    return cache


def is_license_file(name: str) -> bool:
    """Whether a root file name counts as a license file."""
    return bool(LICENSE_FILE.match(name))


def repo_licenses(repo_id: int) -> list[str]:
    """The stored licenses of a repository, sorted (empty when none were detected)."""
    return store.licenses_of_repo(repo_id)


def _detect(repo: Repo, commit: str) -> list[str]:
    found: set[str] = set()
    for entry in repo.git.list_tree(commit):
        if entry.type != "blob" or not is_license_file(entry.name) or entry.size > MAX_LICENSE_FILE:
            continue
        cached = _cache().get(entry.sha)
        if cached is None:
            content = repo.git.read_blob(commit, entry.path) or b""
            cached = tuple(classifier.classify(content.decode("utf-8", errors="replace")))
            _cache().put(entry.sha, cached)
        found.update(cached)
    return sorted(found)


def refresh_licenses(repo: Repo) -> list[str]:
    """Recompute and store the licenses of the default branch's head; no branch clears them."""
    commit = repo.git.rev_parse(f"refs/heads/{repo.default_branch}") if repo.default_branch else None
    licenses = _detect(repo, commit) if commit else []
    store.save_licenses(repo.id, licenses, commit or "", now_seconds())
    return licenses


def _refresh_by_id(repo_id: int, why: str) -> None:
    """Refresh after an event; a repository that vanished meanwhile or a Git failure is logged, never raised
    into the request that published the event."""
    try:
        refresh_licenses(get_repo_by_id(repo_id))
    except RepoNotFound:
        return
    except (GitError, OSError):
        log.exception("license detection of repository %s after %s failed", repo_id, why)


def on_push(event: PushEvent) -> None:
    """A push to the default branch changes the licenses; pushes to other refs do not. When the pusher
    says which paths an update of the branch changed (the contents API) and none is (under) a root entry
    named like a license file, the licenses stay and only the commit they describe moves, without
    reading the tree (a branch created or deleted is always examined)."""
    try:
        repo = get_repo_by_id(event.repo_id)
    except RepoNotFound:
        return
    if event.ref != f"refs/heads/{repo.default_branch}":
        return
    known = event.changed_paths is not None and ZERO_SHA not in (event.before, event.after)
    if known and not _touches_license(event.changed_paths or ()):
        store.move_licenses_to(repo.id, event.after, now_seconds())
        return
    _refresh_by_id(repo.id, "a push")


def _touches_license(paths: Iterable[str]) -> bool:
    return any(is_license_file(path.strip("/").split("/", 1)[0]) for path in paths)


def on_repo_created(event: RepoCreatedEvent) -> None:
    """A new repository (initialised with a license template, forked, migrated, mirrored) is examined;
    an empty one has no license to find, nor one whose creator says no root path of its commit is named
    like a license file (a README and a .gitignore only)."""
    if event.kind == "empty":
        store.save_licenses(event.repo_id, [], "", now_seconds())
        return
    if event.commit and event.paths is not None and not _touches_license(event.paths):
        store.save_licenses(event.repo_id, [], event.commit, now_seconds())  # its creator says what it holds
        return
    _refresh_by_id(event.repo_id, f"creation ({event.kind})")


def on_default_branch_changed(event: DefaultBranchChangedEvent) -> None:
    """Another default branch may hold other license files."""
    _refresh_by_id(event.repo_id, "a default branch change")


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's row goes with it."""
    store.delete_licenses(event.repo_id)
