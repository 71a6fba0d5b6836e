"""Routes of repository labels (thin: scope, permission, parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..events import IssueDeletedEvent, RepoDeletedEvent
from ..permissions import current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .presenters import label_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
LABELS = "/repos/<owner>/<repo>/labels"


def issue_list_labels(owner: str, repo: str) -> Response:
    """The repository's labels, by name, paged."""
    found = current_repo()
    page = page_params()
    labels, total = models.list_labels(found, page.limit, page.offset)
    return paged_response([label_to_api(label, found) for label in labels], page, total)


def issue_get_label(owner: str, repo: str, label_id: int) -> Response:
    """One label of the repository."""
    found = current_repo()
    return json_response(label_to_api(models.get_label(found, label_id), found))


def issue_create_label(owner: str, repo: str) -> Response:
    """Create a label (writers)."""
    current_principal()
    found = current_repo()
    label = models.create_label(found, json_body())
    return json_response(label_to_api(label, found), status=201)


def issue_edit_label(owner: str, repo: str, label_id: int) -> Response:
    """Change a label's fields (writers)."""
    current_principal()
    found = current_repo()
    label = models.edit_label(found, label_id, json_body())
    return json_response(label_to_api(label, found))


def issue_delete_label(owner: str, repo: str, label_id: int) -> Response:
    """Delete a label (writers)."""
    current_principal()
    models.delete_label(current_repo(), label_id)
    return empty()


def register(app: Flask) -> None:
    """Drop a deleted repository's labels and a deleted issue's."""
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
    forge().events.subscribe(IssueDeletedEvent, models.on_issue_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/labels",
        "issueListLabels",
        issue_list_labels,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[label]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/labels",
        "issueCreateLabel",
        issue_create_label,
        "issue",
        token("issue", repo="write"),
        body="CreateLabelOption",
        status=201,
        returns="label",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/labels/<int:label_id>",
        "issueGetLabel",
        issue_get_label,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="label",
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/labels/<int:label_id>",
        "issueEditLabel",
        issue_edit_label,
        "issue",
        token("issue", repo="write"),
        body="EditLabelOption",
        returns="label",
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/labels/<int:label_id>",
        "issueDeleteLabel",
        issue_delete_label,
        "issue",
        token("issue", repo="write"),
        status=204,
        returns=EMPTY,
    ),
)
