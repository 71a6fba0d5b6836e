"""REST routes of assignees (thin: scope, repository, model, render), as Gitea 1.27 mounts them.

``/assignees`` and ``/assignees/{assignee}`` sit in the repository group (``repository`` scope, signed-in
readers); the issue routes sit in the issues group (``issue`` scope; the check is open to anonymous
readers of a public repository, adding and removing need a signed-in writer).
"""

from __future__ import annotations

from flask import Flask, Response

from ..auth import check_scope, current_principal
from ..issues import models as issues
from ..issues.routes import issue_api
from ..repos import models as repos
from ..rest import empty, json_body, json_response
from ..users.models import user_to_api
from . import models

__all__ = ["register"]

REPO = "/api/v1/repos/<owner>/<repo>"
ISSUE = f"{REPO}/issues/<int:index>"


def _reader_repo(owner: str, repo: str) -> repos.Repo:
    """``reqToken`` + ``reqAnyRepoReader`` in the repository scope: 401, 403 scope, 404 invisible."""
    check_scope("repository")
    current_principal()
    return repos.require_repo(owner, repo, "read")


def list_assignees(owner: str, repo: str) -> Response:
    """Every user who can be assigned to the repository's issues, by name (not paged, as Gitea)."""
    found = _reader_repo(owner, repo)
    return json_response([user_to_api(user) for user in models.assignable_users(found)])


def check_repo_assignee(owner: str, repo: str, assignee: str) -> Response:
    """204 when the user can be assigned to issues of the repository, else 404."""
    found = _reader_repo(owner, repo)
    models.check_assignable(found, assignee)
    return empty()


def check_issue_assignee(owner: str, repo: str, index: int, assignee: str) -> Response:
    """Gitea's ``issueCheckAssignee``: 204 when the user could be assigned to this issue (unknown issue 404)."""
    check_scope("issue", anonymous_ok=True)
    found = repos.require_repo(owner, repo, "read")
    issues.get_issue(found, index)
    models.check_assignable(found, assignee)
    return empty()


def add_assignees(owner: str, repo: str, index: int) -> Response:
    """``IssueAssigneesOption {assignees}`` → 201 ``Issue``."""
    check_scope("issue")
    principal = current_principal()
    found = repos.require_repo(owner, repo, "read")
    issue = models.add_assignees(found, index, json_body(), principal)
    return json_response(issue_api(found, issue), status=201)


def remove_assignees(owner: str, repo: str, index: int) -> Response:
    """``IssueAssigneesOption {assignees}`` → 200 ``Issue``."""
    check_scope("issue")
    principal = current_principal()
    found = repos.require_repo(owner, repo, "read")
    issue = models.remove_assignees(found, index, json_body(), principal)
    return json_response(issue_api(found, issue))


def register(app: Flask) -> None:
    """Mount the routes; endpoint names are Gitea's operation ids."""
    rule = app.add_url_rule
    rule(f"{REPO}/assignees", endpoint="repoGetAssignees", view_func=list_assignees, methods=["GET"])
    rule(
        f"{REPO}/assignees/<assignee>",
        endpoint="repoCheckAssignee",
        view_func=check_repo_assignee,
        methods=["GET"],
    )
    rule(
        f"{ISSUE}/assignees/<assignee>",
        endpoint="issueCheckAssignee",
        view_func=check_issue_assignee,
        methods=["GET"],
    )
    rule(f"{ISSUE}/assignees", endpoint="issueAddAssignees", view_func=add_assignees, methods=["POST"])
    rule(f"{ISSUE}/assignees", endpoint="issueRemoveAssignees", view_func=remove_assignees, methods=["DELETE"])
