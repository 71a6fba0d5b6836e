"""REST routes of branch protections (with their priority route) and tag protections; repository admins only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, Response

from ..access import token
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import RepoDeletedEvent
from ..permissions import current_repo
from ..rest import empty, json_body, json_response
from . import models, store, tags
from .presenters import branch_protection_to_api

if TYPE_CHECKING:
    pass

__all__ = ["ENDPOINTS", "register"]

REPO = "/api/v1/repos/<owner>/<repo>"


def branch_protection_list(owner: str, repo: str) -> Response:
    """Every rule, by priority (no paging, as Gitea)."""
    found = current_repo()
    rules = models.list_branch_protections(found)
    return json_response([branch_protection_to_api(rule) for rule in rules])


def branch_protection_create(owner: str, repo: str) -> Response:
    found = current_repo()
    rule = models.create_branch_protection(found, json_body())
    return json_response(branch_protection_to_api(rule), status=201)


def branch_protection_get(owner: str, repo: str, name: str) -> Response:
    found = current_repo()
    return json_response(branch_protection_to_api(models.get_branch_protection(found, name)))


def branch_protection_edit(owner: str, repo: str, name: str) -> Response:
    found = current_repo()
    rule = models.edit_branch_protection(found, name, json_body())
    return json_response(branch_protection_to_api(rule))


def branch_protection_delete(owner: str, repo: str, name: str) -> Response:
    found = current_repo()
    models.delete_branch_protection(found, name)
    return empty()


def branch_protection_priorities(owner: str, repo: str) -> Response:
    """Re-number the listed rules 1, 2, 3... in place (same ids, same creation times)."""
    found = current_repo()
    models.reorder_branch_protections(found, json_body())
    return empty()


def tag_protection_list(owner: str, repo: str) -> Response:
    found = current_repo()
    return json_response([tags.tag_protection_to_api(rule) for rule in tags.list_tag_protections(found)])


def tag_protection_create(owner: str, repo: str) -> Response:
    found = current_repo()
    rule = tags.create_tag_protection(found, json_body())
    return json_response(tags.tag_protection_to_api(rule), status=201)


def tag_protection_get(owner: str, repo: str, rule_id: str) -> Response:
    found = current_repo()
    return json_response(tags.tag_protection_to_api(tags.get_tag_protection(found, rule_id)))


def tag_protection_edit(owner: str, repo: str, rule_id: str) -> Response:
    found = current_repo()
    rule = tags.edit_tag_protection(found, rule_id, json_body())
    return json_response(tags.tag_protection_to_api(rule))


def tag_protection_delete(owner: str, repo: str, rule_id: str) -> Response:
    found = current_repo()
    tags.delete_tag_protection(found, rule_id)
    return empty()


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    with forge().db.transaction():
        store.delete_rules_of_repo(event.repo_id)


def register(app: Flask) -> None:
    """Drop a deleted repository's rules."""
    forge().events.subscribe(RepoDeletedEvent, on_repo_deleted)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/branch_protections",
        "repoListBranchProtection",
        branch_protection_list,
        "repository",
        token("repository", repo="admin"),
        returns="[branch_protection]",
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/branch_protections",
        "repoCreateBranchProtection",
        branch_protection_create,
        "repository",
        token("repository", repo="admin"),
        body="CreateBranchProtectionOption",
        status=201,
        returns="branch_protection",
        errors=(403, 404, 422, 423),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/branch_protections/priority",
        "repoUpdateBranchProtectionPriories",
        branch_protection_priorities,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        body="UpdateBranchProtectionPriories",
        errors=(404, 422, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/branch_protections/<path:name>",
        "repoGetBranchProtection",
        branch_protection_get,
        "repository",
        token("repository", repo="admin"),
        returns="branch_protection",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/branch_protections/<path:name>",
        "repoEditBranchProtection",
        branch_protection_edit,
        "repository",
        token("repository", repo="admin"),
        body="EditBranchProtectionOption",
        returns="branch_protection",
        errors=(404, 422, 423),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/branch_protections/<path:name>",
        "repoDeleteBranchProtection",
        branch_protection_delete,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/tag_protections",
        "repoListTagProtection",
        tag_protection_list,
        "repository",
        token("repository", repo="admin"),
        returns="[tag_protection]",
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/tag_protections",
        "repoCreateTagProtection",
        tag_protection_create,
        "repository",
        token("repository", repo="admin"),
        body="CreateTagProtectionOption",
        status=201,
        returns="tag_protection",
        errors=(403, 404, 422, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/tag_protections/<rule_id>",
        "repoGetTagProtection",
        tag_protection_get,
        "repository",
        token("repository", repo="admin"),
        returns="tag_protection",
    ),
    Endpoint(
        "PATCH",
        API + "/repos/<owner>/<repo>/tag_protections/<rule_id>",
        "repoEditTagProtection",
        tag_protection_edit,
        "repository",
        token("repository", repo="admin"),
        body="EditTagProtectionOption",
        returns="tag_protection",
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/tag_protections/<rule_id>",
        "repoDeleteTagProtection",
        tag_protection_delete,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
    ),
)
