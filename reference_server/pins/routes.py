"""REST routes of pins (thin): pin, unpin and move for repository administrators (Gitea's ``reqAdmin``);
the pinned lists and ``new_pin_allowed`` for readers."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import Principal, current_principal
from ..endpoints import API, EMPTY, Endpoint
from ..issues.models import Issue, get_issue
from ..issues.presenters import issue_api
from ..permissions import current_repo, permission
from ..pulls.models import get_pull
from ..pulls.presenters import pull_to_api
from ..repos import models as repos
from ..repos.errors import RepoPermissionDenied
from ..rest import empty, json_response
from . import models

__all__ = ["ENDPOINTS"]

REPO = "/api/v1/repos/<owner>/<repo>"


def _read(owner: str, repo: str, scope: str) -> repos.Repo:
    """A repository the caller can see (404); the scope was checked before the view (``Endpoint.access``)."""
    return current_repo()


def _admin_issue(owner: str, repo: str, index: int) -> tuple[Issue, Principal]:
    """Gitea's ``reqAdmin``: repository administrators only (403), after the repository is found (404)."""
    found = _read(owner, repo, "issue")
    principal = current_principal()
    if not permission(principal, found).is_admin:
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


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/issues/<int:index>/pin",
        "pinIssue",
        pin_issue,
        "issue",
        token("issue", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/issues/<int:index>/pin",
        "unpinIssue",
        unpin_issue,
        "issue",
        token("issue", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/issues/<int:index>/pin/<position>",
        "moveIssuePin",
        move_issue_pin,
        "issue",
        token("issue", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/pinned",
        "repoListPinnedIssues",
        list_pinned_issues,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[issue]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/pulls/pinned",
        "repoListPinnedPullRequests",
        list_pinned_pulls,
        "issue",
        token("repository", anonymous_read=True, repo="read"),
        returns="[pull_request]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/new_pin_allowed",
        "repoNewPinAllowed",
        new_pin_allowed,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="new_issue_pins_allowed",
        errors=(404,),
    ),
)
