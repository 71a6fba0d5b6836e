"""REST routes of assignees (thin: scope, repository, model, render), as Gitea 1.27 mounts them.

``/assignees`` and ``/assignees/{assignee}`` sit in the repository group (``repository`` scope, signed-in
readers); the issue routes sit in the issues group (``issue`` scope; the check is open to anonymous
readers of a public repository, adding and removing need a signed-in writer).
"""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal
from ..endpoints import API, EMPTY, Endpoint
from ..issues import models as issues
from ..issues.presenters import issue_api
from ..permissions import current_repo
from ..rest import empty, json_body, json_response
from ..users.presenters import user_to_api
from . import models

__all__ = ["ENDPOINTS"]

REPO = "/api/v1/repos/<owner>/<repo>"
ISSUE = f"{REPO}/issues/<int:index>"


def list_assignees(owner: str, repo: str) -> Response:
    """Every user who can be assigned to the repository's issues, by name (not paged, as Gitea)."""
    found = current_repo()
    return json_response([user_to_api(user) for user in models.assignable_users(found)])


def check_repo_assignee(owner: str, repo: str, assignee: str) -> Response:
    """204 when the user can be assigned to issues of the repository, else 404."""
    found = current_repo()
    models.check_assignable(found, assignee)
    return empty()


def check_issue_assignee(owner: str, repo: str, index: int, assignee: str) -> Response:
    """Gitea's ``issueCheckAssignee``: 204 when the user could be assigned to this issue (unknown issue 404)."""
    found = current_repo()
    issues.get_issue(found, index)
    models.check_assignable(found, assignee)
    return empty()


def add_assignees(owner: str, repo: str, index: int) -> Response:
    """``IssueAssigneesOption {assignees}`` → 201 ``Issue``."""
    principal = current_principal()
    found = current_repo()
    issue = models.add_assignees(found, index, json_body(), principal)
    return json_response(issue_api(found, issue), status=201)


def remove_assignees(owner: str, repo: str, index: int) -> Response:
    """``IssueAssigneesOption {assignees}`` → 200 ``Issue``."""
    principal = current_principal()
    found = current_repo()
    issue = models.remove_assignees(found, index, json_body(), principal)
    return json_response(issue_api(found, issue))


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/assignees",
        "repoGetAssignees",
        list_assignees,
        "repository",
        token("repository", repo="read"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/assignees/<assignee>",
        "repoCheckAssignee",
        check_repo_assignee,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(400, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/<int:index>/assignees/<assignee>",
        "issueCheckAssignee",
        check_issue_assignee,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        status=204,
        returns=EMPTY,
        errors=(400, 404),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/issues/<int:index>/assignees",
        "issueAddAssignees",
        add_assignees,
        "issue",
        token("issue", repo="read"),
        body="IssueAssigneesOption",
        status=201,
        returns="issue",
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/issues/<int:index>/assignees",
        "issueRemoveAssignees",
        remove_assignees,
        "issue",
        token("issue", repo="read"),
        body="IssueAssigneesOption",
        returns="issue",
        errors=(403, 404, 422),
    ),
)
