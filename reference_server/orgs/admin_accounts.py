"""A site administrator acts on a user's account: creates an organization the user owns, renames the user.

Both answer for users only (an organization given where a user is meant is 422, as Gitea's rename does); the
organization is created as if the user had asked (their own limits apply, 403 when they may not create
organizations), and a rename moves the user's repositories and leaves a redirect from the old name, as an
organization's rename does.
"""

from __future__ import annotations

from flask import Response

from ..access import ADMIN
from ..auth import ALL_SCOPES, Principal
from ..endpoints import API, EMPTY, Endpoint
from ..errors import Unprocessable
from ..rest import empty, json_body, json_response
from ..users import models as users
from . import models, rename
from .presenters import org_to_api

__all__ = ["ENDPOINTS"]


def _user_named(username: str) -> users.User:
    account = users.get_user_by_name(username)
    if account.is_org:
        raise Unprocessable(f"{account.name} is an organization not a user")
    return account


def admin_create_org(username: str) -> Response:
    """Create an organization owned by the user."""
    account = _user_named(username)
    owner = Principal(account.id, account.name, account.is_admin, ALL_SCOPES)
    return json_response(org_to_api(models.create_org(json_body(), owner)), status=201)


def admin_rename_user(username: str) -> Response:
    """Rename the user; the old name then redirects."""
    rename.rename_account(_user_named(username), json_body()["new_name"])
    return empty()


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "POST",
        API + "/admin/users/<username>/orgs",
        "adminCreateOrg",
        admin_create_org,
        "admin",
        ADMIN,
        body="CreateOrgOption",
        status=201,
        returns="organization",
        errors=(403, 422),
    ),
    Endpoint(
        "POST",
        API + "/admin/users/<username>/rename",
        "adminRenameUser",
        admin_rename_user,
        "admin",
        ADMIN,
        body="RenameUserOption",
        status=204,
        returns=EMPTY,
        errors=(403, 422),
    ),
)
