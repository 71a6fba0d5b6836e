"""REST routes of an issue's life beyond editing: deleting it (repository administrators, as Gitea's
``reqAdmin``), its deadline (writers), and the repository-wide list of comments."""

from __future__ import annotations

from flask import Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge, now_seconds
from ..endpoints import API, EMPTY, Endpoint
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..timefmt import iso, parse_iso
from . import models, store
from .comments import Comment, CommentType
from .deadlines import change_deadline, deadline_of, end_of_day
from .errors import InvalidIssueOption
from .presenters import comment_to_api

__all__ = ["ENDPOINTS"]

ISSUE = API + "/repos/<owner>/<repo>/issues/<int:index>"


def delete_issue(owner: str, repo: str, index: int) -> Response:
    """Delete an issue or pull request with its comments, reactions and attachments."""
    found = current_repo()
    models.delete_issue(found, models.get_issue(found, index))
    return empty()


def edit_deadline(owner: str, repo: str, index: int) -> Response:
    """``EditDeadlineOption {due_date}``: the day's last second; Go's zero time removes it. 201, as Gitea."""
    found, principal = current_repo(), current_principal()
    issue = models.get_issue(found, index)
    deadline = end_of_day(json_body().get("due_date"))
    with forge().db.transaction():
        change_deadline(issue.id, deadline, principal.user_id)
        store.touch_issue(issue.id, now_seconds())
    current = deadline_of(issue.id)
    return json_response({"due_date": iso(current) if current else None}, status=201)


def _moment(name: str) -> int | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    try:
        return parse_iso(raw)
    except ValueError:
        raise InvalidIssueOption(f"invalid {name} time: {raw!r}") from None


def repo_comments(owner: str, repo: str) -> Response:
    """The plain comments of every issue and pull request of the repository, oldest first; ``since`` and
    ``before`` bound their last update (Gitea's ``updated_unix``); paged."""
    found = current_repo()
    page = page_params()
    since, before = _moment("since"), _moment("before")
    rows, total = store.repo_comment_rows(
        found.id,
        int(CommentType.COMMENT),
        is_pull=None,
        since=since,
        before=before,
        limit=page.limit,
        offset=page.offset,
    )
    comments = [Comment.from_row(row) for row in rows]
    issues = {issue_id: models.get_issue_by_id(issue_id) for issue_id in {item.issue_id for item in comments}}
    return paged_response([comment_to_api(found, issues[item.issue_id], item) for item in comments], page, total)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "DELETE",
        ISSUE,
        "issueDelete",
        delete_issue,
        "issue",
        token("issue", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "POST",
        ISSUE + "/deadline",
        "issueEditIssueDeadline",
        edit_deadline,
        "issue",
        token("issue", repo="write"),
        body="EditDeadlineOption",
        status=201,
        returns="issue_deadline",
        errors=(403, 404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/comments",
        "issueGetRepoComments",
        repo_comments,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[comment]",
        errors=(404, 422),
    ),
)
