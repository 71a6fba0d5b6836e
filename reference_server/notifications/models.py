"""Notification threads as Gitea makes them (``models/activities/notification.go``, ``services/uinotification``).

One thread per user and issue (or release). What happens to an issue or pull request reaches the issue's
explicit watchers, the repository's watchers (not for a work-in-progress pull) and its participants, minus
the actor and whoever unsubscribed; an assignment reaches the assignee, a review request the reviewer, a
mention the mentioned user, a published release the repository's watchers and its owner. Only users who can
read the issues (or pulls) of the repository get a thread; a thread that exists is set unread again and
points at the newest comment (a pinned one stays pinned). Listings hide threads of repositories the user can
no longer read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from werkzeug.datastructures import MultiDict

from ..auth import ALL_SCOPES, Principal
from ..context import forge, now_seconds
from ..db import Row
from ..errors import BadRequest
from ..events import IssueActionEvent, IssueAssignedEvent, ReleasePublishedEvent, ReviewRequestedEvent
from ..issues import models as issues
from ..permissions import permission
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..timefmt import parse_query_time
from ..users import models as users
from ..users.errors import UserNotFound
from . import store, watches
from .errors import NotThreadOwner, ThreadNotFound

__all__ = [
    "PINNED",
    "READ",
    "SOURCES",
    "UNREAD",
    "count_unread",
    "get_thread",
    "list_threads",
    "mark_thread",
    "mark_threads",
    "on_issue_action",
    "on_issue_assigned",
    "on_release_published",
    "on_review_requested",
]

UNREAD, READ, PINNED = 1, 2, 3
STATUSES = {"unread": UNREAD, "read": READ, "pinned": PINNED}
ISSUE, PULL, COMMIT, REPOSITORY, RELEASE = 1, 2, 3, 4, 5
SOURCES = {"issue": ISSUE, "pull": PULL, "commit": COMMIT, "repository": REPOSITORY, "release": RELEASE}
WIP_PREFIXES = ("wip:", "[wip]")
MENTION = re.compile(r"(?:^|[\s(\[])@([0-9A-Za-z_](?:[0-9A-Za-z_.-]*[0-9A-Za-z_])?)")


def _reader(user_id: int, repo: repos.Repo, *, pull: bool | None) -> bool:
    """Whether the user can read the repository's issues (``pull`` False), pull requests (True) or
    repository (None)."""
    try:
        account = users.get_user(user_id)
    except UserNotFound:
        return False
    if account.is_org or not account.active:
        return False
    if pull is not None and not (repo.has_pull_requests if pull else repo.has_issues):
        return False
    return permission(Principal(account.id, account.name, account.is_admin, ALL_SCOPES), repo).can_read


def _notify_issue(
    repo: repos.Repo, issue: issues.Issue, doer_id: int, comment_id: int, receivers: Iterable[int]
) -> None:
    """Create or refresh the thread of each receiver who can read the issue (joins the caller's transaction)."""
    now = now_seconds()
    source = PULL if issue.is_pull else ISSUE
    for user_id in dict.fromkeys(receivers):
        if not _reader(user_id, repo, pull=issue.is_pull):
            continue
        row = store.thread_of(user_id, issue_id=issue.id)
        if row is None:
            store.insert_thread(
                user_id,
                repo.id,
                source,
                UNREAD,
                now,
                issue_id=issue.id,
                comment_id=comment_id,
                release_id=0,
                updated_by=doer_id,
            )
        elif row["status"] == READ:
            store.update_thread(row["id"], status=UNREAD, comment_id=comment_id, updated_by=doer_id, now=now)
        else:
            store.update_thread(
                row["id"], status=row["status"], comment_id=row["comment_id"], updated_by=doer_id, now=now
            )


def _followers(repo: repos.Repo, issue: issues.Issue, doer_id: int) -> list[int]:
    """Gitea's receivers of an issue's news: explicit watchers, repository watchers (unless the pull is a work
    in progress), participants; minus the actor and whoever unsubscribed."""
    found = list(store.watcher_ids(issue.id, True))
    if not (issue.is_pull and issue.title.lower().startswith(WIP_PREFIXES)):
        found += watches.repo_watcher_ids(repo.id)
    found += watches.participant_ids(issue)
    unwatching = set(store.watcher_ids(issue.id, False))
    return [user_id for user_id in dict.fromkeys(found) if user_id != doer_id and user_id not in unwatching]


def _mentioned(repo: repos.Repo, issue: issues.Issue, text: str, doer_id: int) -> list[int]:
    """The users ``@named`` in ``text`` who can read the issue, recorded as mentioned (not the actor)."""
    found: list[int] = []
    for name in dict.fromkeys(MENTION.findall(text)):
        account = users.find_account(name)
        if account is None or account.is_org or account.id == doer_id:
            continue
        if _reader(account.id, repo, pull=issue.is_pull):
            store.add_mention(issue.id, account.id)
            found.append(account.id)
    return found


def on_issue_action(event: IssueActionEvent) -> None:
    """Opened, commented, closed, reopened, merged: the issue's followers (and the mentioned) are told."""
    repo = repos.get_repo_by_id(event.repo_id)
    issue = issues.get_issue_by_id(event.issue_id)
    mentioned: list[int] = []
    if event.action == "opened":
        mentioned = _mentioned(repo, issue, issue.body, event.doer_id)
    elif event.action == "commented":
        comment, _ = issues.get_comment(repo, event.comment_id)
        mentioned = _mentioned(repo, issue, comment.content, event.doer_id)
    comment_id = event.comment_id if event.action in ("commented", "reviewed") else 0
    _notify_issue(repo, issue, event.doer_id, comment_id, [*_followers(repo, issue, event.doer_id), *mentioned])


def on_issue_assigned(event: IssueAssignedEvent) -> None:
    """The assignee is told, unless it assigned itself."""
    if event.assignee_id == event.doer_id:
        return
    repo = repos.get_repo_by_id(event.repo_id)
    _notify_issue(repo, issues.get_issue_by_id(event.issue_id), event.doer_id, event.comment_id, [event.assignee_id])


def on_review_requested(event: ReviewRequestedEvent) -> None:
    """The reviewer asked for a review is told."""
    repo = repos.get_repo_by_id(event.repo_id)
    _notify_issue(repo, issues.get_issue_by_id(event.issue_id), event.doer_id, event.comment_id, [event.reviewer_id])


def on_release_published(event: ReleasePublishedEvent) -> None:
    """The repository's watchers and its owner (a user, not an organization) are told; not the publisher."""
    repo = repos.get_repo_by_id(event.repo_id)
    receivers = watches.repo_watcher_ids(repo.id)
    if not repo.owner_is_org:
        receivers.append(repo.owner_id)
    now = now_seconds()
    with forge().db.transaction():
        for user_id in dict.fromkeys(receivers):
            if user_id == event.doer_id or not _reader(user_id, repo, pull=None):
                continue
            row = store.thread_of(user_id, release_id=event.release_id)
            if row is None:
                store.insert_thread(
                    user_id,
                    repo.id,
                    RELEASE,
                    UNREAD,
                    now,
                    issue_id=0,
                    comment_id=0,
                    release_id=event.release_id,
                    updated_by=event.doer_id,
                )
            else:
                store.update_thread(row["id"], status=UNREAD, comment_id=0, updated_by=event.doer_id, now=now)


# -- reading -----------------------------------------------------------------------------------------


def _statuses(values: list[str], default: tuple[str, ...]) -> list[int]:
    """Gitea's status filter: the known names given, else ``default``."""
    chosen = [STATUSES[value.lower()] for value in values if value.lower() in STATUSES]
    return chosen or [STATUSES[name] for name in default]


def _visible(principal: Principal, rows: list[Row]) -> list[Row]:
    """Only threads of repositories the user can still read (a repository made private, a revoked access)."""
    cache: dict[int, bool] = {}
    kept = []
    for row in rows:
        repo_id = int(row["repo_id"])
        if repo_id not in cache:
            try:
                cache[repo_id] = permission(principal, repos.get_repo_by_id(repo_id)).can_read
            except RepoNotFound:
                cache[repo_id] = False
        if cache[repo_id]:
            kept.append(row)
    return kept


def _flag(args: MultiDict[str, str], name: str) -> bool:
    return args.get(name, "").strip().lower() in ("1", "t", "true")


def list_threads(principal: Principal, args: MultiDict[str, str], repo: repos.Repo | None = None) -> list[Row]:
    """The user's threads: unread and pinned ones unless ``all``, or those of ``status-types``; of the
    ``subject-type`` kinds, updated within ``since``/``before``, newest first."""
    statuses: list[int] = []
    if not _flag(args, "all"):
        statuses = _statuses(args.getlist("status-types"), ("unread", "pinned"))
    sources = [SOURCES[value.lower()] for value in args.getlist("subject-type") if value.lower() in SOURCES]
    rows = store.threads_of(
        principal.user_id,
        repo_id=repo.id if repo is not None else None,
        statuses=statuses,
        sources=sources,
        since=parse_query_time(args.get("since", "")),
        before=parse_query_time(args.get("before", "")),
    )
    return _visible(principal, rows)


def mark_threads(principal: Principal, args: MultiDict[str, str], repo: repos.Repo | None = None) -> list[Row]:
    """Set the threads last updated before ``last_read_at`` (unread ones, or of ``status-types``, or every
    one with ``all``) to ``to-status`` (read by default); the threads as changed."""
    last_read = parse_query_time(args.get("last_read_at", ""), BadRequest)
    statuses: list[int] = []
    if not _flag(args, "all"):
        statuses = _statuses(args.getlist("status-types"), ("unread",))
    target = STATUSES.get(args.get("to-status", "").strip().lower(), READ)
    rows = store.threads_of(
        principal.user_id, repo_id=repo.id if repo is not None else None, statuses=statuses, before=last_read
    )
    rows = _visible(principal, rows)
    now = now_seconds()
    with forge().db.transaction():
        for row in rows:
            store.set_status(int(row["id"]), target, now)
    return [changed for row in rows if (changed := store.thread(int(row["id"]))) is not None]


def _parse_id(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        return 0


def get_thread(principal: Principal, raw_id: str) -> Row:
    """The thread ``raw_id``: the user's own, or anyone's for a site administrator (403 otherwise)."""
    thread_id = _parse_id(raw_id)
    row = store.thread(thread_id)
    if row is None:
        raise ThreadNotFound(f"notification does not exist [id: {thread_id}]")
    if int(row["user_id"]) != principal.user_id and not principal.is_admin:
        raise NotThreadOwner(f"only user itself and admin are allowed to read/change this thread {thread_id}")
    return row


def mark_thread(principal: Principal, raw_id: str, to_status: str) -> Row:
    """Set one of the user's own threads to ``to_status`` (read by default)."""
    row = get_thread(principal, raw_id)
    if int(row["user_id"]) != principal.user_id:
        raise NotThreadOwner("Can't change notification of another user")
    target = STATUSES.get(to_status.strip().lower(), READ)
    with forge().db.transaction():
        store.set_status(int(row["id"]), target, now_seconds())
    changed = store.thread(int(row["id"]))
    assert changed is not None
    return changed


def count_unread(principal: Principal) -> int:
    return len(_visible(principal, store.threads_of(principal.user_id, statuses=[UNREAD])))
