"""Issue subscriptions as Gitea keeps them (``models/issues/issue_watch.go``).

A user's own row (watching or explicitly not) wins; without one, the user follows the issue when it watches
the repository or takes part in it (the poster, or the poster of a comment, code comment or review). The
subscriber list shows the explicit watchers and the commenters who did not unsubscribe; assignees and
mentioned users are told directly (see :mod:`.models`), Gitea does not subscribe them.
"""

from __future__ import annotations

from ..auth import Principal
from ..context import forge, now_seconds
from ..issues.comments import CommentType
from ..issues.models import Issue
from ..stars import store as stars_store
from ..users import models as users
from ..users.errors import UserNotFound
from . import store
from .errors import SubscriptionForbidden

__all__ = ["is_watching", "participant_ids", "repo_watcher_ids", "set_subscription", "subscribers"]

PARTICIPATION = (CommentType.COMMENT, CommentType.CODE, CommentType.REVIEW)
"""The comment types that make their poster a participant of an issue."""


def participant_ids(issue: Issue) -> list[int]:
    """The poster, then every commenter, once each (Gitea's ``GetParticipantIDsByIssue``)."""
    found = [issue.poster_id]
    found += [user_id for user_id in store.commenter_ids(issue.id, PARTICIPATION) if user_id != issue.poster_id]
    return found


def repo_watcher_ids(repo_id: int) -> list[int]:
    return stars_store.users_page("watch", repo_id, -1, 0)


def is_watching(user_id: int, issue: Issue) -> bool:
    """Gitea's ``CheckIssueWatch``: the explicit choice, else a repository watch or taking part."""
    row = store.watch_row(issue.id, user_id)
    if row is not None:
        return bool(row["is_watching"])
    return stars_store.has_mark("watch", user_id, issue.repo_id) or user_id in participant_ids(issue)


def subscribers(issue: Issue) -> list[users.User]:
    """Explicit watchers and commenters who did not unsubscribe, active accounts only, by id."""
    unwatching = set(store.watcher_ids(issue.id, False))
    ids = set(store.watcher_ids(issue.id, True))
    ids |= {user_id for user_id in store.commenter_ids(issue.id, PARTICIPATION) if user_id not in unwatching}
    found: list[users.User] = []
    for user_id in sorted(ids):
        try:
            account = users.get_user(user_id)
        except UserNotFound:
            continue
        if account.active and not account.prohibit_login:
            found.append(account)
    return found


def set_subscription(issue: Issue, name: str, principal: Principal, watch: bool) -> bool:
    """Subscribe (or unsubscribe) ``name``: the user itself or a site administrator; True when it changed."""
    account = users.find_account(name)
    if account is None or account.is_org:
        raise UserNotFound(f"user does not exist [uid: 0, name: {name}]")
    if account.id != principal.user_id and not principal.is_admin:
        raise SubscriptionForbidden(f"{principal.username} is not permitted to change subscriptions for {account.name}")
    if is_watching(account.id, issue) == watch:
        return False
    with forge().db.transaction():
        store.set_watch(issue.id, account.id, watch, now_seconds())
    return True
