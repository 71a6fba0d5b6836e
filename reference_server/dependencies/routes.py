"""REST routes of dependencies and blocks (thin). ``{index}`` depends on the body's issue for
``/dependencies``; the body's issue depends on ``{index}`` for ``/blocks``. Lists are paged with
``X-Total-Count`` and ``Link``; POST and DELETE answer 201 with the path's issue, as Gitea's code does."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import Principal, current_principal, optional_principal
from ..endpoints import API, Endpoint
from ..issues.models import get_issue, get_issue_by_id
from ..issues.presenters import issue_api
from ..permissions import current_repo
from ..repos.commit_gate import require_unarchived
from ..rest import Page, json_body, json_response, page_params, paged_response
from . import models

__all__ = ["ENDPOINTS"]

ISSUE = "/api/v1/repos/<owner>/<repo>/issues/<int:index>"


def _path_issue(owner: str, repo: str, index: int) -> models.Linked:
    """Scope first (401/403 before any lookup), then a repository the caller can see (404), then the issue."""
    found = current_repo()
    return models.Linked(found, get_issue(found, index))


def _change(owner: str, repo: str, index: int, *, unarchived: bool) -> tuple[models.Linked, models.Linked, Principal]:
    """The path's issue, the body's issue and the caller of a POST or DELETE."""
    found = current_repo()
    if unarchived:
        require_unarchived(found)
    principal = current_principal()
    path = models.Linked(found, get_issue(found, index))
    return path, models.resolve_issue_meta(found, json_body(), principal), principal


def _answer(path: models.Linked) -> Response:
    return json_response(issue_api(path.repo, get_issue_by_id(path.issue.id)), status=201)


def _listing(page: Page, found: tuple[list[models.Linked], int]) -> Response:
    items, total = found
    return paged_response([issue_api(item.repo, item.issue) for item in items], page, total)


def list_dependencies(owner: str, repo: str, index: int) -> Response:
    path = _path_issue(owner, repo, index)
    page = page_params()
    return _listing(page, models.dependencies_page(path.issue, optional_principal(), page.limit, page.offset))


def create_dependency(owner: str, repo: str, index: int) -> Response:
    path, other, principal = _change(owner, repo, index, unarchived=True)
    models.add_link(path, other, principal)
    return _answer(path)


def remove_dependency(owner: str, repo: str, index: int) -> Response:
    path, other, principal = _change(owner, repo, index, unarchived=True)
    models.remove_link(path, other, principal)
    return _answer(path)


def list_blocks(owner: str, repo: str, index: int) -> Response:
    path = _path_issue(owner, repo, index)
    page = page_params()
    return _listing(page, models.blocks_page(path.issue, optional_principal(), page.limit, page.offset))


def create_blocking(owner: str, repo: str, index: int) -> Response:
    path, other, principal = _change(owner, repo, index, unarchived=False)
    models.add_link(other, path, principal)
    return _answer(path)


def remove_blocking(owner: str, repo: str, index: int) -> Response:
    path, other, principal = _change(owner, repo, index, unarchived=False)
    models.remove_link(other, path, principal)
    return _answer(path)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/<int:index>/dependencies",
        "issueListIssueDependencies",
        list_dependencies,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[issue]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/issues/<int:index>/dependencies",
        "issueCreateIssueDependencies",
        create_dependency,
        "issue",
        token("issue", repo="read"),
        body="IssueMeta",
        status=201,
        returns="issue",
        errors=(404, 423),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/issues/<int:index>/dependencies",
        "issueRemoveIssueDependencies",
        remove_dependency,
        "issue",
        token("issue", repo="read"),
        body="IssueMeta",
        status=201,
        returns="issue",
        errors=(404, 423),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/issues/<int:index>/blocks",
        "issueListBlocks",
        list_blocks,
        "issue",
        token("issue", anonymous_read=True, repo="read"),
        returns="[issue]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/repos/<owner>/<repo>/issues/<int:index>/blocks",
        "issueCreateIssueBlocking",
        create_blocking,
        "issue",
        token("issue", repo="read"),
        body="IssueMeta",
        status=201,
        returns="issue",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        API + "/repos/<owner>/<repo>/issues/<int:index>/blocks",
        "issueRemoveIssueBlocking",
        remove_blocking,
        "issue",
        token("issue", repo="read"),
        body="IssueMeta",
        status=201,
        returns="issue",
        errors=(404,),
    ),
)
