"""Routes of repository and organization labels (thin: scope, permission, parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..events import AccountDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from ..permissions import current_org, current_repo
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .models import LabelOwner
from .presenters import label_to_api, org_label_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
LABELS = "/repos/<owner>/<repo>/labels"


def issue_list_labels(owner: str, repo: str) -> Response:
    """The repository's labels, by name, paged."""
    found = current_repo()
    page = page_params()
    labels, total = models.list_labels(LabelOwner.repository(found.id), page.limit, page.offset)
    return paged_response([label_to_api(label, found) for label in labels], page, total)


def issue_get_label(owner: str, repo: str, label_id: int) -> Response:
    """One label of the repository."""
    found = current_repo()
    return json_response(label_to_api(models.get_label(LabelOwner.repository(found.id), label_id), found))


def issue_create_label(owner: str, repo: str) -> Response:
    """Create a label (writers)."""
    current_principal()
    found = current_repo()
    label = models.create_label(LabelOwner.repository(found.id), json_body())
    return json_response(label_to_api(label, found), status=201)


def issue_edit_label(owner: str, repo: str, label_id: int) -> Response:
    """Change a label's fields (writers)."""
    current_principal()
    found = current_repo()
    label = models.edit_label(LabelOwner.repository(found.id), label_id, json_body())
    return json_response(label_to_api(label, found))


def issue_delete_label(owner: str, repo: str, label_id: int) -> Response:
    """Delete a label (writers)."""
    current_principal()
    models.delete_label(LabelOwner.repository(current_repo().id), label_id)
    return empty()


def _org() -> LabelOwner:
    return LabelOwner.organization(current_org().id)


def org_list_labels(org: str) -> Response:
    """The organization's labels, by name, paged."""
    page = page_params()
    labels, total = models.list_labels(_org(), page.limit, page.offset)
    name = current_org().name
    return paged_response([org_label_to_api(label, name) for label in labels], page, total)


def org_get_label(org: str, id: int) -> Response:
    return json_response(org_label_to_api(models.get_label(_org(), id), current_org().name))


def org_create_label(org: str) -> Response:
    """Create a label of the organization (its owners), usable on the issues of its repositories."""
    return json_response(org_label_to_api(models.create_label(_org(), json_body()), current_org().name), status=201)


def org_edit_label(org: str, id: int) -> Response:
    return json_response(org_label_to_api(models.edit_label(_org(), id, json_body()), current_org().name))


def org_delete_label(org: str, id: int) -> Response:
    models.delete_label(_org(), id)
    return empty()


def register(app: Flask) -> None:
    """Give an old table the organization column; drop a deleted repository's, organization's or issue's labels."""
    models.prepare_table()
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
    forge().events.subscribe(AccountDeletedEvent, models.on_account_deleted)
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
    Endpoint(
        "GET",
        API + "/orgs/<org>/labels",
        "orgListLabels",
        org_list_labels,
        "organization",
        token("organization", anonymous_read=True, org="visible"),
        returns="[label]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/orgs/<org>/labels",
        "orgCreateLabel",
        org_create_label,
        "organization",
        token("organization", org="owner"),
        body="CreateLabelOption",
        status=201,
        returns="label",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/labels/<int:id>",
        "orgGetLabel",
        org_get_label,
        "organization",
        token("organization", org="visible"),
        returns="label",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/orgs/<org>/labels/<int:id>",
        "orgEditLabel",
        org_edit_label,
        "organization",
        token("organization", org="owner"),
        body="EditLabelOption",
        returns="label",
        errors=(404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/orgs/<org>/labels/<int:id>",
        "orgDeleteLabel",
        org_delete_label,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
)
