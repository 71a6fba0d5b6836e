"""REST routes of issues, comments, the timeline and the lock (thin: scope, repository, model, render).

Every route is in Gitea's ``issue`` token scope category; reads are open to anonymous callers on
repositories they can see.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request

from ..access import token
from ..auth import Principal, current_principal, optional_principal
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import RepoDeletedEvent
from ..permissions import current_repo, permission
from ..pulls.models import edit_pull, get_pull
from ..pulls.reviews import hidden_review_ids
from ..repos import models as repos
from ..repos.errors import RepoPermissionDenied
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import comments, extra_routes, label_routes, models, store
from .errors import InvalidIssueOption
from .presenters import comment_to_api, issue_api, timeline_to_api

__all__ = ["ENDPOINTS", "register"]

ISSUES = "/api/v1/repos/<owner>/<repo>/issues"


def _signed_in(owner: str, repo: str) -> tuple[repos.Repo, Principal]:
    found = current_repo()
    return found, current_principal()


def list_issues(owner: str, repo: str) -> Response:
    """``state`` open (default), closed or all; ``type`` issues or pulls (both otherwise); ``q`` a keyword."""
    found = current_repo()
    page = page_params()
    issues, total = models.list_issues(
        found,
        state=request.args.get("state", "open").strip(),
        kind=request.args.get("type", "").strip(),
        keyword=request.args.get("q", "").strip(),
        limit=page.limit,
        offset=page.offset,
    )
    return paged_response([issue_api(found, issue) for issue in issues], page, total)


def create_issue(owner: str, repo: str) -> Response:
    found, principal = _signed_in(owner, repo)
    issue = models.create_issue(found, json_body(), principal)
    return json_response(issue_api(found, issue), status=201)


def get_issue(owner: str, repo: str, index: int) -> Response:
    found = current_repo()
    return json_response(issue_api(found, models.get_issue(found, index)))


def edit_issue(owner: str, repo: str, index: int) -> Response:
    """Gitea answers an edit with 201; a pull request's edit goes through the pulls family's rules (a merged
    pull keeps its state: 412)."""
    found, principal = _signed_in(owner, repo)
    issue = models.get_issue(found, index)
    options = json_body()
    if issue.is_pull:
        issue = edit_pull(found, get_pull(found, index), _issue_fields(options), principal).issue
    else:
        issue = models.edit_issue(found, issue, options, principal)
    return json_response(issue_api(found, issue), status=201)


def _issue_fields(options: dict[str, Any]) -> dict[str, Any]:
    """The ``EditIssueOption`` fields a pull request's issue takes (``base`` is not one of them)."""
    return {key: value for key, value in options.items() if key != "base"}


def list_comments(owner: str, repo: str, index: int) -> Response:
    found = current_repo()
    issue = models.get_issue(found, index)
    page = page_params()
    items, total = comments.list_comments(issue, page.limit, page.offset)
    return paged_response([comment_to_api(found, issue, item) for item in items], page, total)


def create_comment(owner: str, repo: str, index: int) -> Response:
    found, principal = _signed_in(owner, repo)
    issue = models.get_issue(found, index)
    comment = comments.add_comment(found, issue, principal, json_body().get("body"))
    return json_response(comment_to_api(found, issue, comment), status=201)


def get_comment(owner: str, repo: str, comment_id: int) -> Response:
    """A plain comment; other timeline entries answer 204 as in Gitea."""
    found = current_repo()
    comment, issue = models.get_comment(found, comment_id)
    if comment.type != comments.CommentType.COMMENT:
        return empty()
    return json_response(comment_to_api(found, issue, comment))


def edit_comment(owner: str, repo: str, comment_id: int) -> Response:
    found, principal = _signed_in(owner, repo)
    comment, issue = models.get_comment(found, comment_id)
    if comment.type not in comments.EDITABLE_TYPES:
        return empty()
    edited = comments.edit_comment(found, comment, principal, json_body().get("body"))
    return json_response(comment_to_api(found, issue, edited))


def delete_comment(owner: str, repo: str, comment_id: int) -> Response:
    found, principal = _signed_in(owner, repo)
    comment, _issue = models.get_comment(found, comment_id)
    if comment.type not in comments.EDITABLE_TYPES:
        return empty()
    comments.delete_comment(found, comment, principal)
    return empty()


def edit_comment_deprecated(owner: str, repo: str, index: int, comment_id: int) -> Response:
    """The old ``/issues/{index}/comments/{id}`` route: the index is not checked, as in Gitea."""
    return edit_comment(owner, repo, comment_id)


