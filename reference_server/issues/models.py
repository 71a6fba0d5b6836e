"""Issues (and the issue half of every pull request): creation with a per-repository index, listing,
editing with assignees and state, locking; Gitea's ``Issue`` is :mod:`.presenters`.

Comments and the timeline live in :mod:`.comments`; every state change adds a row of the ``comment``
table with Gitea's comment type, so the timeline is one query.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from ..auth import Principal, optional_principal
from ..context import forge, now_seconds
from ..db import Row
from ..events import IssueActionEvent, IssueAssignedEvent, IssueDeletedEvent
from ..milestones.models import set_issue_milestone
from ..permissions import Permission, can_be_assigned, permission
from ..repos import models as repos
from ..users import models as users
from ..users.errors import UserNotFound
from ..users.relations import refuse_if_blocked
from . import store
from .comments import Comment, CommentType, add_event
from .deadlines import change_deadline, end_of_day
from .errors import (
    AssigneeNotFound,
    CommentNotFound,
    InvalidIssueOption,
    IssueAlreadyChanged,
    IssueNotFound,
    IssuePermissionDenied,
)

__all__ = [
    "Issue",
    "assign",
    "assignee_ids",
    "close_merged",
    "create_issue",
    "delete_issue",
    "edit_issue",
    "get_comment",
    "get_issue",
    "get_issue_by_id",
    "list_issues",
    "repo_permission",
    "set_locked",
    "unassign",
]

MAX_TITLE = 255
STATES = ("open", "closed", "all")


@dataclass(frozen=True)
class Issue:
    """An issue or pull request row: ``index`` is its number in the repository."""

    id: int
    repo_id: int
    index: int
    poster_id: int
    title: str
    body: str
    is_pull: bool
    is_closed: bool
    is_locked: bool
    pin_order: int
    num_comments: int
    content_version: int
    created: int
    updated: int
    closed: int

    @classmethod
    def from_row(cls, row: Row) -> Issue:
        return cls(
            id=row["id"],
            repo_id=row["repo_id"],
            index=row["idx"],
            poster_id=row["poster_id"],
            title=row["title"],
            body=row["body"],
            is_pull=bool(row["is_pull"]),
            is_closed=bool(row["is_closed"]),
            is_locked=bool(row["is_locked"]),
            pin_order=row["pin_order"],
            num_comments=row["num_comments"],
            content_version=row["content_version"],
            created=row["created"],
            updated=row["updated"],
            closed=row["closed"],
        )

    @property
    def state(self) -> str:
        return "closed" if self.is_closed else "open"


def repo_permission(repo: repos.Repo) -> Permission:
    """What the request's caller may do with the repository's issues and pulls."""
    return permission(optional_principal(), repo)


def get_issue(repo: repos.Repo, index: int) -> Issue:
    """The issue or pull request number ``index`` of the repository; 404 otherwise."""
    row = store.issue_by_index(repo.id, index)
    if row is None:
        raise IssueNotFound(f"issue does not exist [repo_id: {repo.id}, index: {index}]")
    return Issue.from_row(row)


def get_issue_by_id(issue_id: int) -> Issue:
    row = store.issue_by_id(issue_id)
    if row is None:
        raise IssueNotFound(f"issue does not exist [id: {issue_id}]")
    return Issue.from_row(row)


def get_comment(repo: repos.Repo, comment_id: int) -> tuple[Comment, Issue]:
    """A comment of one of the repository's issues or pulls, with its issue; 404 for any other."""
    row = store.comment_by_id(comment_id)
    if row is not None:
        issue = get_issue_by_id(row["issue_id"])
        if issue.repo_id == repo.id:
            return Comment.from_row(row), issue
    raise CommentNotFound(f"comment does not exist [id: {comment_id}]")


# -- validation ------------------------------------------------------------------------------------


def _text(options: Mapping[str, Any], key: str, default: str = "") -> str:
    value = options.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidIssueOption(f"[{key[:1].upper()}{key[1:]}]: must be a string")
    return value


def _title(options: Mapping[str, Any]) -> str:
    title = _text(options, "title").strip()
    if not title:
        raise InvalidIssueOption("[Title]: Required")
    if len(title) > MAX_TITLE:
        raise InvalidIssueOption(f"[Title]: MaxSize({MAX_TITLE})")
    return title


def _assignee_names(options: Mapping[str, Any]) -> list[str] | None:
    """``assignees`` (and the deprecated single ``assignee``) as names, or None when neither is given."""
    if "assignees" not in options and "assignee" not in options:
        return None
    names: list[str] = []
    single = options.get("assignee")
    if single not in (None, ""):
        if not isinstance(single, str):
            raise InvalidIssueOption("[Assignee]: must be a string")
        names.append(single)
    many = options.get("assignees")
    if many is not None:
        if not isinstance(many, list) or not all(isinstance(name, str) for name in many):
            raise InvalidIssueOption("[Assignees]: must be a list of user names")
        names += [name for name in many if name]
    return names


