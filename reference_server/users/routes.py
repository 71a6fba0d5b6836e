"""REST routes of users and access tokens (thin: parse, call the model, render)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, request

from ..auth import Principal, check_scope, current_principal, optional_principal, require_admin
from ..context import forge
from ..events import AccountDeletedEvent
from ..rest import empty, json_body, json_response, page_params, paged_response, query_bool
from . import models
from .errors import BasicAuthRequired, UserNotFound
from .settings import register_settings
from .token_self import register_token_self

__all__ = ["register"]

API = "/api/v1"


def _require_password(principal: Principal) -> None:
    """Token routes need the account's password in basic auth; a token, even as the basic-auth password,
    is refused (401 ``auth required``), so no token can mint, list or delete tokens."""
    if not principal.by_password:
        raise BasicAuthRequired("auth required")


def admin_create_user() -> Response:
    """Create a user (site admin)."""
    require_admin()
    user = models.create_user(json_body())
    return json_response(models.user_to_api(user), status=201)


def admin_search_users() -> Response:
    """Every user, or those whose name, full name or e-mail contains ``q`` (site admin), oldest first."""
    principal = require_admin()
    page = page_params()
    found, total = models.search_accounts(
        is_org=False, keyword=request.args.get("q", ""), limit=page.limit, offset=page.offset
    )
    return paged_response([models.user_to_api(user, principal) for user in found], page, total)


def admin_delete_user(username: str) -> Response:
    """Delete a user (site admin); ?purge=true also deletes its repositories."""
    principal = require_admin()
    models.delete_user(username, purge=bool(query_bool("purge")), doer=principal)
    return empty()


def user_get_current() -> Response:
    """The authenticated user."""
    check_scope("user")
    principal = current_principal()
    return json_response(models.user_to_api(models.get_user(principal.user_id)))


def user_get(username: str) -> Response:
    """A user by name."""
    check_scope("user", anonymous_ok=True)
    user = models.get_user_by_name(username)
    if not models.is_visible_to(user, optional_principal()):
        raise UserNotFound(f"user does not exist [name: {username}]")
    return json_response(models.user_to_api(user))


def _token_owner(username: str) -> models.User:
    principal = current_principal()
    _require_password(principal)
    user = models.get_user_by_name(username)
    if user.is_org:
        raise UserNotFound(f"user does not exist [name: {username}]")
    models.require_self_or_admin(principal, user)
    return user


def user_create_token(username: str) -> Response:
    """Create an access token (basic auth; the secret is shown once)."""
    user = _token_owner(username)
    created = models.create_token(user, json_body(required=("name",)))
    return json_response(models.token_to_api(created.token, created.plaintext), status=201)


def user_get_tokens(username: str) -> Response:
    """List a user's access tokens (basic auth)."""
    user = _token_owner(username)
    page = page_params()
    tokens, total = models.list_tokens(user, page.limit, page.offset)
    return paged_response([models.token_to_api(t) for t in tokens], page, total)


def user_delete_access_token(username: str, token: str) -> Response:
    """Delete an access token by id or name (basic auth)."""
    user = _token_owner(username)
    models.delete_token(user, token)
    return empty()


def register(app: Flask) -> None:
    """Attach the users routes; endpoint names are Gitea's operation ids."""
    rules: list[tuple[str, str, Callable[..., Response], list[str]]] = [
        ("/admin/users", "adminCreateUser", admin_create_user, ["POST"]),
        ("/admin/users", "adminSearchUsers", admin_search_users, ["GET"]),
        ("/admin/users/<username>", "adminDeleteUser", admin_delete_user, ["DELETE"]),
        ("/user", "userGetCurrent", user_get_current, ["GET"]),
        ("/users/<username>", "userGet", user_get, ["GET"]),
        ("/users/<username>/tokens", "userCreateToken", user_create_token, ["POST"]),
        ("/users/<username>/tokens", "userGetTokens", user_get_tokens, ["GET"]),
        ("/users/<username>/tokens/<token>", "userDeleteAccessToken", user_delete_access_token, ["DELETE"]),
    ]
    for path, endpoint, view, methods in rules:
        app.add_url_rule(API + path, endpoint=endpoint, view_func=view, methods=methods)
    forge().events.subscribe(AccountDeletedEvent, models.remove_empty_owner_dir)
    register_token_self(app)
    register_settings(app)
