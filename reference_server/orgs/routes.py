"""REST routes of organizations, their members and teams (thin: scope, caller, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import ADMIN, token
from ..auth import check_scope, current_principal, optional_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..permissions import current_org, current_user, is_org_member
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users import models as users
from ..users.errors import UserNotFound
from ..users.presenters import user_to_api
from . import admin_accounts, listing, models, rename, store, team_routes, teams
from .presenters import org_to_api, team_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
_REDIRECTING = {"orgs": "organization", "repos": "repository", "users": "user"}


def _user_named(name: str) -> users.User:
    account = users.find_account(name)
    if account is None or account.is_org:
        raise UserNotFound(f"user does not exist [name: {name}]")
    return account


def _redirect(location: str, status: int) -> Response:
    """A redirect with the ``Location`` exactly as given (a path, as Gitea sends it)."""
    response = Response(b"", status=status)
    response.headers["Location"] = location
    return response


# -- organizations -------------------------------------------------------------------------------


def org_create() -> Response:
    """Create an organization; the caller becomes its owner."""
    principal = current_principal()
    org = models.create_org(json_body(), principal)
    return json_response(org_to_api(org), status=201)


def org_get(org: str) -> Response:
    """An organization by name."""
    return json_response(org_to_api(current_org()))


def org_edit(org: str) -> Response:
    """Edit an organization's profile (owner or site admin)."""
    return json_response(org_to_api(models.edit_org(current_org(), json_body())))


def org_delete(org: str) -> Response:
    """Delete an organization without repositories (owner or site admin)."""
    models.delete_org(current_org())
    return empty()


def rename_org(org: str) -> Response:
    """Rename an organization (owner or site admin); the old name then redirects."""
    rename.rename_account(current_org(), json_body()["new_name"])
    return empty()


# -- members -------------------------------------------------------------------------------------


def org_list_members(org: str) -> Response:
    """An organization's members (public ones only for callers outside it)."""
    principal = current_principal()
    page = page_params()
    members, total = models.list_members(current_org(), principal, page.limit, page.offset)
    return paged_response([user_to_api(member) for member in members], page, total)


def org_is_member(org: str, username: str) -> Response:
    """204 when a member; members ask directly, others are sent to the public membership check (303)."""
    principal = current_principal()
    found = current_org()
    member = _user_named(username)
    if principal.is_admin or is_org_member(principal.user_id, found.id):
        if is_org_member(member.id, found.id):
            return empty()
        raise UserNotFound(f"user is not a member of the organization [name: {username}]")
    if principal.user_id == member.id:
        raise UserNotFound(f"user is not a member of the organization [name: {username}]")
    return _redirect(f"{request.script_root}{API}/orgs/{found.name}/public_members/{member.name}", 303)


def org_delete_member(org: str, username: str) -> Response:
    """Remove a user from every team of the organization (owner or site admin)."""
    models.remove_member(current_org(), _user_named(username))
    return empty()


def org_list_public_members(org: str) -> Response:
    """The members who show their membership."""
    page = page_params()
    members, total = models.list_public_members(current_org(), page.limit, page.offset)
    return paged_response([user_to_api(member) for member in members], page, total)


def org_is_public_member(org: str, username: str) -> Response:
    """204 when the user shows its membership, else 404."""
    found = current_org()
    member = _user_named(username)
    if not models.is_public_member(member.id, found.id):
        raise UserNotFound(f"user is not a public member of the organization [name: {username}]")
    return empty()


def _set_public(org: str, username: str, public: bool) -> Response:
    models.set_membership_public(current_org(), _user_named(username), current_principal(), public)
    return empty()


def org_publicize_member(org: str, username: str) -> Response:
    """Show one's own membership."""
    return _set_public(org, username, True)


def org_conceal_member(org: str, username: str) -> Response:
    """Hide one's own membership."""
    return _set_public(org, username, False)


# -- the caller's and a user's organizations and teams -------------------------------------------


def org_list_current_user_orgs() -> Response:
    """The organizations the caller belongs to."""
    principal = current_principal()
    page = page_params()
    found, total = models.list_orgs_of_user(users.get_user(principal.user_id), principal, page.limit, page.offset)
    return paged_response([org_to_api(org) for org in found], page, total)


def org_list_user_orgs(username: str) -> Response:
    """A user's organizations as the caller may see them (public memberships unless self or site admin)."""
    principal = optional_principal()
    page = page_params()
    found, total = models.list_orgs_of_user(current_user(), principal, page.limit, page.offset)
    return paged_response([org_to_api(org) for org in found], page, total)


