"""REST routes of a repository's teams (thin: the repository comes checked, call the model, render)."""

from __future__ import annotations

from flask import Response

from ..access import token
from ..auth import current_principal
from ..endpoints import EMPTY, Endpoint
from ..orgs.presenters import team_to_api
from ..permissions import current_repo
from ..rest import empty, json_response
from . import models

__all__ = ["ENDPOINTS"]

API = "/api/v1"
BASE = API + "/repos/<owner>/<repo>/teams"


def repo_list_teams(owner: str, repo: str) -> Response:
    """The teams covering the repository (Gitea sends them without their organization, and unpaged)."""
    return json_response([team_to_api(team, with_org=False) for team in models.list_teams(current_repo())])


def repo_check_team(owner: str, repo: str, team: str) -> Response:
    """The team when it covers the repository."""
    return json_response(team_to_api(models.check_team(current_repo(), team), with_org=False))


def repo_add_team(owner: str, repo: str, team: str) -> Response:
    """Give a team of the organization the repository."""
    models.add_team(current_repo(), team, current_principal())
    return empty()


def repo_delete_team(owner: str, repo: str, team: str) -> Response:
    """Take the repository from a team."""
    models.remove_team(current_repo(), team, current_principal())
    return empty()


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        BASE,
        "repoListTeams",
        repo_list_teams,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[team]",
        errors=(404, 405),
    ),
    Endpoint(
        "GET",
        BASE + "/<team>",
        "repoCheckTeam",
        repo_check_team,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="team",
        errors=(404, 405),
    ),
    Endpoint(
        "PUT",
        BASE + "/<team>",
        "repoAddTeam",
        repo_add_team,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(403, 404, 405, 422),
    ),
    Endpoint(
        "DELETE",
        BASE + "/<team>",
        "repoDeleteTeam",
        repo_delete_team,
        "repository",
        token("repository", repo="admin"),
        status=204,
        returns=EMPTY,
        errors=(403, 404, 405, 422),
    ),
)
