"""Routes of notification threads, issue subscriptions and stopwatches (thin: the repository comes checked,
the models decide, the presenters render)."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import IssueActionEvent, IssueAssignedEvent, ReleasePublishedEvent, ReviewRequestedEvent
from ..issues.models import get_issue
from ..permissions import current_repo
from ..rest import empty, json_response, page_params, paged_response
from ..users.presenters import user_to_api
from . import models, stopwatches, watches
from .presenters import issue_watch_to_api, stopwatch_to_api, thread_to_api

__all__ = ["ENDPOINTS", "register"]

ISSUE = API + "/repos/<owner>/<repo>/issues/<int:index>"
THREAD = API + "/notifications/threads/<thread_id>"


def register(app: Flask) -> None:
    """Threads are made by what happens to issues, pulls and releases (inside the acting transaction)."""
    events = forge().events
    events.subscribe(IssueActionEvent, models.on_issue_action)
    events.subscribe(IssueAssignedEvent, models.on_issue_assigned)
    events.subscribe(ReviewRequestedEvent, models.on_review_requested)
    events.subscribe(ReleasePublishedEvent, models.on_release_published)


def _threads(repo_scoped: bool) -> Response:
    page = page_params()
    rows = models.list_threads(current_principal(), request.args, current_repo() if repo_scoped else None)
    shown = rows[page.offset : page.offset + page.limit]
    return paged_response([thread_to_api(row) for row in shown], page, len(rows))


def notify_get_list() -> Response:
    """The caller's threads (unread and pinned by default), newest first."""
    return _threads(False)


def notify_get_repo_list(owner: str, repo: str) -> Response:
    """The caller's threads of one repository."""
    return _threads(True)


def _mark(repo_scoped: bool) -> Response:
    rows = models.mark_threads(current_principal(), request.args, current_repo() if repo_scoped else None)
    return json_response([thread_to_api(row) for row in rows], 205)


def notify_read_list() -> Response:
    """Mark threads (unread ones by default) read, unread or pinned: 205 with the threads changed."""
    return _mark(False)


def notify_read_repo_list(owner: str, repo: str) -> Response:
    """Mark the caller's threads of one repository: 205 with the threads changed."""
    return _mark(True)


def notify_new_available() -> Response:
    """How many unread threads the caller has."""
    return json_response({"new": models.count_unread(current_principal())})


def notify_get_thread(thread_id: str) -> Response:
    return json_response(thread_to_api(models.get_thread(current_principal(), thread_id)))


def notify_read_thread(thread_id: str) -> Response:
    """Mark one thread (read by default): 205 with the thread."""
    row = models.mark_thread(current_principal(), thread_id, request.args.get("to-status", ""))
    return json_response(thread_to_api(row), 205)


def issue_subscriptions(owner: str, repo: str, index: int) -> Response:
    """The issue's subscribers, paged."""
    page = page_params()
    found = watches.subscribers(get_issue(current_repo(), index))
    shown = found[page.offset : page.offset + page.limit]
    return paged_response([user_to_api(user) for user in shown], page, len(found))


def issue_check_subscription(owner: str, repo: str, index: int) -> Response:
    found = current_repo()
    issue = get_issue(found, index)
    return json_response(issue_watch_to_api(found, issue, watches.is_watching(current_principal().user_id, issue)))


def _subscription(index: int, user: str, watch: bool) -> Response:
    """201 when the subscription changed, 200 when it already was so (Gitea)."""
    issue = get_issue(current_repo(), index)
    changed = watches.set_subscription(issue, user, current_principal(), watch)
    return empty(201 if changed else 200)


def issue_add_subscription(owner: str, repo: str, index: int, user: str) -> Response:
    return _subscription(index, user, True)


def issue_delete_subscription(owner: str, repo: str, index: int, user: str) -> Response:
    return _subscription(index, user, False)


def issue_start_stop_watch(owner: str, repo: str, index: int) -> Response:
    stopwatches.start(current_repo(), index, current_principal())
    return empty(201)


