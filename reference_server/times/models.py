"""Tracked times (Gitea 1.27 routers/api/v1/repo/issue_tracked_time.go): who may track, list and delete.

Time tracking needs the repository's issues; only contributors track time (Gitea's default
AllowOnlyContributorsToTrackTime): writers of issues, the issue's poster and its assignees, else 403.
A repository administrator or a site administrator may add time for another user (``user_name``); anyone
else adds for themselves. A listing asks for others' times only as an issue writer or site admin; others
see their own times and get 403 when they name someone else. Entries are soft-deleted: by their owner or
a site administrator only.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from werkzeug.datastructures import MultiDict

from ..auth import Principal
from ..context import forge, now_seconds
from ..db import Row
from ..errors import BadRequest, Forbidden, NotFound, Unprocessable
from ..issues import models as issues
from ..permissions import Permission, permission
from ..repos.models import Repo
from ..users import models as users
from . import store

__all__ = [
    "add_time",
    "delete_time",
    "list_issue_times",
    "list_my_times",
    "list_repo_times",
    "list_user_times",
    "on_issue_deleted",
    "on_repo_deleted",
    "reset_times",
]

DISABLED = "time tracking disabled"
NOT_ALLOWED = "query by user not allowed; not enough rights"


def _enabled(repo: Repo) -> bool:
    """Time tracking lives in the issues unit (enabled by default, as Gitea's DefaultEnableTimetracking)."""
    return repo.has_issues


def _may_track(repo: Repo, issue: issues.Issue, principal: Principal) -> bool:
    access = permission(principal, repo)
    return access.can_write or issue.poster_id == principal.user_id or principal.user_id in issues.assignee_ids(issue)


def _guard(repo: Repo, issue: issues.Issue, principal: Principal) -> None:
    if not _may_track(repo, issue, principal):
        if not _enabled(repo):
            raise BadRequest(DISABLED)
        raise Forbidden("forbidden")


def _user_id(name: str) -> int:
    account = users.find_account(name)
    if account is None:
        raise NotFound(f"user does not exist [uid: 0, name: {name}]")
    return account.id


def _moment(args: MultiDict[str, str], key: str) -> int | None:
    raw = args.get(key, "").strip()
    if not raw:
        return None
    try:
        return int(datetime.fromisoformat(raw.replace("Z", "+00:00")).timestamp())
    except ValueError as exc:
        raise Unprocessable(f'parsing time "{raw}" as RFC 3339: cannot parse') from exc


def _filters(args: MultiDict[str, str], principal: Principal, access: Permission) -> dict[str, Any]:
    """The user, since and before of a listing, with Gitea's rule on asking for someone else's times."""
    name = args.get("user", "").strip()
    user_id = _user_id(name) if name else None
    since, before = _moment(args, "since"), _moment(args, "before")
    if not principal.is_admin and user_id != principal.user_id and not access.can_write:
        if user_id is not None:
            raise Forbidden(NOT_ALLOWED)
        user_id = principal.user_id
    return {"user_id": user_id, "since": since, "before": before}


def list_issue_times(
    repo: Repo, index: int, principal: Principal, args: MultiDict[str, str], *, limit: int, offset: int
) -> tuple[list[Row], int]:
    if not _enabled(repo):
        raise NotFound("Timetracker is disabled")
    issue = issues.get_issue(repo, index)
    filters = _filters(args, principal, permission(principal, repo))
    return store.find_times(repo.id, issue_id=issue.id, limit=limit, offset=offset, **filters)


def list_repo_times(
    repo: Repo, principal: Principal, args: MultiDict[str, str], *, limit: int, offset: int
) -> tuple[list[Row], int]:
    if not _enabled(repo):
        raise BadRequest(DISABLED)
    filters = _filters(args, principal, permission(principal, repo))
    return store.find_times(repo.id, limit=limit, offset=offset, **filters)


def list_my_times(principal: Principal, args: MultiDict[str, str], *, limit: int, offset: int) -> tuple[list[Row], int]:
    """The caller's own times in every repository, created within ``since`` and ``before``."""
    since, before = _moment(args, "since"), _moment(args, "before")
    return store.find_times(None, user_id=principal.user_id, since=since, before=before, limit=limit, offset=offset)


def list_user_times(repo: Repo, name: str, principal: Principal) -> list[Row]:
    """Every time of one user (not paged): the user, a repository administrator or a site admin."""
    if not _enabled(repo):
        raise BadRequest(DISABLED)
    user_id = _user_id(name)
    if not permission(principal, repo).is_admin and not principal.is_admin and principal.user_id != user_id:
        raise Forbidden(NOT_ALLOWED)
    return store.find_times(repo.id, user_id=user_id)[0]


def add_time(repo: Repo, index: int, principal: Principal, body: Mapping[str, Any]) -> Row:
    """Record ``time`` seconds (required, not 0) for the caller, or for ``user_name`` when an administrator asks."""
    issue = issues.get_issue(repo, index)
    _guard(repo, issue, principal)
    seconds = body.get("time")
    if not isinstance(seconds, int) or isinstance(seconds, bool) or seconds == 0:
        raise Unprocessable("[Time]: Required")
    user_id = principal.user_id
    name = body.get("user_name")
    if isinstance(name, str) and name:
        own = users.get_user(principal.user_id).name
        if (permission(principal, repo).is_admin and own != name) or principal.is_admin:
            user_id = _user_id(name)
    created = _moment(MultiDict({"created": body.get("created") or ""}), "created") or now_seconds()
    with forge().db.transaction():
        time_id = store.insert_time(repo.id, issue.id, user_id, created, seconds)
    row = store.time_row(time_id)
    assert row is not None
    return row


def reset_times(repo: Repo, index: int, principal: Principal) -> None:
    """Delete the caller's times on the issue; 404 when there are none."""
    issue = issues.get_issue(repo, index)
    _guard(repo, issue, principal)
    rows, _ = store.find_times(repo.id, issue_id=issue.id, user_id=principal.user_id)
    if not rows:
        raise NotFound("tracked time does not exist")
    with forge().db.transaction():
        store.mark_deleted([int(row["id"]) for row in rows])


def delete_time(repo: Repo, index: int, time_id: int, principal: Principal) -> None:
    """Delete one entry: its owner or a site administrator (a repository administrator may not)."""
    issue = issues.get_issue(repo, index)
    _guard(repo, issue, principal)
    row = store.time_row(time_id)
    if row is None or int(row["repo_id"]) != repo.id:
        raise NotFound("tracked time does not exist")
    if row["deleted"]:
        raise NotFound("tracked time was already deleted")
    if not principal.is_admin and int(row["user_id"]) != principal.user_id:
        raise Forbidden("forbidden")
    with forge().db.transaction():
        store.mark_deleted([time_id])


def on_issue_deleted(issue_id: int) -> None:
    """A deleted issue takes its tracked times (a listing would otherwise name a missing issue)."""
    store.delete_of_issue(issue_id)


def on_repo_deleted(repo_id: int) -> None:
    store.delete_of_repo(repo_id)
