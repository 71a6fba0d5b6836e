"""Activity feeds: actions recorded from the event bus, and who sees which of them.

One row is stored per action (Gitea stores one per receiver); a feed is a query:

- a user's feed: what the user did, plus what anybody did in repositories the user owns
  (``only-performed-by=true``: only what the user did);
- a repository's feed: everything done in it; an organization's feed: everything done in its
  repositories; a team's feed: everything done in the team's repositories.

Whatever the feed, a viewer sees only actions of repositories they can read (site admins see all), and
actions of users who hide their activity (``hide_activity``) only when they are that user. A private
repository's actions appear in a user's feed only for that user and site admins, in an organization's
feed only for its members and site admins (Gitea's ``IncludePrivate``). A user who hides their activity
has an empty feed for everybody else.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from ..auth import Principal, optional_principal
from ..context import forge, now_seconds
from ..db import Row
from ..errors import ApiError
from ..events import (
    AccountDeletedEvent,
    IssueActionEvent,
    PushEvent,
    RepoCreatedEvent,
    RepoDeletedEvent,
    RepoRenamedEvent,
)
from ..gitcli import ZERO_SHA
from ..issues import models as issues
from ..issues.models import get_comment
from ..permissions import is_org_member, permission
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..timefmt import iso
from ..users import models as users
from ..users.settings import get_settings
from . import store
from .errors import InvalidFeedDate
from .store import FeedQuery

__all__ = [
    "Action",
    "FeedQuery",
    "heatmap",
    "list_feed",
    "org_feed_query",
    "parse_date",
    "repo_feed_query",
    "team_feed_query",
    "user_feed_query",
]

log = logging.getLogger("reference_server.feeds")

FEED_MAX_COMMITS = 5
"""Commits kept in a ``commit_repo`` action's content (Gitea's ``UI.FEED_MAX_COMMIT_NUM``)."""
NEW_BRANCH_COMMITS = 10
"""How far back a new branch's history is listed (Gitea's ``CommitsBeforeLimit(10)``)."""
COMMENT_EXCERPT = 200
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DAY_SECONDS = 86400


@dataclass(frozen=True)
class Action:
    """One recorded action; ``op_type`` is Gitea's name (``create_repo``, ``commit_repo``...)."""

    id: int
    op_type: str
    act_user_id: int
    repo_id: int
    comment_id: int
    ref_name: str
    is_private: bool
    content: str
    created: int

    @classmethod
    def from_row(cls, row: Row) -> Action:
        return cls(
            id=row["id"],
            op_type=row["op_type"],
            act_user_id=row["act_user_id"],
            repo_id=row["repo_id"],
            comment_id=row["comment_id"],
            ref_name=row["ref_name"],
            is_private=bool(row["is_private"]),
            content=row["content"],
            created=row["created"],
        )


# -- recording -------------------------------------------------------------------------------------


def _record(
    repo: repos.Repo, op_type: str, actor_id: int, *, comment_id: int = 0, ref_name: str = "", content: str = ""
) -> None:
    """Store one action of ``repo`` (joins the caller's transaction)."""
    with forge().db.transaction():
        store.insert_action(
            op_type=op_type,
            act_user_id=actor_id,
            repo_id=repo.id,
            comment_id=comment_id,
            ref_name=ref_name,
            is_private=repo.private,
            content=content,
            now=now_seconds(),
        )


def _after_commit(listener: Callable[[Any], None]) -> Callable[[Any], None]:
    """For events published after the change is stored: a failure to record is logged, never the caller's."""

    def run(event: Any) -> None:
        try:
            listener(event)
        except ApiError:
            log.warning("feeds: %s ignored %r", listener.__name__, event, exc_info=True)
        except Exception:
            log.exception("feeds: %s failed on %r", listener.__name__, event)

    run.__name__ = listener.__name__
    return run


def _request_actor(fallback: int) -> int:
    principal = optional_principal()
    return principal.user_id if principal is not None else fallback


def on_repo_created(event: RepoCreatedEvent) -> None:
    """``create_repo`` by the creator (the request's caller when the event does not say; else the owner)."""
    repo = repos.get_repo_by_id(event.repo_id)
    _record(repo, "create_repo", event.doer_id or _request_actor(repo.owner_id))


