"""Routes of activity feeds (thin: scope, visibility, parse, call the model, render)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, request

from ..auth import check_scope, current_principal, optional_principal
from ..orgs import teams
from ..orgs.models import get_org
from ..repos.models import require_repo
from ..rest import page_params, paged_response, query_bool
from ..users import models as users
from ..users.errors import UserNotFound
from . import models

__all__ = ["register"]

API = "/api/v1"
ALL_REPOS = 1_000_000


def _feed(query: models.FeedQuery | None, receiver_id: int) -> Response:
    page = page_params()
    actions, total = models.list_feed(
        query, optional_principal(), date=request.args.get("date"), limit=page.limit, offset=page.offset
    )
    payload = [models.action_to_api(action, receiver_id) for action in actions]
    response = paged_response(payload, page, total, headers=False)
    response.headers["X-Total-Count"] = str(total)  # Gitea's feeds send no Link header
    response.headers["Access-Control-Expose-Headers"] = "X-Total-Count"
    return response


def user_list_activity_feeds(username: str) -> Response:
    """A user's feed: their own actions and those in their repositories (``only-performed-by``, ``date``)."""
    check_scope("user", anonymous_ok=True)
    user = users.get_user_by_name(username)
    viewer = optional_principal()
    if not users.is_visible_to(user, viewer):
        raise UserNotFound(f"user does not exist [name: {username}]")
    only = bool(query_bool("only-performed-by"))
    return _feed(models.user_feed_query(user, viewer, only_performed_by=only), user.id)


def repo_list_activity_feeds(owner: str, repo: str) -> Response:
    """A repository's feed (``date``), for its readers."""
    check_scope("repository", anonymous_ok=True)
    found = require_repo(owner, repo, "read")
    return _feed(models.repo_feed_query(found), found.owner_id)


def org_list_activity_feeds(org: str) -> Response:
    """An organization's feed (``date``); private repositories' actions for members."""
    check_scope("organization", anonymous_ok=True)
    found = get_org(org, optional_principal())
    return _feed(models.org_feed_query(found, optional_principal()), found.id)


def org_list_team_activity_feeds(id: int) -> Response:
    """A team's feed (``date``): its repositories' actions, for the team's members and the org's owners."""
    check_scope("organization")
    team = teams.get_team_for(id, current_principal())
    repos, _ = teams.list_team_repos(team, ALL_REPOS, 0)
    return _feed(models.team_feed_query([repo.id for repo in repos]), team.org_id)


def register(app: Flask) -> None:
    """Attach the four feed routes (Gitea's operation ids) and start recording actions."""
    rules: list[tuple[str, str, Callable[..., Response]]] = [
        ("/users/<username>/activities/feeds", "userListActivityFeeds", user_list_activity_feeds),
        ("/repos/<owner>/<repo>/activities/feeds", "repoListActivityFeeds", repo_list_activity_feeds),
        ("/orgs/<org>/activities/feeds", "orgListActivityFeeds", org_list_activity_feeds),
        ("/teams/<int:id>/activities/feeds", "orgListTeamActivityFeeds", org_list_team_activity_feeds),
    ]
    for path, endpoint, view in rules:
        app.add_url_rule(API + path, endpoint=endpoint, view_func=view, methods=["GET"])
    models.subscribe()