def _assignable_ids(repo: repos.Repo, names: list[str]) -> list[int]:
    """The ids of the named users, each of whom must exist (422) and be assignable in the repository (422,
    by the one rule of :func:`..permissions.can_be_assigned`)."""
    ids: list[int] = []
    for name in names:
        try:
            user = users.get_user_by_name(name)
        except UserNotFound:
            raise AssigneeNotFound(f"Assignee does not exist: [name: {name}]") from None
        if not can_be_assigned(user, repo):
            raise InvalidIssueOption(f"user doesn't have access to repo [user_id: {user.id}, repo_name: {repo.name}]")
        if user.id not in ids:
            ids.append(user.id)
    return ids


def assignee_ids(issue: Issue) -> list[int]:
    """The ids of the issue's assignees, in the order they were assigned."""
    return store.assignee_ids(issue.id)


def assign(issue_id: int, user_ids: list[int], doer_id: int) -> None:
    """Assign each user not yet assigned, with an ``assignees`` timeline entry each; joins the caller's transaction."""
    with forge().db.transaction():
        current = store.assignee_ids(issue_id)
        for user_id in user_ids:
            if user_id not in current:
                store.add_assignee(issue_id, user_id)
                event_id = add_event(issue_id, CommentType.ASSIGNEES, doer_id, assignee_id=user_id)
                current.append(user_id)
                repo_id = get_issue_by_id(issue_id).repo_id
                forge().events.publish(IssueAssignedEvent(repo_id, issue_id, doer_id, user_id, event_id))


def unassign(issue_id: int, user_ids: list[int], doer_id: int) -> None:
    """Unassign each assigned user, with an ``assignees`` entry marked ``removed_assignee`` each (others skipped)."""
    with forge().db.transaction():
        current = store.assignee_ids(issue_id)
        for user_id in user_ids:
            if user_id in current:
                store.remove_assignee(issue_id, user_id)
                add_event(issue_id, CommentType.ASSIGNEES, doer_id, assignee_id=user_id, removed_assignee=1)
                current.remove(user_id)


def _replace_assignees(issue_id: int, wanted: list[int], doer_id: int) -> None:
    """Make the assignee set ``wanted``: first the removals, then the additions, as Gitea's ``UpdateAssignees``."""
    current = store.assignee_ids(issue_id)
    unassign(issue_id, [user_id for user_id in current if user_id not in wanted], doer_id)
    assign(issue_id, wanted, doer_id)


# -- operations ------------------------------------------------------------------------------------


def create_issue(repo: repos.Repo, options: Mapping[str, Any], principal: Principal, *, is_pull: bool = False) -> Issue:
    """Create an issue (or a pull request's issue) with the next index; assignees and ``closed`` are
    honoured only for callers who can write, as Gitea does. Call inside the caller's transaction for a pull."""
    title = _title(options)
    body = _text(options, "body")
    names = _assignee_names(options)
    refuse_if_blocked(principal.user_id, repo.owner_id)
    can_write = repo_permission(repo).can_write
    closed = bool(options.get("closed")) and can_write and not is_pull
    with forge().db.transaction():
        assignees = _assignable_ids(repo, names) if names and can_write else []
        now = now_seconds()
        issue_id = store.insert_issue(
            repo_id=repo.id,
            index=store.next_index(repo.id),
            poster_id=principal.user_id,
            title=title,
            body=body,
            is_pull=is_pull,
            closed=closed,
            now=now,
        )
        _replace_assignees(issue_id, assignees, principal.user_id)
        if can_write:
            _writer_fields(repo, issue_id, options, principal)
        forge().events.publish(IssueActionEvent(repo.id, issue_id, principal.user_id, "opened"))
    return get_issue_by_id(issue_id)


def list_issues(
    repo: repos.Repo, *, state: str, kind: str, keyword: str, limit: int, offset: int
) -> tuple[list[Issue], int]:
    """A page of the repository's issues and/or pulls (``kind`` ``issues``, ``pulls`` or anything else: both)."""
    is_pull = {"issues": False, "pulls": True}.get(kind)
    rows, total = store.issue_rows(
        repo.id,
        state=state if state in STATES else "open",
        is_pull=is_pull,
        keyword=keyword,
        ids=None,
        limit=limit,
        offset=offset,
    )
    return [Issue.from_row(row) for row in rows], total


