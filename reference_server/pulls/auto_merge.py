"""Merges scheduled for when the checks succeed (``merge_when_checks_succeed``) and their cancellation.

As Gitea 1.27: scheduling checks who may merge but not the base branch's rule, stores the schedule (409
when one exists) and answers 201; the forge then merges as the scheduler, with the scheduled style and
message, as soon as the rule is satisfied: right away, when a commit status is reported on the head, and
when an approval arrives. ``DELETE .../pulls/{index}/merge`` cancels: the scheduler or a repository
administrator (403 otherwise), 404 when nothing is scheduled.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..errors import ApiError, Conflict, Forbidden
from ..events import CommitStatusEvent
from ..issues.comments import CommentType, add_event
from ..permissions import permission
from ..repos import models as repos
from ..users.errors import UserNotFound
from ..users.models import get_user
from . import store
from .errors import MergeNotAllowed, PullNotFound
from .merge import merge_pull, merge_style
from .models import Pull, get_pull, head_commit
from .protection import check_mergeable

__all__ = ["cancel_scheduled_merge", "on_commit_status", "schedule_merge", "try_scheduled_merge"]

log = logging.getLogger(__name__)


def schedule_merge(repo: repos.Repo, index: int, options: Mapping[str, Any], principal: Principal) -> None:
    """Schedule the pull's merge; 409 when one is scheduled already. The merge may happen at once."""
    pull = get_pull(repo, index)
    if pull.has_merged:
        raise MergeNotAllowed("the pull request has already been merged")
    if pull.issue.is_closed:
        raise PullNotFound("the pull request is closed")
    check_mergeable(repo, pull, principal, options, scheduling=True)
    style = merge_style(options)
    title = options.get("merge_title_field")
    message = title.strip() if isinstance(title, str) else ""
    with forge().db.transaction():
        if store.scheduled_merge(pull.id) is not None:
            raise Conflict(f"pull request is already scheduled to auto merge when checks succeed [pull_id: {pull.id}]")
        store.schedule_merge(pull.id, principal.user_id, style, message, now_seconds())
        add_event(pull.issue.id, CommentType.PULL_SCHEDULED_MERGE, principal.user_id)
    try_scheduled_merge(repo, get_pull(repo, index))


def cancel_scheduled_merge(repo: repos.Repo, index: int, principal: Principal) -> None:
    pull = get_pull(repo, index)
    scheduled = store.scheduled_merge(pull.id)
    if scheduled is None:
        raise PullNotFound("the pull request has no scheduled merge")
    if int(scheduled["doer_id"]) != principal.user_id and not permission(principal, repo).is_admin:
        raise Forbidden("user has no permission to cancel the scheduled auto merge")
    with forge().db.transaction():
        store.unschedule_merge(pull.id)
        add_event(pull.issue.id, CommentType.PULL_CANCEL_SCHEDULED_MERGE, principal.user_id)


def try_scheduled_merge(repo: repos.Repo, pull: Pull) -> bool:
    """Merge a scheduled pull request if its rule is satisfied now, as the scheduler; True when merged."""
    scheduled = store.scheduled_merge(pull.id)
    if scheduled is None or pull.has_merged or pull.issue.is_closed:
        return False
    try:
        user = get_user(int(scheduled["doer_id"]))
    except UserNotFound:
        return False
    doer = Principal(user.id, user.name, user.is_admin, frozenset({"all"}))
    options: dict[str, Any] = {"Do": scheduled["merge_style"]}
    if scheduled["message"]:
        options["merge_title_field"] = scheduled["message"]
    try:
        check_mergeable(repo, pull, doer, options)
        merge_pull(repo, pull.index, options, doer)
    except ApiError:
        return False
    with forge().db.transaction():
        store.unschedule_merge(pull.id)
    return True


def on_commit_status(event: CommitStatusEvent) -> None:
    """A status on a head commit may complete the checks of a scheduled merge."""
    rows = store.scheduled_pulls(event.repo_id)
    if not rows:
        return
    repo = repos.get_repo_by_id(event.repo_id)
    for row in rows:
        pull = get_pull(repo, int(row["issue_index"]))
        if head_commit(repo, pull) == event.sha:
            try_scheduled_merge(repo, pull)
