"""REST routes of pins (thin): pin, unpin and move for repository administrators (Gitea's ``reqAdmin``);
the pinned lists and ``new_pin_allowed`` for readers."""

from __future__ import annotations

from flask import Flask, Response

from ..auth import Principal, check_scope, current_principal
from ..issues.models import Issue, get_issue
from ..issues.routes import issue_api
from ..pulls.models import get_pull, pull_to_api
from ..repos import models as repos
from ..repos.errors import RepoPermissionDenied
from ..rest import empty, json_response
from . import models

__all__ = ["register"]

REPO = "/api/v1/repos/<owner>/<repo>"


def _read(owner: str, repo: str, scope: str) -> repos.Repo:
    """Scope first (401/403 before any lookup), then a repository the caller can see (404)."""
    check_scope(scope, anonymous_ok=True)
    return repos.require_repo(owner, repo, "read")


def _admin_issue(owner: str, repo: str, index: int) -> tuple[Issue, Principal]:
    """Gitea's ``reqAdmin``: repository administrators only (403), after the repository is found (404)."""
    found = _read(owner, repo, "issue")
    principal = current_principal()
    if not repos.permission(principal, found).is_admin:
        raise RepoPermissionDenied("user should be an owner or a collaborator with admin write of a repository")
    return get_issue(found, index), principal


def pin_issue(owner: str, repo: str, index: int) -> Response:
    issue, principal = _admin_issue(owner, repo, index)
    models.pin_issue(issue, principal)
    return empty()


def unpin_issue(owner: str, repo: str, index: int) -> Response:
    issue, principal = _admin_issue(owner, repo, index)
    models.unpin_issue(issue, principal)
    return empty()


def move_issue_pin(owner: str, repo: str, index: int, position: str) -> Response:
    issue, _principal = _admin_issue(owner, repo, index)
    models.move_pin(issue, models.parse_position(position))
    return empty()


def list_pinned_issues(owner: str, repo: str) -> Response:
    """Gitea's ``[]Issue`` by position, without paging headers."""
    found = _read(owner, repo, "issue")
    return json_response([issue_api(found, issue) for issue in models.pinned_issues(found, pulls=False)])


def list_pinned_pulls(owner: str, repo: str) -> Response:
    """Gitea's ``[]PullRequest`` by position, without paging headers."""
    found = _read(owner, repo, "repository")
    pulls = [get_pull(found, issue.index) for issue in models.pinned_issues(found, pulls=True)]
    return json_response([pull_to_api(found, pull) for pull in pulls])


def new_pin_allowed(owner: str, repo: str) -> Response:
    found = _read(owner, repo, "repository")
    return json_response(models.new_pin_allowed(found))


def register(app: Flask) -> None:
    """Mount the routes with Gitea's operation ids (pinned issues go with their issue rows)."""
    rule = app.add_url_rule
    issues = f"{REPO}/issues"
    rule(f"{issues}/<int:index>/pin", endpoint="pinIssue", view_func=pin_issue, methods=["POST"])
    rule(f"{issues}/<int:index>/pin", endpoint="unpinIssue", view_func=unpin_issue, methods=["DELETE"])
    rule(
        f"{issues}/<int:index>/pin/<position>",
        endpoint="moveIssuePin",
        view_func=move_issue_pin,
        methods=["PATCH"],
    )
    rule(f"{issues}/pinned", endpoint="repoListPinnedIssues", view_func=list_pinned_issues, methods=["GET"])
    rule(f"{REPO}/pulls/pinned", endpoint="repoListPinnedPullRequests", view_func=list_pinned_pulls, methods=["GET"])
    rule(f"{REPO}/new_pin_allowed", endpoint="repoNewPinAllowed", view_func=new_pin_allowed, methods=["GET"])
