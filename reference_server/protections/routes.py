"""REST routes of branch protections (with their priority route) and tag protections; repository admins only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, Response

from ..auth import check_scope
from ..context import forge
from ..events import RepoDeletedEvent
from ..rest import empty, json_body, json_response
from . import models, store, tags

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = ["register"]

REPO = "/api/v1/repos/<owner>/<repo>"


def _admin_repo(owner: str, repo: str) -> Repo:
    """The repository, for a caller with ``repository`` scope who administers it (Gitea's ``reqAdmin``)."""
    from ..repos.models import require_repo

    check_scope("repository")
    return require_repo(owner, repo, "admin")


def branch_protection_list(owner: str, repo: str) -> Response:
    """Every rule, by priority (no paging, as Gitea)."""
    found = _admin_repo(owner, repo)
    rules = models.list_branch_protections(found)
    return json_response([models.branch_protection_to_api(rule) for rule in rules])


def branch_protection_create(owner: str, repo: str) -> Response:
    found = _admin_repo(owner, repo)
    rule = models.create_branch_protection(found, json_body())
    return json_response(models.branch_protection_to_api(rule), status=201)


def branch_protection_get(owner: str, repo: str, name: str) -> Response:
    found = _admin_repo(owner, repo)
    return json_response(models.branch_protection_to_api(models.get_branch_protection(found, name)))


def branch_protection_edit(owner: str, repo: str, name: str) -> Response:
    found = _admin_repo(owner, repo)
    rule = models.edit_branch_protection(found, name, json_body())
    return json_response(models.branch_protection_to_api(rule))


def branch_protection_delete(owner: str, repo: str, name: str) -> Response:
    found = _admin_repo(owner, repo)
    models.delete_branch_protection(found, name)
    return empty()


def branch_protection_priorities(owner: str, repo: str) -> Response:
    """Re-number the listed rules 1, 2, 3... in place (same ids, same creation times)."""
    found = _admin_repo(owner, repo)
    models.reorder_branch_protections(found, json_body())
    return empty()


def tag_protection_list(owner: str, repo: str) -> Response:
    found = _admin_repo(owner, repo)
    return json_response([tags.tag_protection_to_api(rule) for rule in tags.list_tag_protections(found)])


def tag_protection_create(owner: str, repo: str) -> Response:
    found = _admin_repo(owner, repo)
    rule = tags.create_tag_protection(found, json_body())
    return json_response(tags.tag_protection_to_api(rule), status=201)


def tag_protection_get(owner: str, repo: str, rule_id: str) -> Response:
    found = _admin_repo(owner, repo)
    return json_response(tags.tag_protection_to_api(tags.get_tag_protection(found, rule_id)))


def tag_protection_edit(owner: str, repo: str, rule_id: str) -> Response:
    found = _admin_repo(owner, repo)
    rule = tags.edit_tag_protection(found, rule_id, json_body())
    return json_response(tags.tag_protection_to_api(rule))


def tag_protection_delete(owner: str, repo: str, rule_id: str) -> Response:
    found = _admin_repo(owner, repo)
    tags.delete_tag_protection(found, rule_id)
    return empty()


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    with forge().db.transaction():
        store.delete_rules_of_repo(event.repo_id)


def register(app: Flask) -> None:
    """Mount the routes (endpoint names are Gitea's operation ids) and drop a deleted repository's rules."""
    branches = f"{REPO}/branch_protections"
    rule = f"{branches}/<path:name>"
    app.add_url_rule(branches, endpoint="repoListBranchProtection", view_func=branch_protection_list, methods=["GET"])
    app.add_url_rule(
        branches, endpoint="repoCreateBranchProtection", view_func=branch_protection_create, methods=["POST"]
    )
    app.add_url_rule(
        f"{branches}/priority",
        endpoint="repoUpdateBranchProtectionPriories",
        view_func=branch_protection_priorities,
        methods=["POST"],
    )
    app.add_url_rule(rule, endpoint="repoGetBranchProtection", view_func=branch_protection_get, methods=["GET"])
    app.add_url_rule(rule, endpoint="repoEditBranchProtection", view_func=branch_protection_edit, methods=["PATCH"])
    app.add_url_rule(
        rule, endpoint="repoDeleteBranchProtection", view_func=branch_protection_delete, methods=["DELETE"]
    )
    tag_rules = f"{REPO}/tag_protections"
    tag_rule = f"{tag_rules}/<rule_id>"
    app.add_url_rule(tag_rules, endpoint="repoListTagProtection", view_func=tag_protection_list, methods=["GET"])
    app.add_url_rule(tag_rules, endpoint="repoCreateTagProtection", view_func=tag_protection_create, methods=["POST"])
    app.add_url_rule(tag_rule, endpoint="repoGetTagProtection", view_func=tag_protection_get, methods=["GET"])
    app.add_url_rule(tag_rule, endpoint="repoEditTagProtection", view_func=tag_protection_edit, methods=["PATCH"])
    app.add_url_rule(tag_rule, endpoint="repoDeleteTagProtection", view_func=tag_protection_delete, methods=["DELETE"])
    forge().events.subscribe(RepoDeletedEvent, on_repo_deleted)