def delete_comment_deprecated(owner: str, repo: str, index: int, comment_id: int) -> Response:
    """The old ``/issues/{index}/comments/{id}`` route: the index is not checked, as in Gitea."""
    return delete_comment(owner, repo, comment_id)


def timeline(owner: str, repo: str, index: int) -> Response:
    found = current_repo()
    issue = models.get_issue(found, index)
    page = page_params()
    hidden: list[int] = []
    if issue.is_pull:
        hidden = hidden_review_ids(issue.id, optional_principal())
    items, total = comments.timeline(issue, page.limit, page.offset, hidden_reviews=hidden)
    return paged_response([timeline_to_api(found, issue, item) for item in items], page, total)


def _admin_issue(owner: str, repo: str, index: int) -> tuple[models.Issue, Principal]:
    """Gitea's ``reqAdmin``: repository administrators only (403), after the repository is found (404)."""
    found, principal = _signed_in(owner, repo)
    if not permission(principal, found).is_admin:
        raise RepoPermissionDenied("user should be an owner or a collaborator with admin write of a repository")
    return models.get_issue(found, index), principal


def lock_issue(owner: str, repo: str, index: int) -> Response:
    """``LockIssueOption {lock_reason}``, optional; 204 whether or not it was locked already."""
    issue, principal = _admin_issue(owner, repo, index)
    reason = json_body().get("lock_reason") or ""
    if not isinstance(reason, str):
        raise InvalidIssueOption("[LockReason]: must be a string")
    models.set_locked(issue, True, reason, principal)
    return empty()


def unlock_issue(owner: str, repo: str, index: int) -> Response:
    issue, principal = _admin_issue(owner, repo, index)
    models.set_locked(issue, False, "", principal)
    return empty()


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    models.delete_issues_of_repo(event.repo_id)


def register(app: Flask) -> None:
    """Give an old issue table its new columns; drop issues with their repository."""
    store.upgrade(forge().db)
    forge().events.subscribe(RepoDeletedEvent, on_repo_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    *label_routes.ENDPOINTS,
    *extra_routes.ENDPOINTS,
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues",
        "issueListIssues",
        list_issues,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[issue]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/issues",
        "issueCreateIssue",
        create_issue,
        "issue",
        token("issue", repo="read"),
        body="CreateIssueOption",
        status=201,
        returns="issue",
        errors=(403, 404, 412, 422, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/<int:index>",
        "issueGetIssue",
        get_issue,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="issue",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/issues/<int:index>",
        "issueEditIssue",
        edit_issue,
        "issue",
        token("issue", repo="read"),
        body="EditIssueOption",
        status=201,
        returns="issue",
        errors=(403, 404, 412),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/<int:index>/comments",
        "issueGetComments",
        list_comments,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[comment]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/issues/<int:index>/comments",
        "issueCreateComment",
        create_comment,
        "issue",
        token("issue", repo="read"),
        body="CreateIssueCommentOption",
        status=201,
        returns="comment",
        errors=(403, 404, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/comments/<int:comment_id>",
        "issueGetComment",
        get_comment,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="comment",
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/issues/comments/<int:comment_id>",
        "issueEditComment",
        edit_comment,
        "issue",
        token("issue", repo="read"),
        body="EditIssueCommentOption",
        returns="comment",
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/issues/comments/<int:comment_id>",
        "issueDeleteComment",
        delete_comment,
        "issue",
        token("issue", repo="read"),
        status=204,
        returns=EMPTY,
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/issues/<int:index>/comments/<int:comment_id>",
        "issueEditCommentDeprecated",
        edit_comment_deprecated,
        "issue",
        token("issue", repo="read"),
        body="EditIssueCommentOption",
        returns="comment",
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/issues/<int:index>/comments/<int:comment_id>",
        "issueDeleteCommentDeprecated",
        delete_comment_deprecated,
        "issue",
        token("issue", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/<int:index>/timeline",
        "issueGetCommentsAndTimeline",
        timeline,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[timeline_comment]",
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        API + "/repos/<owner>/<repo>/issues/<int:index>/lock",
        "issueLockIssue",
        lock_issue,
        "issue",
        token("issue", repo="read"),
        status=204,
        returns=EMPTY,
        body="LockIssueOption",
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/issues/<int:index>/lock",
        "issueUnlockIssue",
        unlock_issue,
        "issue",
        token("issue", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
)
