"""REST routes of users and access tokens (thin: parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import ADMIN, basic, token
from ..auth import Principal, current_principal, optional_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..errors import BasicAuthRequired
from ..events import AccountDeletedEvent
from ..permissions import is_visible_to, require_self_or_admin
from ..rest import empty, json_body, json_response, page_params, paged_response, query_bool
from . import models
from .deletion import delete_user, remove_empty_owner_dir
from .errors import UserNotFound
from .presenters import user_to_api
from .settings import get_user_settings, update_user_settings
from .token_self import delete_current_token, get_current_token

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"


def _require_password(principal: Principal) -> None:
    """Token routes need the account's password in basic auth; a token, even as the basic-auth password,
    is refused (401 ``auth required``), so no token can mint, list or delete tokens."""
    if not principal.by_password:
        raise BasicAuthRequired("auth required")


def admin_create_user() -> Response:
    """Create a user (site admin)."""
    user = models.create_user(json_body())
    return json_response(user_to_api(user), status=201)


def admin_search_users() -> Response:
    """Every user, or those whose name, full name or e-mail contains ``q`` (site admin), oldest first."""
    principal = current_principal()
    page = page_params()
    found, total = models.search_accounts(
        is_org=False, keyword=request.args.get("q", ""), limit=page.limit, offset=page.offset
    )
    return paged_response([user_to_api(user, principal) for user in found], page, total)


def admin_delete_user(username: str) -> Response:
    """Delete a user (site admin); ?purge=true also deletes its repositories."""
    principal = current_principal()
    delete_user(username, purge=bool(query_bool("purge")), doer=principal)
    return empty()


def user_get_current() -> Response:
    """The authenticated user."""
    principal = current_principal()
    return json_response(user_to_api(models.get_user(principal.user_id)))


def user_get(username: str) -> Response:
    """A user by name."""
    user = models.get_user_by_name(username)
    if not is_visible_to(user, optional_principal()):
        raise UserNotFound(f"user does not exist [name: {username}]")
    return json_response(user_to_api(user))


def _token_owner(username: str) -> models.User:
    principal = current_principal()
    _require_password(principal)
    user = models.get_user_by_name(username)
    if user.is_org:
        raise UserNotFound(f"user does not exist [name: {username}]")
    require_self_or_admin(principal, user)
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
    """Remove an owner's empty directory when the account goes."""
    forge().events.subscribe(AccountDeletedEvent, remove_empty_owner_dir)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        API + "/admin/users",
        "adminCreateUser",
        admin_create_user,
        "admin",
        ADMIN,
        body="CreateUserOption",
        status=201,
        returns="user",
        errors=(400, 403, 422),
    ),
    Endpoint(
        "GET",
        API + "/admin/users",
        "adminSearchUsers",
        admin_search_users,
        "admin",
        ADMIN,
        returns="[user]",
        errors=(403, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/admin/users/<username>",
        "adminDeleteUser",
        admin_delete_user,
        "admin",
        ADMIN,
        status=204,
        returns=EMPTY,
        errors=(403, 404, 422),
    ),
    Endpoint("GET", API + "/user", "userGetCurrent", user_get_current, "user", token("user"), returns="user"),
    Endpoint(
        "GET",
        API + "/users/<username>",
        "userGet",
        user_get,
        "user",
        token("user", anonymous_read=True),
        returns="user",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/users/<username>/tokens",
        "userCreateToken",
        user_create_token,
        "user",
        basic("user"),
        body="CreateAccessTokenOption",
        status=201,
        returns="access_token",
        errors=(400, 403),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/tokens",
        "userGetTokens",
        user_get_tokens,
        "user",
        basic("user"),
        returns="[access_token]",
        errors=(403,),
    ),
    Endpoint(
        "DELETE",
        API + "/users/<username>/tokens/<token>",
        "userDeleteAccessToken",
        user_delete_access_token,
        "user",
        basic("user"),
        status=204,
        returns=EMPTY,
        errors=(403, 404, 422),
    ),
    Endpoint(
        "GET",
        API + "/user/settings",
        "getUserSettings",
        get_user_settings,
        "settings",
        token("user"),
        returns="user_settings",
    ),
    Endpoint(
        "PATCH",
        API + "/user/settings",
        "updateUserSettings",
        update_user_settings,
        "settings",
        token("user"),
        body="UserSettingsOptions",
        returns="user_settings",
    ),
    Endpoint(
        "GET",
        API + "/token",
        "getCurrentToken",
        get_current_token,
        "miscellaneous",
        token(),
        returns="current_access_token",
    ),
    Endpoint(
        "DELETE",
        API + "/token",
        "deleteCurrentToken",
        delete_current_token,
        "miscellaneous",
        token(),
        status=204,
        returns=EMPTY,
    ),
)
