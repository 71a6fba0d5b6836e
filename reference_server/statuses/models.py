"""Commit statuses: creating them, listing them, the latest per context and the combined state (Gitea's
rules); the shapes of Gitea's ``CommitStatus`` and ``CombinedStatus`` are in :mod:`.presenters`.

A status belongs to a full commit SHA of a repository. Reports of one context supersede each other: the
newest row of each ``context`` is that context's state, and the combined state is computed over those
(Gitea's ``CommitStatusStates.Combine``: any error or failure makes ``failure``; all of success, warning or
skipped make ``success``; anything else is ``pending``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..context import forge, now_seconds
from ..db import Row
from ..events import CommitStatusEvent
from ..gitcli import SHA_PATTERN
from ..protections.rules import compile_glob
from ..repos import models as repos
from . import store
from .errors import InvalidStatusOption, StatusCommitNotFound

__all__ = [
    "API_STATES",
    "CommitStatus",
    "combine",
    "create_status",
    "latest_status_of_context",
    "latest_statuses",
    "list_statuses",
    "required_contexts_state",
    "resolve_ref",
    "resolve_sha",
]

API_STATES = ("pending", "success", "error", "failure", "warning", "skipped")
"""The states a status may be created with (Gitea's ``CommitStatusState``; ``skipped`` since 1.24)."""
FILTER_STATES = ("pending", "success", "error", "failure", "warning")
"""The ``state`` filter values Gitea applies; any other value lists every state."""


@dataclass(frozen=True)
class CommitStatus:
    id: int
    repo_id: int
    sha: str
    index: int
    state: str
    target_url: str
    description: str
    context: str
    creator_id: int
    created: int
    updated: int

    @classmethod
    def from_row(cls, row: Row) -> CommitStatus:
        return cls(
            id=int(row["id"]),
            repo_id=int(row["repo_id"]),
            sha=str(row["sha"]),
            index=int(row["idx"]),
            state=str(row["state"]),
            target_url=str(row["target_url"]),
            description=str(row["description"]),
            context=str(row["context"]),
            creator_id=int(row["creator_id"]),
            created=int(row["created"]),
            updated=int(row["updated"]),
        )


def context_hash(context: str) -> str:
    """The key that groups the reports of one context (Gitea hashes the trimmed context with SHA-1)."""
    return hashlib.sha1(context.encode(), usedforsecurity=False).hexdigest()


def combine(states: Iterable[str]) -> str:
    """Gitea's combined state of the latest status of each context."""
    listed = list(states)
    succeeded = 0
    for state in listed:
        if state in ("error", "failure"):
            return "failure"
        if state in ("success", "warning", "skipped"):
            succeeded += 1
    return "success" if listed and succeeded == len(listed) else "pending"


# -- commits ----------------------------------------------------------------------------------------


def resolve_ref(repo: repos.Repo, ref: str) -> str:
    """The commit a branch, tag or (abbreviated) SHA names, in that order; 404 when it names none."""
    found = repo.git.resolve_ref(ref) if ref else None
    if found is None:
        raise StatusCommitNotFound(f"object does not exist [id: {ref}, rel_path: ]")
    return found[1]


def resolve_sha(repo: repos.Repo, sha: str) -> str:
    """The full SHA of ``GET /statuses/{sha}``: a full SHA as given, an abbreviation or ref as the commit it
    names, else the text itself (Gitea lists nothing for it rather than refusing)."""
    if SHA_PATTERN.match(sha):
        return sha.lower()
    found = repo.git.resolve_ref(sha) if sha else None
    return found[1] if found is not None else sha


# -- writing ----------------------------------------------------------------------------------------


def _text(options: Mapping[str, Any], key: str) -> str:
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidStatusOption(f"[{key}]: must be a string")
    return value.strip()


def create_status(repo: repos.Repo, sha: str, options: Mapping[str, Any], creator_id: int) -> CommitStatus:
    """Store a ``CreateStatusOption`` on the commit ``sha`` names (a full or abbreviated SHA, or a ref as
    Gitea's ``GetCommit`` accepts); 400 for an unknown state, 404 for an unknown commit."""
    state = options.get("state")
    if not isinstance(state, str) or state not in API_STATES:
        raise InvalidStatusOption(f"[State]: invalid commit status state {state!r}")
    target_url, description, context = (_text(options, key) for key in ("target_url", "description", "context"))
    commit = resolve_ref(repo, sha)
    return record_status(
        repo.id,
        commit,
        state=state,
        target_url=target_url,
        description=description,
        context=context,
        creator_id=creator_id,
    )


def record_status(
    repo_id: int, sha: str, *, state: str, target_url: str, description: str, context: str, creator_id: int
) -> CommitStatus:
    """Store one status of a known commit (the forge's own writers, such as Actions, come here directly)."""
    with forge().db.transaction():
        status_id = store.insert_status(
            repo_id=repo_id,
            sha=sha,
            state=state,
            target_url=target_url,
            description=description.strip(),
            context=context.strip(),
            context_hash=context_hash(context.strip()),
            creator_id=creator_id,
            now=now_seconds(),
        )
    row = store.status_by_id(status_id)
    assert row is not None
    forge().events.publish(CommitStatusEvent(repo_id, sha, state))
    return CommitStatus.from_row(row)


# -- reading ----------------------------------------------------------------------------------------


def list_statuses(
    repo: repos.Repo, sha: str, *, sort: str, state: str, limit: int, offset: int
) -> tuple[list[CommitStatus], int]:
    """A page of a commit's statuses; ``sort`` and ``state`` as Gitea reads them (unknown values ignored)."""
    wanted = state if state in FILTER_STATES else ""
    rows, total = store.status_rows(repo.id, sha, state=wanted, sort=sort, limit=limit, offset=offset)
    return [CommitStatus.from_row(row) for row in rows], total


def latest_statuses(repo_id: int, sha: str) -> list[CommitStatus]:
    """The newest status of every context of a commit."""
    return [CommitStatus.from_row(row) for row in store.latest_rows(repo_id, sha)]


def latest_status_of_context(repo_id: int, sha: str, context: str) -> CommitStatus | None:
    """The newest status of a commit in one context (as :func:`latest_statuses` would list it), or None."""
    row = store.latest_row_of_context(repo_id, sha, context_hash(context.strip()))
    return CommitStatus.from_row(row) if row is not None else None


def required_contexts_state(statuses: Sequence[CommitStatus], required: Sequence[str]) -> str:
    """Gitea's ``MergeRequiredContextsCommitStatus``: the state a protected branch's status check sees.

    No status at all is ``pending``; without required contexts every context counts; otherwise only the
    statuses whose context a required glob matches (``*`` crosses ``/``), and while some required context
    has no status yet the answer is ``failure`` if the matched ones fail, else ``pending``.
    """
    if not statuses:
        return "pending"
    if not required:
        return combine(status.state for status in statuses)
    matched: list[CommitStatus] = []
    every_context_matched = True
    for pattern in dict.fromkeys(required):
        glob = compile_glob(pattern)
        hits = [status for status in statuses if glob.match(status.context)]
        matched.extend(hits)
        every_context_matched = every_context_matched and bool(hits)
    if not matched:
        return "pending"
    state = combine(status.state for status in matched)
    if every_context_matched or state == "failure":
        return state
    return "pending"
