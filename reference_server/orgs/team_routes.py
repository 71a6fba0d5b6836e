"""REST routes of an organization's teams: listed and created in the organization, read, edited and deleted by
id, their members and their repositories (thin: scope, caller, call the model, render)."""

from __future__ import annotations

from flask import Response, request

from ..access import token
from ..auth import current_principal
from ..endpoints import API, EMPTY, Endpoint
from ..permissions import current_org
from ..repos.presenters import repo_to_api
from ..rest import empty, json_body, json_response, page_params, paged_response
from ..users.presenters import user_to_api
from . import teams
from .presenters import team_to_api

__all__ = ["ENDPOINTS"]

GO_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
"""What Go's ``strconv.ParseBool`` reads as true (anything else, unparsable included, is false to Gitea)."""


def org_list_teams(org: str) -> Response:
    """An organization's teams a member of it may list (its own, limited and public ones; owners all)."""
    page = page_params()
    found_teams, total = teams.list_teams(current_org(), current_principal(), page.limit, page.offset)
    return paged_response([team_to_api(team, with_org=False) for team in found_teams], page, total)


def team_search(org: str) -> Response:
    """Gitea's team search: ``q`` in the name (and the description unless ``include_desc`` is false), paged,
    the teams in a ``{"data", "ok"}`` envelope; owners and site administrators find all, others those they are
    in and those their standing lets them list."""
    page = page_params()
    raw = request.args.get("include_desc", "")
    include_desc = raw == "" or raw in GO_TRUE
    found, total = teams.search_teams(
        current_org(),
        current_principal(),
        request.args.get("q", ""),
        include_desc=include_desc,
        limit=page.limit,
        offset=page.offset,
    )
    return paged_response({"data": [team_to_api(team, with_org=False) for team in found], "ok": True}, page, total)


def org_create_team(org: str) -> Response:
    """Create a team (owner or site admin)."""
    team = teams.create_team(current_org(), json_body())
    return json_response(team_to_api(team, with_org=True), status=201)


def org_get_team(id: int) -> Response:
    """A team (its members, the organization's owners, site admins, and whoever its visibility lets list it)."""
    team = teams.get_visible_team(id, current_principal())
    return json_response(team_to_api(team, with_org=True))


def org_edit_team(id: int) -> Response:
    """Edit a team (owner or site admin)."""
    team = teams.get_team_for(id, current_principal(), owner=True)
    return json_response(team_to_api(teams.edit_team(team, json_body()), with_org=False))


def org_delete_team(id: int) -> Response:
    """Delete a team other than Owners (owner or site admin)."""
    teams.delete_team(teams.get_team_for(id, current_principal(), owner=True))
    return empty()


def org_list_team_members(id: int) -> Response:
    """A team's members."""
    team = teams.get_team_for(id, current_principal())
    page = page_params()
    members, total = teams.list_team_members(team, page.limit, page.offset)
    return paged_response([user_to_api(member) for member in members], page, total)


def org_list_team_member(id: int, username: str) -> Response:
    """One member of a team."""
    team = teams.get_team_for(id, current_principal())
    return json_response(user_to_api(teams.team_member(team, username)))


def org_add_team_member(id: int, username: str) -> Response:
    """Add a user to a team (owner or site admin)."""
    teams.add_member(teams.get_team_for(id, current_principal(), owner=True), username)
    return empty()


def org_remove_team_member(id: int, username: str) -> Response:
    """Remove a user from a team (owner or site admin)."""
    teams.remove_member(teams.get_team_for(id, current_principal(), owner=True), username)
    return empty()


def org_list_team_repos(id: int) -> Response:
    """A team's repositories."""
    team = teams.get_team_for(id, current_principal())
    page = page_params()
    found, total = teams.list_team_repos(team, page.limit, page.offset)
    return paged_response([repo_to_api(repo) for repo in found], page, total)


def org_list_team_repo(id: int, org: str, repo: str) -> Response:
    """One repository of a team."""
    team = teams.get_team_for(id, current_principal())
    return json_response(repo_to_api(teams.team_repo(team, repo)))


def org_add_team_repository(id: int, org: str, repo: str) -> Response:
    """Give a team a repository of its organization (admin of the repository)."""
    principal = current_principal()
    teams.add_repo(teams.get_team_for(id, principal), repo, principal)
    return empty()


def org_remove_team_repository(id: int, org: str, repo: str) -> Response:
    """Take a repository from a team (admin of the repository); the repository itself stays."""
    principal = current_principal()
    teams.remove_repo(teams.get_team_for(id, principal), repo, principal)
    return empty()


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/orgs/<org>/teams",
        "orgListTeams",
        org_list_teams,
        "organization",
        token("organization", org="member"),
        returns="[team]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/teams/search",
        "teamSearch",
        team_search,
        "organization",
        token("organization", org="member"),
        returns="team_search_results",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/orgs/<org>/teams",
        "orgCreateTeam",
        org_create_team,
        "organization",
        token("organization", org="owner"),
        body="CreateTeamOption",
        status=201,
        returns="team",
        errors=(404, 422),
    ),
    Endpoint(
        "GET",
        API + "/teams/<int:id>",
        "orgGetTeam",
        org_get_team,
        "miscellaneous",
        token("organization"),
        returns="team",
        errors=(404,),
    ),
    Endpoint(
        "PATCH",
        API + "/teams/<int:id>",
        "orgEditTeam",
        org_edit_team,
        "miscellaneous",
        token("organization"),
        body="EditTeamOption",
        returns="team",
        errors=(404,),
    ),
    Endpoint(
        "DELETE",
        API + "/teams/<int:id>",
        "orgDeleteTeam",
        org_delete_team,
        "miscellaneous",
        token("organization"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/teams/<int:id>/members",
        "orgListTeamMembers",
        org_list_team_members,
        "miscellaneous",
        token("organization"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/teams/<int:id>/members/<username>",
        "orgListTeamMember",
        org_list_team_member,
        "miscellaneous",
        token("organization"),
        returns="user",
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        API + "/teams/<int:id>/members/<username>",
        "orgAddTeamMember",
        org_add_team_member,
        "miscellaneous",
        token("organization"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/teams/<int:id>/members/<username>",
        "orgRemoveTeamMember",
        org_remove_team_member,
        "miscellaneous",
        token("organization"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/teams/<int:id>/repos",
        "orgListTeamRepos",
        org_list_team_repos,
        "miscellaneous",
        token("organization"),
        returns="[repository]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/teams/<int:id>/repos/<org>/<repo>",
        "orgListTeamRepo",
        org_list_team_repo,
        "miscellaneous",
        token("organization"),
        returns="repository",
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        API + "/teams/<int:id>/repos/<org>/<repo>",
        "orgAddTeamRepository",
        org_add_team_repository,
        "miscellaneous",
        token("organization"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/teams/<int:id>/repos/<org>/<repo>",
        "orgRemoveTeamRepository",
        org_remove_team_repository,
        "miscellaneous",
        token("organization"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
)
