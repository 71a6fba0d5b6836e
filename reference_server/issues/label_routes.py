"""REST routes of an issue's (or pull request's) labels: list, add, replace, remove one, clear.

Readers list them; changing them takes write access to the issues (or the pull requests) of the repository,
checked once the issue is found, as Gitea checks ``CanWriteIssuesOrPulls`` after loading it (so a missing
issue is 404 to every reader).
"""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal
from ..endpoints import API, EMPTY, Endpoint
from ..errors import Forbidden
from ..labels import models as labels
from ..labels.presenters import label_to_api
from ..permissions import current_repo, permission
from ..rest import empty, json_body, json_response
from .models import Issue, get_issue

__all__ = ["ENDPOINTS"]

LABELS = API + "/repos/<owner>/<repo>/issues/<int:index>/labels"


def _writable_issue(index: int) -> Issue:
    repo = current_repo()
    issue = get_issue(repo, index)
    if not permission(current_principal(), repo).can_write:
        raise Forbidden("write permission is required")
    return issue


def _answer(found: list[labels.Label]) -> Response:
    repo = current_repo()
    return json_response([label_to_api(label, repo) for label in found])


def issue_get_labels(owner: str, repo: str, index: int) -> Response:
    return _answer(labels.labels_of_issue(get_issue(current_repo(), index).id))


def issue_add_label(owner: str, repo: str, index: int) -> Response:
    """Add the labels named (by id or name) to those the issue has."""
    issue = _writable_issue(index)
    named = labels.labels_named(current_repo(), json_body().get("labels", []))
    return _answer(labels.set_issue_labels(issue.id, named, replace=False))


def issue_replace_labels(owner: str, repo: str, index: int) -> Response:
    """Make the labels named the issue's only ones."""
    issue = _writable_issue(index)
    named = labels.labels_named(current_repo(), json_body().get("labels", []))
    return _answer(labels.set_issue_labels(issue.id, named, replace=True))


def issue_remove_label(owner: str, repo: str, index: int, id: int) -> Response:
    labels.remove_issue_label(current_repo(), _writable_issue(index).id, id)
    return empty()


def issue_clear_labels(owner: str, repo: str, index: int) -> Response:
    labels.clear_issue_labels(_writable_issue(index).id)
    return empty()


READ = token("issue", anonymous_read=True, repo="read")
"""Every route: reading the repository's issues; changes then need write access (checked in the view)."""
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", LABELS, "issueGetLabels", issue_get_labels, "issue", READ, returns="[label]", errors=(404,)),
    Endpoint(
        "POST",
        LABELS,
        "issueAddLabel",
        issue_add_label,
        "issue",
        READ,
        body="IssueLabelsOption",
        returns="[label]",
        errors=(403, 404),
    ),
    Endpoint(
        "PUT",
        LABELS,
        "issueReplaceLabels",
        issue_replace_labels,
        "issue",
        READ,
        body="IssueLabelsOption",
        returns="[label]",
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        LABELS,
        "issueClearLabels",
        issue_clear_labels,
        "issue",
        READ,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        LABELS + "/<int:id>",
        "issueRemoveLabel",
        issue_remove_label,
        "issue",
        READ,
        status=204,
        returns=EMPTY,
        errors=(403, 404, 422),
    ),
)