def user_list_teams() -> Response:
    """Every team the caller is in, with its organization."""
    principal = current_principal()
    page = page_params()
    found, total = teams.list_teams_of_user(principal.user_id, page.limit, page.offset)
    return paged_response([team_to_api(team, with_org=True) for team in found], page, total)


# -- redirects of renamed organizations ----------------------------------------------------------


def redirect_renamed_account() -> Response | None:
    """Gitea's ``RedirectToUser``: a path naming an account's old name answers 307 to the new name.

    Only when no account holds the name now; the scope of a token is checked first, and an anonymous
    caller is not told where a limited or private organization went (404 ``user does not exist``).
    """
    parts = request.path.split("/")
    if len(parts) < 5 or parts[1] != "api" or parts[2] != "v1" or parts[3] not in _REDIRECTING or not parts[4]:
        return None
    if parts[3] == "repos" and len(parts) < 6:
        return None
    name = parts[4]
    account_id = store.redirect_target(name.lower())
    if account_id is None or users.find_account(name) is not None:
        return None
    principal = optional_principal()
    if principal is not None:
        check_scope(_REDIRECTING[parts[3]], anonymous_ok=True)
    account = users.get_user(account_id)
    if account.visibility != "public" and principal is None:
        raise UserNotFound("user does not exist")
    query = request.query_string.decode("latin-1")
    location = rename.redirect_location(request.path, name, account, request.script_root, query)
    return _redirect(location, 307)


def admin_get_all_orgs() -> Response:
    """Every organization, oldest first (site admin)."""
    page = page_params()
    found, total = users.search_accounts(is_org=True, keyword="", limit=page.limit, offset=page.offset)
    return paged_response([org_to_api(org) for org in found], page, total)


def register(app: Flask) -> None:
    """Give an old teams table its new columns, finish interrupted renames and redirect a renamed account's old
    name."""
    store.upgrade(forge().db)
    rename.finish_pending_moves()
    app.before_request(redirect_renamed_account)


ENDPOINTS: tuple[Endpoint, ...] = (
    *team_routes.ENDPOINTS,
    *admin_accounts.ENDPOINTS,
    *listing.ENDPOINTS,
    Endpoint(
        "POST",
        API + "/orgs",
        "orgCreate",
        org_create,
        "organization",
        token("organization"),
        body="CreateOrgOption",
        status=201,
        returns="organization",
        errors=(403, 422),
    ),
    Endpoint(
        "GET",
        API + "/admin/orgs",
        "adminGetAllOrgs",
        admin_get_all_orgs,
        "admin",
        ADMIN,
        returns="[organization]",
        errors=(403,),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>",
        "orgGet",
        org_get,
        "organization",
        token("organization", anonymous_read=True, org="visible"),
        returns="organization",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/orgs/<org>",
        "orgEdit",
        org_edit,
        "organization",
        token("organization", org="owner"),
        body="EditOrgOption",
        returns="organization",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        API + "/orgs/<org>",
        "orgDelete",
        org_delete,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/orgs/<org>/rename",
        "renameOrg",
        rename_org,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        body="RenameOrgOption",
        errors=(403, 422),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/members",
        "orgListMembers",
        org_list_members,
        "organization",
        token("organization", org="visible"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/members/<username>",
        "orgIsMember",
        org_is_member,
        "organization",
        token("organization", org="visible"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        API + "/orgs/<org>/members/<username>",
        "orgDeleteMember",
        org_delete_member,
        "organization",
        token("organization", org="owner"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/public_members",
        "orgListPublicMembers",
        org_list_public_members,
        "organization",
        token("organization", anonymous_read=True, org="visible"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/public_members/<username>",
        "orgIsPublicMember",
        org_is_public_member,
        "organization",
        token("organization", anonymous_read=True, org="visible"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        API + "/orgs/<org>/public_members/<username>",
        "orgPublicizeMember",
        org_publicize_member,
        "organization",
        token("organization", org="member"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/orgs/<org>/public_members/<username>",
        "orgConcealMember",
        org_conceal_member,
        "organization",
        token("organization", org="member"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/user/orgs",
        "orgListCurrentUserOrgs",
        org_list_current_user_orgs,
        "user",
        token("organization", "user"),
        returns="[organization]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/orgs",
        "orgListUserOrgs",
        org_list_user_orgs,
        "user",
        token("organization", "user", anonymous_read=True, user="exists"),
        returns="[organization]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/user/teams",
        "userListTeams",
        user_list_teams,
        "user",
        token("organization", "user"),
        returns="[team]",
    ),
)
