"""REST routes of follows, blocks, the user search and OAuth2 applications (thin: the account comes checked,
call the model, render)."""

from __future__ import annotations

from flask import Response, request

from ..access import token
from ..auth import current_principal, optional_principal
from ..endpoints import EMPTY, Endpoint
from ..permissions import current_org, current_user, is_visible_to, require_user
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users import relations
from ..users.models import User, get_user
from ..users.presenters import user_to_api
from . import models, oauth2
from .errors import RelationNotFound
from .presenters import oauth2_app_to_api

__all__ = ["ENDPOINTS"]

API = "/api/v1"


def _users(found: list[User], total: int) -> Response:
    return paged_response([user_to_api(user) for user in found], page_params(), total)


def _visible_page(accounts: list[User]) -> Response:
    """One page of the accounts the caller may see, and their number (Gitea leaves out the others)."""
    page = page_params()
    viewer = optional_principal()
    visible = [account for account in accounts if is_visible_to(account, viewer)]
    return _users(visible[page.offset : page.offset + page.limit], len(visible))


def _me() -> User:
    return get_user(current_principal().user_id)


# -- follows ---------------------------------------------------------------------------------------


def user_current_list_followers() -> Response:
    """The caller's followers (Gitea's ``NumFollowers`` as the total)."""
    return _visible_page(relations.followers(_me()))


def user_current_list_following() -> Response:
    """The users the caller follows."""
    return _visible_page(relations.following(_me()))


def user_current_check_following(username: str) -> Response:
    """204 when the caller follows the user, else 404."""
    if not relations.is_following(current_principal().user_id, require_user(username, "visible").id):
        raise RelationNotFound()
    return empty()


def user_current_put_follow(username: str) -> Response:
    """Follow the user (204, also when already following or following oneself); 403 across a block."""
    relations.follow(_me(), require_user(username, "visible"))
    return empty()


def user_current_delete_follow(username: str) -> Response:
    """Stop following the user (204, also when not following)."""
    relations.unfollow(current_principal().user_id, require_user(username, "visible").id)
    return empty()


def user_list_followers(username: str) -> Response:
    """A user's followers."""
    return _visible_page(relations.followers(current_user()))


def user_list_following(username: str) -> Response:
    """The users a user follows."""
    return _visible_page(relations.following(current_user()))


def user_check_following(username: str, target: str) -> Response:
    """204 when ``username`` follows ``target``, else 404 (also when ``target`` does not exist)."""
    followed = require_user(target, "exists")
    if not relations.is_following(current_user().id, followed.id):
        raise RelationNotFound()
    return empty()


# -- blocks ----------------------------------------------------------------------------------------


def _check_block(blocker: User, username: str) -> Response:
    if not models.is_blocking(blocker, require_user(username, "exists")):
        raise RelationNotFound()
    return empty()


def _block(blocker: User, username: str) -> Response:
    models.block(current_principal(), blocker, require_user(username, "exists"), request.args.get("note", ""))
    return empty()


def _unblock(blocker: User, username: str) -> Response:
    models.unblock(current_principal(), blocker, require_user(username, "exists"))
    return empty()


def _list_blocks(blocker: User) -> Response:
    page = page_params()
    return _users(*models.blocked_users(blocker, page.limit, page.offset))


def user_list_blocks() -> Response:
    """The users the caller blocks."""
    return _list_blocks(_me())


def user_check_user_block(username: str) -> Response:
    """204 when the caller blocks the user, else 404."""
    return _check_block(_me(), username)


def user_block_user(username: str) -> Response:
    """Block the user (``?note=``); 400 when Gitea refuses the block."""
    return _block(_me(), username)


def user_unblock_user(username: str) -> Response:
    """Lift the caller's block on the user; 400 when there is none."""
    return _unblock(_me(), username)


def organization_list_blocks(org: str) -> Response:
    """The users the organization blocks (its owners ask)."""
    return _list_blocks(current_org())


def organization_check_user_block(org: str, username: str) -> Response:
    """204 when the organization blocks the user, else 404."""
    return _check_block(current_org(), username)


def organization_block_user(org: str, username: str) -> Response:
    """The organization blocks the user (``?note=``); never one of its members."""
    return _block(current_org(), username)


def organization_unblock_user(org: str, username: str) -> Response:
    """The organization lifts its block on the user."""
    return _unblock(current_org(), username)


# -- search ----------------------------------------------------------------------------------------


def _uid() -> int:
    """``uid`` as Gitea's ``FormInt64`` reads it: anything but a number is 0 (no filter)."""
    try:
        return int(request.args.get("uid", "0"))
    except ValueError:
        return 0


def user_search() -> Response:
    """Users by keyword (``q``) or id (``uid``), in Gitea's ``{"data": [...], "ok": true}`` envelope."""
    page = page_params()
    viewer = optional_principal()
    found, total = models.search(viewer, request.args.get("q", "").strip(), _uid(), page.limit, page.offset)
    return paged_response({"data": [user_to_api(user) for user in found], "ok": True}, page, total)


