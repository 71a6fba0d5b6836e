"""REST routes of users and access tokens (thin: parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import ADMIN, basic, token
from ..auth import current_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..events import AccountDeletedEvent
from ..permissions import current_user
from ..rest import empty, json_body, json_response, page_params, paged_response, query_bool
from . import models
from .admin_edit import edit_user
from .deletion import delete_user, remove_empty_owner_dir
from .emails import search_emails
from .presenters import email_to_api, user_to_api
from .settings import get_user_settings, update_user_settings
from .token_self import delete_current_token, get_current_token

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"


def admin_create_user() -> Response:
    """Create a user (site admin)."""
    user = models.create_user(json_body())
    return json_response(user_to_api(user), status=201)


_OPTIONAL_BOOLS = {"true": 1, "t": 1, "1": 1, "false": 0, "f": 0, "0": 0}
"""Go's ``ParseBool`` spellings: what Gitea's optional boolean filters understand (anything else: no filter)."""
_FLAG_FILTERS = {
    "is_active": "active",
    "is_admin": "is_admin",
    "is_restricted": "restricted",
    "is_prohibit_login": "prohibit_login",
}


def _search_filters() -> dict[str, object]:
    """The admin user search's filters from the query: the login name, the account flags, the visibility."""
    filters: dict[str, object] = {}
    login_name = request.args.get("login_name", "").strip()
    if login_name:
        filters["login_name"] = login_name
    for parameter, column in _FLAG_FILTERS.items():
        value = _OPTIONAL_BOOLS.get(request.args.get(parameter, "").strip().lower())
        if value is not None:
            filters[column] = value
    visibility = request.args.get("visibility", "").strip()
    if visibility in models.VISIBILITIES:
        filters["visibility"] = visibility
    return filters


def admin_search_users() -> Response:
    """Every user, or those whose name, full name or e-mail contains ``q`` and that pass the filters (site
    admin), oldest first. No account has two-factor authentication here, so ``is_2fa_enabled=true`` finds
    none."""
    principal = current_principal()
    page = page_params()
    if _OPTIONAL_BOOLS.get(request.args.get("is_2fa_enabled", "").strip().lower()) == 1:
        return paged_response([], page, 0)
    found, total = models.search_accounts(
        is_org=False,
        keyword=request.args.get("q", "").strip(),
        limit=page.limit,
        offset=page.offset,
        filters=_search_filters(),
    )
    return paged_response([user_to_api(user, principal) for user in found], page, total)


def admin_edit_user(username: str) -> Response:
    """Edit a user's sign-in, e-mail, profile, flags and limits (site admin)."""
    user = edit_user(models.get_user_by_name(username), json_body())
    return json_response(user_to_api(user, current_principal()))


def admin_list_emails() -> Response:
    """Every user's e-mail address, or those matching ``q`` (``/admin/emails/search``), by user (site admin)."""
    page = page_params()
    found, total = search_emails(request.args.get("q", ""), page.limit, page.offset)
    return paged_response([email_to_api(address) for address in found], page, total)


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
    return json_response(user_to_api(current_user()))


def user_create_token(username: str) -> Response:
    """Create an access token (basic auth; the secret is shown once)."""
    user = current_user()
    created = models.create_token(user, json_body())
    return json_response(models.token_to_api(created.token, created.plaintext), status=201)


def user_get_tokens(username: str) -> Response:
    """List a user's access tokens (basic auth)."""
    user = current_user()
    page = page_params()
    tokens, total = models.list_tokens(user, page.limit, page.offset)
    return paged_response([models.token_to_api(t) for t in tokens], page, total)


def user_delete_access_token(username: str, token: str) -> Response:
    """Delete an access token by id or name (basic auth)."""
    user = current_user()
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
    Endpoint("GET", API + "/admin/emails", "adminGetAllEmails", admin_list_emails, "admin", ADMIN, returns="[email]"),
    Endpoint(
        "GET",
        API + "/admin/emails/search",
        "adminSearchEmails",
        admin_list_emails,
        "admin",
        ADMIN,
        returns="[email]",
    ),
    Endpoint(
        "PATCH",
        API + "/admin/users/<username>",
        "adminEditUser",
        admin_edit_user,
        "admin",
        ADMIN,
        body="EditUserOption",
        returns="user",
        errors=(400, 403, 422),
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
        token("user", anonymous_read=True, user="visible"),
        returns="user",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/users/<username>/tokens",
        "userCreateToken",
        user_create_token,
        "user",
        basic("user", user="self"),
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
        basic("user", user="self"),
        returns="[access_token]",
        errors=(403,),
    ),
    Endpoint(
        "DELETE",
        API + "/users/<username>/tokens/<token>",
        "userDeleteAccessToken",
        user_delete_access_token,
        "user",
        basic("user", user="self"),
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
