"""REST routes of secrets and variables at repository, organization and user scope (Gitea 1.27 paths).

Scopes are resolved by :mod:`scopes` (token category first, then the role: repository owner,
organization owner, or the user themself). User secrets have no list route, as in Gitea.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response

from ..access import Rule, token
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import RepoDeletedEvent
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import config_store
from .scopes import Scope, org_scope, repo_scope, user_scope
from .secrets import delete_secret, list_secrets, put_secret, secret_to_api
from .variables import (
    create_variable,
    delete_variable,
    get_variable,
    list_variables,
    update_variable,
    variable_to_api,
)

__all__ = ["CONFIG_ENDPOINTS", "on_repo_deleted"]


def _list_secrets(scope: Scope) -> Response:
    """List the scope's secrets: names, descriptions, creation times, never values."""
    page = page_params()
    secrets, total = list_secrets(scope.owner_id, scope.repo_id, page.limit, page.offset)
    return paged_response([secret_to_api(secret) for secret in secrets], page, total)


def _put_secret(scope: Scope, name: str) -> Response:
    """Create (201) or update (204) a secret."""
    created = put_secret(scope.owner_id, scope.repo_id, name, json_body())
    return empty(201 if created else 204)


def _delete_secret(scope: Scope, name: str) -> Response:
    """Delete a secret."""
    delete_secret(scope.owner_id, scope.repo_id, name)
    return empty()


def _list_variables(scope: Scope) -> Response:
    """List the scope's variables."""
    page = page_params()
    variables, total = list_variables(scope.owner_id, scope.repo_id, page.limit, page.offset)
    return paged_response([variable_to_api(variable) for variable in variables], page, total)


def _get_variable(scope: Scope, name: str) -> Response:
    """Get a variable."""
    return json_response(variable_to_api(get_variable(scope.owner_id, scope.repo_id, name)))


def _create_variable(scope: Scope, name: str) -> Response:
    """Create a variable (409 when the name exists in any case)."""
    create_variable(scope.owner_id, scope.repo_id, name, json_body())
    return empty(201)


def _update_variable(scope: Scope, name: str) -> Response:
    """Update a variable's value and description, and rename it when a new name is given."""
    update_variable(scope.owner_id, scope.repo_id, name, json_body())
    return empty()


def _delete_variable(scope: Scope, name: str) -> Response:
    """Delete a variable."""
    delete_variable(scope.owner_id, scope.repo_id, name)
    return empty()


ScopeOf = Callable[..., Scope]
Action = Callable[..., Response]

SECRET_LIST = ("GET", "/secrets", _list_secrets)
SECRET_ROUTES: list[tuple[str, str, Action]] = [
    ("PUT", "/secrets/<name>", _put_secret),
    ("DELETE", "/secrets/<name>", _delete_secret),
]
VARIABLE_ROUTES: list[tuple[str, str, Action]] = [
    ("GET", "/variables", _list_variables),
    ("GET", "/variables/<name>", _get_variable),
    ("POST", "/variables/<name>", _create_variable),
    ("PUT", "/variables/<name>", _update_variable),
    ("DELETE", "/variables/<name>", _delete_variable),
]


def _bind(action: Action, resolve: ScopeOf) -> Any:
    """A view that resolves the scope from the URL's owner/repo/org arguments, then runs ``action``."""

    def view(**kwargs: str) -> Response:
        scope_args = [kwargs.pop(key) for key in ("owner", "repo", "org") if key in kwargs]
        return action(resolve(*scope_args), **kwargs)

    view.__doc__ = action.__doc__
    return view


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's secrets and variables go with it."""
    with forge().db.transaction():
        config_store.delete_of_repo(event.repo_id)


_SCOPES: list[tuple[str, str, ScopeOf, Rule, str, list[tuple[str, str, Action]]]] = [
    (
        "repo",
        "/repos/<owner>/<repo>/actions",
        repo_scope,
        token("repository", repo="admin"),
        "repository",
        [SECRET_LIST, *SECRET_ROUTES, *VARIABLE_ROUTES],
    ),
    (
        "org",
        "/orgs/<org>/actions",
        org_scope,
        token("organization", org="owner"),
        "organization",
        [SECRET_LIST, *SECRET_ROUTES, *VARIABLE_ROUTES],
    ),
    ("user", "/user/actions", user_scope, token("user"), "user", [*SECRET_ROUTES, *VARIABLE_ROUTES]),
]
_ANSWERS: dict[str, dict[str, Any]] = {
    "list_secrets": {"returns": "[secret]"},
    "put_secret": {"body": "CreateOrUpdateSecretOption", "status": 201, "returns": EMPTY},
    "list_variables": {"returns": "[action_variable]"},
    "get_variable": {"returns": "action_variable"},
    "create_variable": {"body": "CreateVariableOption", "status": 201, "returns": EMPTY},
    "update_variable": {"body": "UpdateVariableOption", "status": 204, "returns": EMPTY},
    "delete_secret": {"status": 204, "returns": EMPTY},
    "delete_variable": {"status": 204, "returns": EMPTY},
}
"""What each action declares beyond its route: its body model and success answer."""

CONFIG_ENDPOINTS: tuple[Endpoint, ...] = tuple(
    Endpoint(
        method,
        API + prefix + path,
        f"actions_{scope_name}_{action.__name__.strip('_')}",
        _bind(action, resolve),
        tag,
        rule,
        **_ANSWERS.get(action.__name__.strip("_"), {}),
    )
    for scope_name, prefix, resolve, rule, tag, routes in _SCOPES
    for method, path, action in routes
)
"""Secrets and variables at the three scopes."""