# -- OAuth2 applications ---------------------------------------------------------------------------


def user_get_oauth2_applications() -> Response:
    """The caller's OAuth2 applications, without secrets."""
    page = page_params()
    apps, total = oauth2.list_apps(current_principal().user_id, page.limit, page.offset)
    return paged_response([oauth2_app_to_api(app) for app in apps], page, total)


def user_create_oauth2_application() -> Response:
    """Create an application; its client secret is answered this once."""
    app = oauth2.create_app(current_principal().user_id, json_body())
    return json_response(oauth2_app_to_api(app), status=201)


def user_get_oauth2_application(id: int) -> Response:
    """One of the caller's applications, without its secret."""
    return json_response(oauth2_app_to_api(oauth2.get_app(current_principal().user_id, id)))


def user_update_oauth2_application(id: int) -> Response:
    """Replace an application's settings; Gitea regenerates the secret and answers it."""
    app = oauth2.update_app(current_principal().user_id, id, json_body())
    return json_response(oauth2_app_to_api(app))


def user_delete_oauth2_application(id: int) -> Response:
    """Delete one of the caller's applications."""
    oauth2.delete_app(current_principal().user_id, id)
    return empty()


_FOLLOWS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/user/followers",
        "userCurrentListFollowers",
        user_current_list_followers,
        "user",
        token("user"),
        returns="[user]",
    ),
    Endpoint(
        "GET",
        API + "/user/following",
        "userCurrentListFollowing",
        user_current_list_following,
        "user",
        token("user"),
        returns="[user]",
    ),
    Endpoint(
        "GET",
        API + "/user/following/<username>",
        "userCurrentCheckFollowing",
        user_current_check_following,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        API + "/user/following/<username>",
        "userCurrentPutFollow",
        user_current_put_follow,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/user/following/<username>",
        "userCurrentDeleteFollow",
        user_current_delete_follow,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/followers",
        "userListFollowers",
        user_list_followers,
        "user",
        token("user", anonymous_read=True, user="visible"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/following",
        "userListFollowing",
        user_list_following,
        "user",
        token("user", anonymous_read=True, user="visible"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/following/<target>",
        "userCheckFollowing",
        user_check_following,
        "user",
        token("user", anonymous_read=True, user="visible"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
)

_BLOCKS: tuple[Endpoint, ...] = (
    Endpoint("GET", API + "/user/blocks", "userListBlocks", user_list_blocks, "user", token("user"), returns="[user]"),
    Endpoint(
        "GET",
        API + "/user/blocks/<username>",
        "userCheckUserBlock",
        user_check_user_block,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        API + "/user/blocks/<username>",
        "userBlockUser",
        user_block_user,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        errors=(400, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/user/blocks/<username>",
        "userUnblockUser",
        user_unblock_user,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        errors=(400, 404, 422),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/blocks",
        "organizationListBlocks",
        organization_list_blocks,
        "organization",
        token("organization", org="owner"),
        returns="[user]",
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/blocks/<username>",
        "organizationCheckUserBlock",
        organization_check_user_block,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "PUT",
        API + "/orgs/<org>/blocks/<username>",
        "organizationBlockUser",
        organization_block_user,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/orgs/<org>/blocks/<username>",
        "organizationUnblockUser",
        organization_unblock_user,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        errors=(400, 403, 404, 422),
    ),
)

_APPS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/users/search",
        "userSearch",
        user_search,
        "user",
        token("user", anonymous_read=True),
        returns="user_search_results",
    ),
    Endpoint(
        "GET",
        API + "/user/applications/oauth2",
        "userGetOauth2Application",
        user_get_oauth2_applications,
        "user",
        token("user"),
        returns="[oauth2_application]",
    ),
    Endpoint(
        "POST",
        API + "/user/applications/oauth2",
        "userCreateOAuth2Application",
        user_create_oauth2_application,
        "user",
        token("user"),
        body="CreateOAuth2ApplicationOptions",
        status=201,
        returns="oauth2_application",
        errors=(400, 422),
    ),
    Endpoint(
        "GET",
        API + "/user/applications/oauth2/<int:id>",
        "userGetOAuth2Application",
        user_get_oauth2_application,
        "user",
        token("user"),
        returns="oauth2_application",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/user/applications/oauth2/<int:id>",
        "userUpdateOAuth2Application",
        user_update_oauth2_application,
        "user",
        token("user"),
        body="CreateOAuth2ApplicationOptions",
        returns="oauth2_application",
        errors=(400, 404, 422),
    ),
    Endpoint(
        "DELETE",
        API + "/user/applications/oauth2/<int:id>",
        "userDeleteOAuth2Application",
        user_delete_oauth2_application,
        "user",
        token("user"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
)

ENDPOINTS: tuple[Endpoint, ...] = (*_FOLLOWS, *_BLOCKS, *_APPS)
