"""Routes of activity feeds (thin: scope, visibility, parse, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal, optional_principal
from ..endpoints import Endpoint
from ..orgs import teams
from ..permissions import current_org, current_repo, current_user
from ..rest import json_response, page_params, paged_response, query_bool
from . import models
from .presenters import action_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
ALL_REPOS = 1_000_000


def _feed(query: models.FeedQuery | None, receiver_id: int) -> Response:
    page = page_params()
    actions, total = models.list_feed(
        query, optional_principal(), date=request.args.get("date"), limit=page.limit, offset=page.offset
    )
    payload = [action_to_api(action, receiver_id) for action in actions]
    response = paged_response(payload, page, total, headers=False)
    response.headers["X-Total-Count"] = str(total)  # Gitea's feeds send no Link header
    response.headers["Access-Control-Expose-Headers"] = "X-Total-Count"
    return response


def user_list_activity_feeds(username: str) -> Response:
    """A user's feed: their own actions and those in their repositories (``only-performed-by``, ``date``)."""
    user = current_user()
    viewer = optional_principal()
    only = bool(query_bool("only-performed-by"))
    return _feed(models.user_feed_query(user, viewer, only_performed_by=only), user.id)


def repo_list_activity_feeds(owner: str, repo: str) -> Response:
    """A repository's feed (``date``), for its readers."""
    found = current_repo()
    return _feed(models.repo_feed_query(found), found.owner_id)


def org_list_activity_feeds(org: str) -> Response:
    """An organization's feed (``date``); private repositories' actions for members."""
    found = current_org()
    return _feed(models.org_feed_query(found, optional_principal()), found.id)


def org_list_team_activity_feeds(id: int) -> Response:
    """A team's feed (``date``): its repositories' actions, for the team's members and the org's owners."""
    team = teams.get_team_for(id, current_principal())
    repos, _ = teams.list_team_repos(team, ALL_REPOS, 0)
    return _feed(models.team_feed_query([repo.id for repo in repos]), team.org_id)


def user_get_heatmap_data(username: str) -> Response:
    """A user's actions per quarter hour over the last year, as the caller may see them."""
    buckets = models.heatmap(current_user(), optional_principal())
    return json_response([{"timestamp": start, "contributions": count} for start, count in buckets])


def register(app: Flask) -> None:
    """Start recording actions."""
    models.subscribe()


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/users/<username>/activities/feeds",
        "userListActivityFeeds",
        user_list_activity_feeds,
        "user",
        token("user", anonymous_read=True, user="visible"),
        returns="[activity]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/heatmap",
        "userGetHeatmapData",
        user_get_heatmap_data,
        "user",
        token("user", anonymous_read=True, user="visible"),
        returns="[user_heatmap_data]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/repos/<owner>/<repo>/activities/feeds",
        "repoListActivityFeeds",
        repo_list_activity_feeds,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[activity]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/orgs/<org>/activities/feeds",
        "orgListActivityFeeds",
        org_list_activity_feeds,
        "organization",
        token("organization", anonymous_read=True, org="visible"),
        returns="[activity]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/teams/<int:id>/activities/feeds",
        "orgListTeamActivityFeeds",
        org_list_team_activity_feeds,
        "miscellaneous",
        token("organization"),
        returns="[activity]",
        errors=(404,),
    ),
)
