"""Routes of repository labels (thin: scope, permission, parse, call the model, render)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response

from ..auth import check_scope, current_principal
from ..context import forge
from ..events import RepoDeletedEvent
from ..repos.models import require_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models

__all__ = ["register"]

API = "/api/v1"
LABELS = "/repos/<owner>/<repo>/labels"


def issue_list_labels(owner: str, repo: str) -> Response:
    """The repository's labels, by name, paged."""
    check_scope("issue", anonymous_ok=True)
    found = require_repo(owner, repo, "read")
    page = page_params()
    labels, total = models.list_labels(found, page.limit, page.offset)
    return paged_response([models.label_to_api(label, found) for label in labels], page, total)


def issue_get_label(owner: str, repo: str, label_id: int) -> Response:
    """One label of the repository."""
    check_scope("issue", anonymous_ok=True)
    found = require_repo(owner, repo, "read")
    return json_response(models.label_to_api(models.get_label(found, label_id), found))


def issue_create_label(owner: str, repo: str) -> Response:
    """Create a label (writers)."""
    check_scope("issue")
    current_principal()
    found = require_repo(owner, repo, "write")
    label = models.create_label(found, json_body(required=("name", "color")))
    return json_response(models.label_to_api(label, found), status=201)


def issue_edit_label(owner: str, repo: str, label_id: int) -> Response:
    """Change a label's fields (writers)."""
    check_scope("issue")
    current_principal()
    found = require_repo(owner, repo, "write")
    label = models.edit_label(found, label_id, json_body())
    return json_response(models.label_to_api(label, found))


def issue_delete_label(owner: str, repo: str, label_id: int) -> Response:
    """Delete a label (writers)."""
    check_scope("issue")
    current_principal()
    models.delete_label(require_repo(owner, repo, "write"), label_id)
    return empty()


def register(app: Flask) -> None:
    """Attach the label routes (Gitea's operation ids) and drop a deleted repository's labels."""
    one = f"{LABELS}/<int:label_id>"
    rules: list[tuple[str, str, Callable[..., Response], str]] = [
        (LABELS, "issueListLabels", issue_list_labels, "GET"),
        (LABELS, "issueCreateLabel", issue_create_label, "POST"),
        (one, "issueGetLabel", issue_get_label, "GET"),
        (one, "issueEditLabel", issue_edit_label, "PATCH"),
        (one, "issueDeleteLabel", issue_delete_label, "DELETE"),
    ]
    for path, endpoint, view, method in rules:
        app.add_url_rule(API + path, endpoint=endpoint, view_func=view, methods=[method])
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
