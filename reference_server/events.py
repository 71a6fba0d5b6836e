"""In-process event bus: families announce what happened (a push) without importing each other."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "AccountDeletedEvent",
    "CommentDeletedEvent",
    "CommitStatusEvent",
    "DefaultBranchChangedEvent",
    "EventBus",
    "IssueActionEvent",
    "IssueAssignedEvent",
    "IssueDeletedEvent",
    "JobStatusEvent",
    "PushEvent",
    "ReleasePublishedEvent",
    "RepoCreatedEvent",
    "RepoDeletedEvent",
    "RepoRenamedEvent",
    "ReviewRequestedEvent",
    "RunStatusEvent",
]


@dataclass(frozen=True)
class PushEvent:
    """A ref moved in a repository: by the contents API, a branch operation or a Git push."""

    repo_id: int
    ref: str
    before: str
    after: str
    pusher_id: int
    changed_paths: tuple[str, ...] | None = None
    """The paths the push changed, when its publisher knows them (the contents API); None: not known."""


@dataclass(frozen=True)
class RepoDeletedEvent:
    """A repository is gone; families drop what hangs off it (runs, artifacts, runners)."""

    repo_id: int


@dataclass(frozen=True)
class RepoCreatedEvent:
    """A repository was created (empty, initialised, forked, migrated or mirrored); ``kind`` says which."""

    repo_id: int
    kind: str
    doer_id: int = 0
    """Who created it (0: not said; listeners then take the request's caller)."""
    commit: str = ""
    """The default branch's commit when the creator wrote it itself (an initialised repository), else empty."""
    paths: tuple[str, ...] | None = None
    """The paths of that commit, when the creator knows them (None: look)."""


@dataclass(frozen=True)
class DefaultBranchChangedEvent:
    """A repository's default branch was changed by an edit (not by a first push into an empty repository)."""

    repo_id: int
    old_branch: str
    new_branch: str


@dataclass(frozen=True)
class RepoRenamedEvent:
    """A repository was renamed by an edit; ``doer_id`` made the change."""

    repo_id: int
    old_name: str
    new_name: str
    doer_id: int


@dataclass(frozen=True)
class IssueActionEvent:
    """Something a user did to an issue or pull request: ``action`` is ``opened``, ``commented``, ``closed``,
    ``reopened``, ``merged`` or ``reviewed`` (a pull request's review submitted); ``comment_id`` names the
    comment of ``commented`` and the review entry of ``reviewed`` (0 otherwise). Published
    inside the acting transaction, so a listener's rows commit or roll back with the action."""

    repo_id: int
    issue_id: int
    doer_id: int
    action: str
    comment_id: int = 0


@dataclass(frozen=True)
class IssueAssignedEvent:
    """A user was assigned to an issue or pull request (``comment_id``: its timeline entry). Published inside
    the acting transaction, as :class:`IssueActionEvent`."""

    repo_id: int
    issue_id: int
    doer_id: int
    assignee_id: int
    comment_id: int = 0


@dataclass(frozen=True)
class ReviewRequestedEvent:
    """A user was asked to review a pull request (``comment_id``: its timeline entry); inside the acting
    transaction, as :class:`IssueActionEvent`."""

    repo_id: int
    issue_id: int
    doer_id: int
    reviewer_id: int
    comment_id: int = 0


@dataclass(frozen=True)
class ReleasePublishedEvent:
    """A release was published (created as a non-draft, or a draft made public) by ``doer_id``."""

    repo_id: int
    release_id: int
    doer_id: int


@dataclass(frozen=True)
class IssueDeletedEvent:
    """An issue or pull request is being deleted (inside the deleting transaction); families drop what hangs
    off it (reactions, attachments and their files)."""

    repo_id: int
    issue_id: int


@dataclass(frozen=True)
class CommentDeletedEvent:
    """A comment is being deleted (inside the deleting transaction); families drop its reactions and files."""

    repo_id: int
    issue_id: int
    comment_id: int


@dataclass(frozen=True)
class AccountDeletedEvent:
    """A user or organization is being deleted; families drop what hangs off the owner (runners, secrets)."""

    account_id: int
    is_org: bool


@dataclass(frozen=True)
class RunStatusEvent:
    """A workflow run was created or its aggregated status changed (``status`` is the actions ``Status`` value)."""

    run_id: int
    repo_id: int
    status: int


@dataclass(frozen=True)
class CommitStatusEvent:
    """A commit status was reported on ``sha`` of a repository (scheduled merges wait for these)."""

    repo_id: int
    sha: str
    state: str


@dataclass(frozen=True)
class JobStatusEvent:
    """A job was created or its status changed (waiting, blocked, running, or a final one)."""

    job_id: int
    run_id: int
    repo_id: int
    status: int


class EventBus:
    """Synchronous publish/subscribe; listeners run in the publisher's request."""

    def __init__(self) -> None:
        self._listeners: dict[type, list[Callable[[Any], None]]] = defaultdict(list)

    def subscribe(self, kind: type, listener: Callable[[Any], None]) -> None:
        self._listeners[kind].append(listener)

    def publish(self, event: object) -> None:
        for listener in list(self._listeners[type(event)]):
            listener(event)
