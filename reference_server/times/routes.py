"""Routes of tracked times (Gitea's issueTrackedTimes, issueAddTime, issueResetTime, issueDeleteTime,
repoTrackedTimes, userTrackedTimes): signed-in readers of the repository; the finer rules in the model."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import IssueDeletedEvent, RepoDeletedEvent
from ..permissions import current_repo
from ..repos.models import get_repo_by_id
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .presenters import tracked_time_to_api

__all__ = ["ENDPOINTS", "register"]

ISSUE_TIMES = API + "/repos/<owner>/<repo>/issues/<int:index>/times"


def issue_tracked_times(owner: str, repo: str, index: int) -> Response:
    found = current_repo()
    page = page_params()
    rows, total = models.list_issue_times(
        found, index, current_principal(), request.args, limit=page.limit, offset=page.offset
    )
    return paged_response([tracked_time_to_api(row, found) for row in rows], page, total)


def issue_add_time(owner: str, repo: str, index: int) -> Response:
    """Record time on the issue; 200 with the TrackedTime (Gitea answers 200, not 201)."""
    found = current_repo()
    row = models.add_time(found, index, current_principal(), json_body())
    return json_response(tracked_time_to_api(row, found))


def issue_reset_time(owner: str, repo: str, index: int) -> Response:
    models.reset_times(current_repo(), index, current_principal())
    return empty()


def issue_delete_time(owner: str, repo: str, index: int, time_id: int) -> Response:
    models.delete_time(current_repo(), index, time_id, current_principal())
    return empty()


def repo_tracked_times(owner: str, repo: str) -> Response:
    found = current_repo()
    page = page_params()
    rows, total = models.list_repo_times(found, current_principal(), request.args, limit=page.limit, offset=page.offset)
    return paged_response([tracked_time_to_api(row, found) for row in rows], page, total)


def user_tracked_times(owner: str, repo: str, user: str) -> Response:
    found = current_repo()
    rows = models.list_user_times(found, user, current_principal())
    return json_response([tracked_time_to_api(row, found) for row in rows])


def user_current_tracked_times() -> Response:
    """The caller's times in every repository, paged."""
    page = page_params()
    rows, total = models.list_my_times(current_principal(), request.args, limit=page.limit, offset=page.offset)
    answers = [tracked_time_to_api(row, get_repo_by_id(int(row["repo_id"]))) for row in rows]
    return paged_response(answers, page, total)


def _on_repo_deleted(event: RepoDeletedEvent) -> None:
    models.on_repo_deleted(event.repo_id)


def _on_issue_deleted(event: IssueDeletedEvent) -> None:
    models.on_issue_deleted(event.issue_id)


def register(app: Flask) -> None:
    """A deleted repository's or issue's tracked times go with it."""
    forge().events.subscribe(RepoDeletedEvent, _on_repo_deleted)
    forge().events.subscribe(IssueDeletedEvent, _on_issue_deleted)


_ISSUE = token("issue", repo="read")
_REPO = token("repository", repo="read")

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        ISSUE_TIMES,
        "issueTrackedTimes",
        issue_tracked_times,
        "issue",
        _ISSUE,
        returns="[tracked_time]",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "POST",
        ISSUE_TIMES,
        "issueAddTime",
        issue_add_time,
        "issue",
        _ISSUE,
        body="AddTimeOption",
        returns="tracked_time",
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "DELETE",
        ISSUE_TIMES,
        "issueResetTime",
        issue_reset_time,
        "issue",
        _ISSUE,
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404),
    ),
    Endpoint(
        "DELETE",
        ISSUE_TIMES + "/<int:time_id>",
        "issueDeleteTime",
        issue_delete_time,
        "issue",
        _ISSUE,
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404),
    ),
    Endpoint(
        "GET",
        API + "/user/times",
        "userCurrentTrackedTimes",
        user_current_tracked_times,
        "user",
        token("user"),
        returns="[tracked_time]",
        errors=(422,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/times",
        "repoTrackedTimes",
        repo_tracked_times,
        "repository",
        _REPO,
        returns="[tracked_time]",
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/times/<user>",
        "userTrackedTimes",
        user_tracked_times,
        "repository",
        _REPO,
        returns="[tracked_time]",
        errors=(400, 403, 404),
    ),
)
