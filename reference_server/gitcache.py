"""What commits say about themselves, remembered per repository: a commit never changes once written.

Reading a commit costs a ``git`` process (about a millisecond and a half, most of it git starting),
and the same new commit is read several times in a row: by the activity feed, by the workflow
triggers and by the answer to the request that made it. The server also knows a commit it wrote
itself completely, so it remembers it at once. Entries are keyed by the repository's directory and
the full SHA, so a repository never answers for an object it does not hold; a repository that is
deleted or moved (renamed, or its owner renamed) is forgotten, since another one may later take its
place. The memory is bounded (least recently used entries go first).

Beside the commits themselves it keeps what a family derives from a commit's tree alone (the workflows
of a commit, under a ``kind`` the family names), under the same keys and the same forgetting.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from .gitcli import CommitInfo

__all__ = ["CAPACITY", "forget", "recall", "recall_derived", "remember", "remember_derived"]

CAPACITY = 4096

_COMMIT = "commit"
"""The kind under which a commit itself is kept; families name their own kinds for what they derive."""
_entries: OrderedDict[tuple[str, str, str], object] = OrderedDict()
"""(repository, kind, sha) -> value: one table, one bound, one forgetting for commits and derived values."""
_guard = threading.Lock()


def recall(repository: Path, sha: str) -> CommitInfo | None:
    """The remembered commit ``sha`` (a full SHA) of ``repository``, or None."""
    return cast("CommitInfo | None", recall_derived(repository, _COMMIT, sha))


def remember(repository: Path, info: CommitInfo) -> None:
    """Keep ``info`` for ``repository``; the least recently used entry goes when full."""
    remember_derived(repository, _COMMIT, info.sha, info)


def recall_derived(repository: Path, kind: str, sha: str) -> object | None:
    """What was remembered as ``kind`` of the commit ``sha`` (a full SHA) of ``repository``, or None."""
    key = (str(repository), kind, sha)
    with _guard:
        found = _entries.get(key)
        if found is not None:
            _entries.move_to_end(key)
        return found


def remember_derived(repository: Path, kind: str, sha: str, value: object) -> None:
    """Keep ``value`` as ``kind`` of the commit ``sha`` of ``repository``: it must follow from the commit alone."""
    key = (str(repository), kind, sha)
    with _guard:
        _entries[key] = value
        _entries.move_to_end(key)
        while len(_entries) > CAPACITY:
            _entries.popitem(last=False)


def forget(location: Path) -> None:
    """Drop every entry of the repository at ``location`` and of any repository below it (an owner's folder)."""
    root = str(location)
    below = root.rstrip("/") + "/"
    with _guard:
        for key in [key for key in _entries if key[0] == root or key[0].startswith(below)]:
            del _entries[key]