def on_repo_renamed(event: RepoRenamedEvent) -> None:
    """``rename_repo`` whose content is the old name, as Gitea records it."""
    repo = repos.get_repo_by_id(event.repo_id)
    _record(repo, "rename_repo", event.doer_id or repo.owner_id, content=event.old_name)


def _push_commit(info: Any) -> dict[str, Any]:
    return {
        "Sha1": info.sha,
        "Message": info.message,
        "AuthorEmail": info.author_email,
        "AuthorName": info.author_name,
        "CommitterEmail": info.committer_email,
        "CommitterName": info.committer_name,
        "Timestamp": iso(info.author_time),
    }


def push_commits_content(repo: repos.Repo, before: str, after: str) -> str:
    """Gitea's ``PushCommits`` JSON: the newest commits (at most 5), the head commit, the compare path
    (``owner/repo/compare/old...new`` for an update of more than one commit) and how many were pushed."""
    git = repo.git
    new_branch = before == ZERO_SHA
    if new_branch:
        listed = git.run("rev-list", f"--max-count={NEW_BRANCH_COMMITS}", "--end-of-options", after).stdout
        shas = listed.decode().split()
    else:
        shas = git.commits_between(before, after)
    commits = [_push_commit(git.commit_info(sha)) for sha in shas[:FEED_MAX_COMMITS]]
    compare = ""
    if not new_branch and len(shas) > 1:
        compare = f"{quote(repo.owner_name)}/{quote(repo.name)}/compare/{before}...{after}"
    payload = {
        "Commits": commits,
        "HeadCommit": commits[0] if commits else None,
        "CompareURL": compare,
        "Len": len(shas),
    }
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def on_push(event: PushEvent) -> None:
    """``commit_repo`` (with ``PushCommits``), ``delete_branch``, ``push_tag`` or ``delete_tag``; ``ref_name``
    is the full ref, as Gitea 1.27 stores it. Other refs (``refs/pull/...``) are not activity."""
    repo = repos.get_repo_by_id(event.repo_id)
    if event.ref.startswith("refs/heads/"):
        if event.after == ZERO_SHA:
            _record(repo, "delete_branch", event.pusher_id, ref_name=event.ref)
        else:
            content = push_commits_content(repo, event.before, event.after)
            _record(repo, "commit_repo", event.pusher_id, ref_name=event.ref, content=content)
    elif event.ref.startswith("refs/tags/"):
        op_type = "delete_tag" if event.after == ZERO_SHA else "push_tag"
        _record(repo, op_type, event.pusher_id, ref_name=event.ref)


ISSUE_OPS = {
    ("opened", False): "create_issue",
    ("opened", True): "create_pull_request",
    ("commented", False): "comment_issue",
    ("commented", True): "comment_pull",
    ("closed", False): "close_issue",
    ("closed", True): "close_pull_request",
    ("reopened", False): "reopen_issue",
    ("reopened", True): "reopen_pull_request",
    ("merged", True): "merge_pull_request",
}


def on_issue_action(event: IssueActionEvent) -> None:
    """An issue or pull action, inside the acting transaction. Content as Gitea writes it:
    ``index|title`` when opened or merged, ``index|`` when closed or reopened, ``index|comment`` (cut at
    200 characters) for a comment."""
    issue = issues.get_issue_by_id(event.issue_id)
    op_type = ISSUE_OPS.get((event.action, issue.is_pull))
    if op_type is None:
        return
    repo = repos.get_repo_by_id(event.repo_id)
    detail = ""
    if event.action in ("opened", "merged"):
        detail = issue.title
    elif event.action == "commented":
        comment, _ = get_comment(repo, event.comment_id)
        detail = comment.content
        if len(detail) > COMMENT_EXCERPT:
            detail = detail[: COMMENT_EXCERPT - 1] + "…"
    _record(repo, op_type, event.doer_id, comment_id=event.comment_id, content=f"{issue.index}|{detail}")


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's actions go with it."""
    with forge().db.transaction():
        store.delete_actions_of_repo(event.repo_id)


def on_account_deleted(event: AccountDeletedEvent) -> None:
    """A deleted account's own actions go with it (Gitea deletes them too)."""
    with forge().db.transaction():
        store.delete_actions_of_actor(event.account_id)