def edit_issue(repo: repos.Repo, issue: Issue, options: Mapping[str, Any], principal: Principal) -> Issue:
    """Apply an ``EditIssueOption``: the poster or a writer changes title, body and state; only writers change
    assignees (silently ignored for others, as Gitea). Every change is recorded in the timeline."""
    can_write = repo_permission(repo).can_write
    if not can_write and issue.poster_id != principal.user_id:
        raise IssuePermissionDenied("user should be the poster of the issue or have permission to write to it")
    fields: dict[str, Any] = {}
    if options.get("title") is not None:
        fields["title"] = _title(options)
    if options.get("body") is not None:
        fields["body"] = _text(options, "body")
    state = options.get("state")
    if state is not None and state not in ("open", "closed"):
        raise InvalidIssueOption(f"[State]: must be open or closed, not {state!r}")
    names = _assignee_names(options) if can_write else None
    with forge().db.transaction():
        if "body" in fields:  # checked first: a stale edit changes nothing and announces nothing
            fields["content_version"] = _next_content_version(issue.id, options)
        assignees = _assignable_ids(repo, names) if names is not None else None
        now = now_seconds()
        if "title" in fields and fields["title"] != issue.title:
            add_event(
                issue.id, CommentType.CHANGE_TITLE, principal.user_id, old_title=issue.title, new_title=fields["title"]
            )
        if state is not None and (state == "closed") != issue.is_closed:
            fields["is_closed"] = int(state == "closed")
            fields["closed"] = now if state == "closed" else 0
            kind, action = (CommentType.CLOSE, "closed") if state == "closed" else (CommentType.REOPEN, "reopened")
            event_id = add_event(issue.id, kind, principal.user_id)
            forge().events.publish(IssueActionEvent(repo.id, issue.id, principal.user_id, action, event_id))
        if assignees is not None:
            _replace_assignees(issue.id, assignees, principal.user_id)
        if can_write:
            _writer_fields(repo, issue.id, options, principal)
        store.update_issue(issue.id, fields, now)
    return get_issue_by_id(issue.id)


def _next_content_version(issue_id: int, options: Mapping[str, Any]) -> int:
    """Gitea's ``ChangeIssueContent``: every body edit (the title never) counts one more version; a given
    ``content_version`` other than the stored one is a stale edit (409). Joins the caller's transaction."""
    current = get_issue_by_id(issue_id).content_version
    expected = options.get("content_version")
    if expected is None:
        return current + 1
    if isinstance(expected, bool) or not isinstance(expected, int):
        raise InvalidIssueOption("[ContentVersion]: must be an integer")
    if expected != current:
        raise IssueAlreadyChanged()
    return current + 1


def _writer_fields(repo: repos.Repo, issue_id: int, options: Mapping[str, Any], principal: Principal) -> None:
    """What only writers set on create and edit, as Gitea: ``milestone`` (0: none) and ``due_date``
    (``unset_due_date`` removes it); others' values are ignored. Joins the caller's transaction."""
    if "milestone" in options and options["milestone"] is not None:
        old, new = set_issue_milestone(repo.id, issue_id, options["milestone"])
        if old != new:
            add_event(issue_id, CommentType.MILESTONE, principal.user_id, old_milestone_id=old, milestone_id=new)
    if options.get("unset_due_date") is True:
        change_deadline(issue_id, 0, principal.user_id)
    elif options.get("due_date") is not None:
        change_deadline(issue_id, end_of_day(options["due_date"]), principal.user_id)


def delete_issue(repo: repos.Repo, issue: Issue) -> None:
    """Delete an issue or pull request with everything hanging off it: its comments, assignments and deadline
    here, its reactions, attachments (files too) and milestone membership through ``IssueDeletedEvent``."""
    with forge().db.transaction():
        forge().events.publish(IssueDeletedEvent(repo.id, issue.id))
        store.delete_issue(issue.id)


def close_merged(issue: Issue, doer_id: int, merge_commit: str) -> None:
    """Close a merged pull request's issue with Gitea's ``merge_pull`` timeline entry (not ``close``);
    joins the caller's transaction."""
    now = now_seconds()
    with forge().db.transaction():
        store.update_issue(issue.id, {"is_closed": 1, "closed": now}, now)
        add_event(issue.id, CommentType.MERGE_PULL, doer_id, commit_sha=merge_commit)
        forge().events.publish(IssueActionEvent(issue.repo_id, issue.id, doer_id, "merged"))


def set_locked(issue: Issue, locked: bool, reason: str, principal: Principal) -> None:
    """Lock (with an optional reason) or unlock; idempotent: no change and no timeline entry when already so."""
    with forge().db.transaction():
        current = get_issue_by_id(issue.id)
        if current.is_locked == locked:
            return
        store.update_issue(issue.id, {"is_locked": int(locked)}, now_seconds())
        add_event(issue.id, CommentType.LOCK if locked else CommentType.UNLOCK, principal.user_id, content=reason)


def delete_issues_of_repo(repo_id: int) -> None:
    """Drop every issue, pull issue, comment and assignment of a deleted repository."""
    with forge().db.transaction():
        store.delete_issues_of_repo(repo_id)


# -- paths ---------------------------------------------------------------------------------------


def issue_web_path(repo: repos.Repo, issue: Issue) -> str:
    """``owner/repo/issues/N`` or ``owner/repo/pulls/N``, quoted."""
    kind = "pulls" if issue.is_pull else "issues"
    return f"{quote(repo.owner_name)}/{quote(repo.name)}/{kind}/{issue.index}"


def issue_api_path(repo: repos.Repo, issue: Issue) -> str:
    return f"repos/{quote(repo.owner_name)}/{quote(repo.name)}/issues/{issue.index}"
