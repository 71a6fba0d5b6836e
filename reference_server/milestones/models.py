"""Milestones: Gitea's rules (found by id, or by name when no milestone has that id; closing stamps the close
time; a deadline far in the future means none) and which milestone an issue belongs to."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..context import forge, now_seconds
from ..db import Row
from ..events import IssueDeletedEvent, RepoDeletedEvent
from ..repos import models as repos
from ..timefmt import parse_iso
from . import store
from .errors import InvalidMilestoneOption, MilestoneNotFound, UnknownIssueMilestone

__all__ = [
    "NO_DEADLINE",
    "Milestone",
    "create_milestone",
    "delete_milestone",
    "edit_milestone",
    "find_milestone",
    "list_milestones",
    "milestone_by_id",
    "milestone_of_issue",
    "on_issue_deleted",
    "on_repo_deleted",
    "set_issue_milestone",
]

NO_DEADLINE = 253402214400
"""9999-12-31T00:00:00Z: Gitea's deadline of a milestone created without one (shown as no ``due_on``)."""


@dataclass(frozen=True)
class Milestone:
    """A milestone with the counts of the open and closed issues assigned to it."""

    id: int
    repo_id: int
    name: str
    content: str
    is_closed: bool
    deadline: int
    created: int
    updated: int
    closed: int
    open_issues: int
    closed_issues: int

    @property
    def state(self) -> str:
        return "closed" if self.is_closed else "open"


def _milestone(row: Row) -> Milestone:
    open_issues, closed_issues = store.issue_counts(row["id"])
    return Milestone(
        id=row["id"],
        repo_id=row["repo_id"],
        name=row["name"],
        content=row["content"],
        is_closed=bool(row["is_closed"]),
        deadline=row["deadline"],
        created=row["created"],
        updated=row["updated"],
        closed=row["closed"],
        open_issues=open_issues,
        closed_issues=closed_issues,
    )


def _text(options: Mapping[str, Any], key: str) -> str | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidMilestoneOption(f"[{key[:1].upper()}{key[1:]}]: must be a string")
    return value


def _deadline(options: Mapping[str, Any]) -> int | None:
    """``due_on`` in Unix seconds, None when absent (422 when it is not a time)."""
    value = options.get("due_on")
    if value is None:
        return None
    try:
        return parse_iso(value) if isinstance(value, str) else int("bad")
    except ValueError:
        raise InvalidMilestoneOption("[DueOn]: must be an RFC 3339 time") from None


def find_milestone(repo: repos.Repo, key: str) -> Milestone:
    """Gitea's ``getMilestoneByIDOrName``: the milestone of that id, else the one of that name; 404 otherwise."""
    row = None
    if key.isdigit() and int(key):
        row = store.milestone_in_repo(repo.id, int(key))
    if row is None:
        row = store.milestone_by_name(repo.id, key)
    if row is None:
        raise MilestoneNotFound()
    return _milestone(row)


def list_milestones(repo: repos.Repo, *, state: str, name: str, limit: int, offset: int) -> tuple[list[Milestone], int]:
    """``state`` closed, all, or anything else: open (Gitea's default)."""
    closed = {"closed": True, "all": None}.get(state, False)
    rows, total = store.milestones_of_repo(repo.id, closed=closed, name=name, limit=limit, offset=offset)
    return [_milestone(row) for row in rows], total


def create_milestone(repo: repos.Repo, options: Mapping[str, Any]) -> Milestone:
    """``CreateMilestoneOption``: ``state`` closed creates it closed; no ``due_on`` means no deadline."""
    deadline = _deadline(options)
    closed = _text(options, "state") == "closed"
    now = now_seconds()
    with forge().db.transaction():
        milestone_id = store.insert_milestone(
            {
                "repo_id": repo.id,
                "name": _text(options, "title") or "",
                "content": _text(options, "description") or "",
                "is_closed": int(closed),
                "deadline": NO_DEADLINE if deadline is None else deadline,
                "created": now,
                "updated": now,
                "closed": now if closed else 0,
            }
        )
    return find_milestone(repo, str(milestone_id))


def edit_milestone(repo: repos.Repo, milestone: Milestone, options: Mapping[str, Any]) -> Milestone:
    """``EditMilestoneOption``: a non-empty title renames; a ``state`` other than closed reopens (as Gitea)."""
    fields: dict[str, Any] = {}
    title = _text(options, "title")
    if title:
        fields["name"] = title
    description = _text(options, "description")
    if description is not None:
        fields["content"] = description
    deadline = _deadline(options)
    if deadline:
        fields["deadline"] = deadline
    state = _text(options, "state")
    now = now_seconds()
    if state is not None and (state == "closed") != milestone.is_closed:
        fields["is_closed"] = int(state == "closed")
        fields["closed"] = now if state == "closed" else 0
    fields["updated"] = now
    with forge().db.transaction():
        store.update_milestone(milestone.id, fields)
    return find_milestone(repo, str(milestone.id))


def delete_milestone(milestone: Milestone) -> None:
    """Delete the milestone; its issues stay, in no milestone."""
    with forge().db.transaction():
        store.delete_milestone(milestone.id)


def milestone_by_id(milestone_id: int) -> Milestone | None:
    """Any milestone by its id (a timeline entry's, whose milestone may be gone: None)."""
    row = store.milestone_by_id(milestone_id) if milestone_id else None
    return None if row is None else _milestone(row)


def milestone_of_issue(issue_id: int) -> Milestone | None:
    row = store.milestone_of_issue(issue_id)
    return None if row is None else _milestone(row)


def set_issue_milestone(repo_id: int, issue_id: int, milestone_id: object) -> tuple[int, int]:
    """Put an issue in one of its repository's milestones (0 or null: none); 422 for a milestone the repository
    does not have. The ids of the milestone before and after (0: none). Joins the caller's transaction."""
    row = store.milestone_of_issue(issue_id)
    old = int(row["id"]) if row is not None else 0
    if milestone_id is None or milestone_id == 0:
        store.set_issue_milestone(issue_id, 0)
        return old, 0
    if not isinstance(milestone_id, int) or isinstance(milestone_id, bool):
        raise InvalidMilestoneOption("[Milestone]: must be a milestone id")
    if store.milestone_in_repo(repo_id, milestone_id) is None:
        raise UnknownIssueMilestone(f"milestone does not exist [id: {milestone_id}, repo_id: {repo_id}]")
    store.set_issue_milestone(issue_id, milestone_id)
    return old, milestone_id


def on_issue_deleted(event: IssueDeletedEvent) -> None:
    """A deleted issue leaves its milestone's counts."""
    store.set_issue_milestone(event.issue_id, 0)


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    with forge().db.transaction():
        store.delete_milestones_of_repo(event.repo_id)
