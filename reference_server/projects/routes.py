"""REST routes of project boards (thin: scope, permission, model, render), mounted once per owner:
``/repos/{owner}/{repo}/projects``, ``/orgs/{org}/projects``, ``/users/{username}/projects`` and
``/user/projects`` (the caller's own boards), each with the same operations.

Writes check the caller's right on the scope first (as Gitea's route guards do), then find the board.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, Response, request

from ..access import Rule, token
from ..auth import current_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..events import AccountDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from ..issues.presenters import issue_api
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import cards, columns, models
from .presenters import column_to_api, project_to_api
from .scopes import Scope, org_scope, repo_scope, self_scope, user_scope

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
View = Callable[..., Response]


def list_projects(scope: Scope) -> Response:
    """List the boards of the scope (``state`` open, closed or all; newest first)."""
    page = page_params()
    found, total = models.list_projects(scope, request.args.get("state", "open").strip(), page.limit, page.offset)
    return paged_response([project_to_api(scope, project) for project in found], page, total)


def create_project(scope: Scope) -> Response:
    """Create a board (with the template's columns and a default column)."""
    principal = scope.require_write()
    project = models.create_project(scope, json_body(required=("title",)), principal)
    return json_response(project_to_api(scope, project), status=201)


def get_project(scope: Scope, project_id: int) -> Response:
    """Get a board."""
    return json_response(project_to_api(scope, models.get_project(scope, project_id)))


def edit_project(scope: Scope, project_id: int) -> Response:
    """Edit a board: title, description, card type, state (open or closed)."""
    scope.require_write()
    project = models.edit_project(scope, models.get_project(scope, project_id), json_body())
    return json_response(project_to_api(scope, project))


def delete_project(scope: Scope, project_id: int) -> Response:
    """Delete a board with its columns; the issues stay."""
    scope.require_write()
    models.delete_project(models.get_project(scope, project_id))
    return empty()


def list_columns(scope: Scope, project_id: int) -> Response:
    """List a board's columns, left to right."""
    page = page_params()
    found, total = columns.list_columns(models.get_project(scope, project_id), page.limit, page.offset)
    return paged_response([column_to_api(column) for column in found], page, total)


def _open_project(scope: Scope, project_id: int) -> models.Project:
    """The board for a change of its columns or cards: writers only, and never a closed board (403)."""
    scope.require_write()
    project = models.get_project(scope, project_id)
    models.require_open(project)
    return project


def create_column(scope: Scope, project_id: int) -> Response:
    """Add a column at the right end of a board."""
    project = _open_project(scope, project_id)
    column = columns.create_column(project, json_body(required=("title",)), current_principal())
    return json_response(column_to_api(column), status=201)


def move_columns(scope: Scope, project_id: int) -> Response:
    """Reorder every column of a board at once."""
    columns.move_columns(_open_project(scope, project_id), json_body())
    return empty()


def get_column(scope: Scope, project_id: int, column_id: int) -> Response:
    """Get a column of a board."""
    column = columns.get_column(models.get_project(scope, project_id), column_id)
    return json_response(column_to_api(column))


def edit_column(scope: Scope, project_id: int, column_id: int) -> Response:
    """Edit a column: title, colour, sorting."""
    project = _open_project(scope, project_id)
    column = columns.edit_column(project, columns.get_column(project, column_id), json_body())
    return json_response(column_to_api(column))


def delete_column(scope: Scope, project_id: int, column_id: int) -> Response:
    """Delete a column; its issues move to the default column."""
    project = _open_project(scope, project_id)
    columns.delete_column(project, columns.get_column(project, column_id))
    return empty()


def set_default_column(scope: Scope, project_id: int, column_id: int) -> Response:
    """Make a column the board's default column."""
    project = _open_project(scope, project_id)
    columns.set_default(project, columns.get_column(project, column_id))
    return empty()


def list_column_issues(scope: Scope, project_id: int, column_id: int) -> Response:
    """List the issues in a column that the caller may see."""
    page = page_params()
    column = columns.get_column(models.get_project(scope, project_id), column_id)
    found, total = cards.column_issues(column, page.limit, page.offset)
    return paged_response([issue_api(repo, issue) for issue, repo in found], page, total)


def add_column_issue(scope: Scope, project_id: int, column_id: int, issue_id: int) -> Response:
    """Put an issue (by global id) on the board in a column; 201 without a body."""
    project = _open_project(scope, project_id)
    cards.add_issue(scope, project, columns.get_column(project, column_id), issue_id)
    return empty(201)


def remove_column_issue(scope: Scope, project_id: int, column_id: int, issue_id: int) -> Response:
    """Take an issue off the board through the column it is in."""
    project = _open_project(scope, project_id)
    cards.remove_issue(project, columns.get_column(project, column_id), issue_id)
    return empty()


def move_issue(scope: Scope, project_id: int, issue_id: int) -> Response:
    """Move an issue of the board to a column (and position) of the same board."""
    cards.move_issue(_open_project(scope, project_id), issue_id, json_body())
    return empty()


ONE = "/<int:id>"
COLUMN = ONE + "/columns/<int:column_id>"
NO_CONTENT: dict[str, Any] = {"status": 204, "returns": EMPTY}
OPERATIONS: list[tuple[str, str, str, View, dict[str, Any]]] = [
    ("", "GET", "ListProjects", list_projects, {"returns": "[project]"}),
    ("", "POST", "CreateProject", create_project, {"status": 201, "returns": "project"}),
    (ONE, "GET", "GetProject", get_project, {"returns": "project"}),
    (ONE, "PATCH", "EditProject", edit_project, {"returns": "project"}),
    (ONE, "DELETE", "DeleteProject", delete_project, NO_CONTENT),
    (ONE + "/columns", "GET", "ListProjectColumns", list_columns, {"returns": "[project_column]"}),
    (ONE + "/columns", "POST", "CreateProjectColumn", create_column, {"status": 201, "returns": "project_column"}),
    (ONE + "/columns/move", "POST", "MoveProjectColumns", move_columns, NO_CONTENT),
    (COLUMN, "GET", "GetProjectColumn", get_column, {"returns": "project_column"}),
    (COLUMN, "PATCH", "EditProjectColumn", edit_column, {"returns": "project_column"}),
    (COLUMN, "DELETE", "DeleteProjectColumn", delete_column, NO_CONTENT),
    (COLUMN + "/default", "POST", "SetDefaultProjectColumn", set_default_column, NO_CONTENT),
    (COLUMN + "/issues", "GET", "ListProjectColumnIssues", list_column_issues, {"returns": "[issue]"}),
    (
        COLUMN + "/issues/<int:issue_id>",
        "POST",
        "AddIssueToProjectColumn",
        add_column_issue,
        {"status": 201, "returns": EMPTY},
    ),
    (COLUMN + "/issues/<int:issue_id>", "DELETE", "RemoveIssueFromProjectColumn", remove_column_issue, NO_CONTENT),
    (ONE + "/issues/<int:issue_id>/move", "POST", "MoveProjectIssue", move_issue, NO_CONTENT),
]
"""Path after the scope's prefix, method, Gitea's operation name (without the scope prefix), view, and its
success answer."""


def _user_operation(name: str) -> str:
    """Gitea names the listing at ``/users/{username}`` ``userListUserProjects``; the others follow suit."""
    return "user" + name.replace("Project", "UserProject", 1)


SCOPES: list[tuple[str, Callable[[str], str], tuple[str, ...], Callable[..., Scope], str, Rule]] = [
    (
        "/repos/<owner>/<repo>/projects",
        lambda op: f"repo{op}",
        ("owner", "repo"),
        repo_scope,
        "repository",
        token("issue", anonymous_read=True, repo="read"),
    ),
    (
        "/orgs/<org>/projects",
        lambda op: f"org{op}",
        ("org",),
        org_scope,
        "organization",
        token("organization", anonymous_read=True, org="visible"),
    ),
    (
        "/users/<username>/projects",
        _user_operation,
        ("username",),
        user_scope,
        "user",
        token("user", anonymous_read=True, user="visible"),
    ),
    ("/user/projects", lambda op: f"user{op}", (), self_scope, "user", token("issue")),
]
"""Prefix, operation id, the path parameters naming the scope, the resolver of the scope, the API tag, and the
access rule (public boards are read by anonymous callers; a repository's by those who can read it)."""


def _bind(resolve: Callable[..., Scope], scope_params: tuple[str, ...], view: View) -> View:
    """A Flask view that resolves the scope from the path and hands the remaining ids to ``view``."""

    @wraps(view)
    def handler(**kwargs: object) -> Response:
        scope = resolve(*(kwargs.pop(name) for name in scope_params))
        ids = {("project_id" if name == "id" else name): value for name, value in kwargs.items()}
        return view(scope, **ids)

    return handler


def register(app: Flask) -> None:
    """Boards go with their repository or owner."""
    forge().events.subscribe(RepoDeletedEvent, models.on_repo_deleted)
    forge().events.subscribe(AccountDeletedEvent, models.on_account_deleted)
    forge().events.subscribe(IssueDeletedEvent, models.on_issue_deleted)


ENDPOINTS: tuple[Endpoint, ...] = tuple(
    Endpoint(
        method,
        API + prefix + suffix,
        operation_id(name),
        _bind(resolve, scope_params, view),
        tag,
        rule,
        **answer,
    )
    for prefix, operation_id, scope_params, resolve, tag, rule in SCOPES
    for suffix, method, name, view, answer in OPERATIONS
)
