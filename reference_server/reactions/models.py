"""Reactions: Gitea's rules (only the instance's allowed reactions, 403 otherwise; a second identical
reaction is the first one again; a locked issue takes reactions only from writers)."""

from __future__ import annotations

from dataclasses import dataclass

from ..context import forge, now_seconds
from ..db import Row
from ..events import CommentDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from ..misc.models import REACTIONS
from . import store
from .errors import ReactionForbidden, ReactionNotAllowed

__all__ = [
    "Reaction",
    "add_reaction",
    "check_may_react",
    "list_reactions",
    "on_comment_deleted",
    "on_issue_deleted",
    "on_repo_deleted",
    "remove_reaction",
]

MAX_ITEMS = 1 << 31


@dataclass(frozen=True)
class Reaction:
    """One user's reaction (``content``) to an issue (``comment_id`` 0) or a comment."""

    content: str
    user_id: int
    created: int


def _reaction(row: Row) -> Reaction:
    return Reaction(content=row["type"], user_id=row["user_id"], created=row["created"])


def check_may_react(*, is_locked: bool, can_write: bool) -> None:
    """A locked issue (and its comments) takes reaction changes from writers only (403)."""
    if is_locked and not can_write:
        raise ReactionForbidden()


def _content(value: object) -> str:
    content = value if isinstance(value, str) else ""
    if content not in REACTIONS:
        raise ReactionNotAllowed(f"'{content}' is not an allowed reaction")
    return content


def add_reaction(repo_id: int, issue_id: int, comment_id: int, user_id: int, value: object) -> tuple[Reaction, bool]:
    """The caller's reaction and whether it is new (False: it existed, and is answered as it was)."""
    content = _content(value)
    with forge().db.transaction():
        row = store.find_reaction(issue_id, comment_id, user_id, content)
        if row is not None:
            return _reaction(row), False
        store.insert_reaction(
            repo_id=repo_id,
            issue_id=issue_id,
            comment_id=comment_id,
            user_id=user_id,
            content=content,
            now=now_seconds(),
        )
        created = store.find_reaction(issue_id, comment_id, user_id, content)
    if created is None:
        raise ReactionForbidden("the reaction could not be stored")
    return _reaction(created), True


def remove_reaction(issue_id: int, comment_id: int, user_id: int, value: object) -> None:
    """Remove the caller's reaction (nothing to do when there is none: still a success, as Gitea)."""
    content = value if isinstance(value, str) else ""
    with forge().db.transaction():
        store.delete_reaction(issue_id, comment_id, user_id, content)


def list_reactions(
    issue_id: int, comment_id: int, limit: int = MAX_ITEMS, offset: int = 0
) -> tuple[list[Reaction], int]:
    rows, total = store.reactions_of(issue_id, comment_id, REACTIONS, limit, offset)
    return [_reaction(row) for row in rows], total


def on_issue_deleted(event: IssueDeletedEvent) -> None:
    store.delete_where("issue_id", event.issue_id)


def on_comment_deleted(event: CommentDeletedEvent) -> None:
    store.delete_where("comment_id", event.comment_id)


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    with forge().db.transaction():
        store.delete_where("repo_id", event.repo_id)