def issue_stop_stop_watch(owner: str, repo: str, index: int) -> Response:
    """Stop the stopwatch; its time is tracked. 201, as Gitea."""
    stopwatches.stop(current_repo(), index, current_principal())
    return empty(201)


def issue_delete_stop_watch(owner: str, repo: str, index: int) -> Response:
    stopwatches.cancel(current_repo(), index, current_principal())
    return empty()


def user_get_stop_watches() -> Response:
    page = page_params()
    rows = stopwatches.stopwatches_of(current_principal())
    shown = rows[page.offset : page.offset + page.limit]
    return paged_response([stopwatch_to_api(row) for row in shown], page, len(rows))


_NOTIFY = token("notification")
_NOTIFY_REPO = token("notification", repo="read")
_ISSUE_READ = token("issue", repo="read")

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/notifications",
        "notifyGetList",
        notify_get_list,
        "notification",
        _NOTIFY,
        returns="[notification_thread]",
        errors=(422,),
    ),
    Endpoint(
        "PUT",
        API + "/notifications",
        "notifyReadList",
        notify_read_list,
        "notification",
        _NOTIFY,
        status=205,
        returns="[notification_thread]",
        errors=(400,),
    ),
    Endpoint(
        "GET",
        API + "/notifications/new",
        "notifyNewAvailable",
        notify_new_available,
        "notification",
        _NOTIFY,
        returns="notification_count",
    ),
    Endpoint(
        "GET",
        THREAD,
        "notifyGetThread",
        notify_get_thread,
        "notification",
        _NOTIFY,
        returns="notification_thread",
        errors=(403, 404),
    ),
    Endpoint(
        "PATCH",
        THREAD,
        "notifyReadThread",
        notify_read_thread,
        "notification",
        _NOTIFY,
        status=205,
        returns="notification_thread",
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/notifications",
        "notifyGetRepoList",
        notify_get_repo_list,
        "notification",
        _NOTIFY_REPO,
        returns="[notification_thread]",
        errors=(404, 422),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/notifications",
        "notifyReadRepoList",
        notify_read_repo_list,
        "notification",
        _NOTIFY_REPO,
        status=205,
        returns="[notification_thread]",
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        ISSUE + "/subscriptions",
        "issueSubscriptions",
        issue_subscriptions,
        "issue",
        _ISSUE_READ,
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        ISSUE + "/subscriptions/check",
        "issueCheckSubscription",
        issue_check_subscription,
        "issue",
        _ISSUE_READ,
        returns="watch_info",
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        ISSUE + "/subscriptions/<user>",
        "issueAddSubscription",
        issue_add_subscription,
        "issue",
        _ISSUE_READ,
        status=201,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        ISSUE + "/subscriptions/<user>",
        "issueDeleteSubscription",
        issue_delete_subscription,
        "issue",
        _ISSUE_READ,
        status=201,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "POST",
        ISSUE + "/stopwatch/start",
        "issueStartStopWatch",
        issue_start_stop_watch,
        "issue",
        _ISSUE_READ,
        status=201,
        returns=EMPTY,
        errors=(403, 404, 409),
    ),
    Endpoint(
        "POST",
        ISSUE + "/stopwatch/stop",
        "issueStopStopWatch",
        issue_stop_stop_watch,
        "issue",
        _ISSUE_READ,
        status=201,
        returns=EMPTY,
        errors=(403, 404, 409),
    ),
    Endpoint(
        "DELETE",
        ISSUE + "/stopwatch/delete",
        "issueDeleteStopWatch",
        issue_delete_stop_watch,
        "issue",
        _ISSUE_READ,
        status=204,
        returns=EMPTY,
        errors=(403, 404, 409),
    ),
    Endpoint(
        "GET",
        API + "/user/stopwatches",
        "userGetStopWatches",
        user_get_stop_watches,
        "user",
        token("user"),
        returns="[stop_watch]",
    ),
)