def subscribe() -> None:
    """Listen to the events that are activity."""
    events = forge().events
    events.subscribe(RepoCreatedEvent, _after_commit(on_repo_created))
    events.subscribe(PushEvent, _after_commit(on_push))
    events.subscribe(RepoRenamedEvent, on_repo_renamed)
    events.subscribe(IssueActionEvent, on_issue_action)
    events.subscribe(RepoDeletedEvent, on_repo_deleted)
    events.subscribe(AccountDeletedEvent, on_account_deleted)


# -- reading ---------------------------------------------------------------------------------------


def parse_date(value: str | None) -> tuple[int | None, int | None]:
    """``date`` (``YYYY-MM-DD``, a UTC day) as inclusive Unix bounds; 400 when malformed (Gitea ignores it)."""
    if value is None or value == "":
        return None, None
    try:
        if not DATE.match(value):
            raise ValueError(value)
        day = datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise InvalidFeedDate(f'invalid date "{value}": use YYYY-MM-DD') from None
    start = int(day.timestamp())
    return start, start + DAY_SECONDS - 1


def _hidden_actors_viewer(viewer: Principal | None) -> int | None:
    if viewer is None:
        return -1
    return None if viewer.is_admin else viewer.user_id


def user_feed_query(user: users.User, viewer: Principal | None, *, only_performed_by: bool) -> FeedQuery | None:
    """The feed of a user (or of an organization asked for as a user); None when the user hides it."""
    is_self_or_admin = viewer is not None and (viewer.is_admin or viewer.user_id == user.id)
    if not is_self_or_admin and not user.is_org and get_settings(user.id).hide_activity:
        return None
    if only_performed_by:
        return FeedQuery(performed_by=user.id, include_private=is_self_or_admin)
    return FeedQuery(receiver=user.id, include_private=is_self_or_admin)


def repo_feed_query(repo: repos.Repo) -> FeedQuery:
    """Everything done in one repository (its readers see private actions too)."""
    return FeedQuery(repo_ids=(repo.id,))


def org_feed_query(org: users.User, viewer: Principal | None) -> FeedQuery:
    """Everything done in the organization's repositories; private ones for members and site admins."""
    member = viewer is not None and (viewer.is_admin or is_org_member(viewer.user_id, org.id))
    return FeedQuery(owner_id=org.id, include_private=member)


def team_feed_query(team_repo_ids: list[int]) -> FeedQuery:
    """Everything done in the team's repositories."""
    return FeedQuery(repo_ids=tuple(team_repo_ids))


def _readable_repo_ids(query: FeedQuery, viewer: Principal | None) -> tuple[int, ...]:
    ids = []
    for repo_id in store.repo_ids_matching(query):
        try:
            repo = repos.get_repo_by_id(repo_id)
        except RepoNotFound:
            continue
        if permission(viewer, repo).can_read:
            ids.append(repo_id)
    return tuple(ids)


def list_feed(
    query: FeedQuery | None, viewer: Principal | None, *, date: str | None, limit: int, offset: int
) -> tuple[list[Action], int]:
    """A page of a feed, newest first, as ``viewer`` may see it, and the number of actions in all."""
    since, until = parse_date(date)
    if query is None:
        return [], 0
    query = replace(query, since=since, until=until, hide_private_actors_from=_hidden_actors_viewer(viewer))
    if viewer is None or not viewer.is_admin:
        query = replace(query, repo_ids=_readable_repo_ids(query, viewer))
    rows, total = store.actions_page(query, limit, offset)
    return [Action.from_row(row) for row in rows], total


HEATMAP_DAYS = 366
"""Gitea's heatmap covers the last 366 days."""


def heatmap(user: users.User, viewer: Principal | None) -> list[tuple[int, int]]:
    """The user's actions per quarter hour over the last year, in repositories the viewer may read; nothing
    when the user hides its activity from the viewer (Gitea's ``ActivityReadable``)."""
    query = user_feed_query(user, viewer, only_performed_by=True)
    if query is None:
        return []
    query = replace(query, include_private=True, since=now_seconds() - HEATMAP_DAYS * DAY_SECONDS)
    if viewer is None or not viewer.is_admin:
        query = replace(query, repo_ids=_readable_repo_ids(query, viewer))
    return store.heatmap_counts(query)
