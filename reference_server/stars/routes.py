"""REST routes of stars and watches (thin: the repository or account comes checked, call the model, render)."""

from __future__ import annotations

from flask import Flask, Response

from ..access import token
from ..auth import current_principal, optional_principal
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..events import RepoCreatedEvent
from ..permissions import current_repo, current_user, require_repo
from ..repos.presenters import repo_to_api
from ..rest import empty, json_response, page_params, paged_response
from ..users.models import User, get_user
from ..users.presenters import user_to_api
from . import models
from .errors import NotStarring, NotWatching
from .presenters import watch_info_to_api
from .store import Kind

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"
REPO = API + "/repos/<owner>/<repo>"


def register(app: Flask) -> None:
    """New repositories are watched by their creator (Gitea's ``AUTO_WATCH_NEW_REPOS``)."""
    forge().events.subscribe(RepoCreatedEvent, models.on_repo_created)


def _users(kind: Kind) -> Response:
    page = page_params()
    found, total = models.marking_users(kind, current_repo(), page.limit, page.offset)
    return paged_response([user_to_api(user) for user in found], page, total)


def repo_list_stargazers(owner: str, repo: str) -> Response:
    """The users who starred a repository, with Gitea's total (``X-Total-Count``)."""
    return _users("star")


def repo_list_subscribers(owner: str, repo: str) -> Response:
    """The users who watch a repository."""
    return _users("watch")


def user_current_check_subscription(owner: str, repo: str) -> Response:
    """The caller's watch of the repository; 404 when it does not watch it."""
    found = current_repo()
    if not models.is_marked("watch", current_principal().user_id, found):
        raise NotWatching()
    return json_response(watch_info_to_api(found))


def user_current_put_subscription(owner: str, repo: str) -> Response:
    """Watch the repository (200 with the ``WatchInfo``, also when already watching)."""
    found = current_repo()
    models.mark("watch", current_principal().user_id, found)
    return json_response(watch_info_to_api(found))


def user_current_delete_subscription(owner: str, repo: str) -> Response:
    """Stop watching the repository (204, also when not watching)."""
    models.unmark("watch", current_principal().user_id, current_repo())
    return empty()


def user_current_check_starring(owner: str, repo: str) -> Response:
    """204 when the caller starred the repository, else 404."""
    if not models.is_marked("star", current_principal().user_id, require_repo(owner, repo)):
        raise NotStarring()
    return empty()


def user_current_put_star(owner: str, repo: str) -> Response:
    """Star the repository (204, also when already starred)."""
    models.mark("star", current_principal().user_id, require_repo(owner, repo))
    return empty()


def user_current_delete_star(owner: str, repo: str) -> Response:
    """Unstar the repository (204, also when not starred)."""
    models.unmark("star", current_principal().user_id, require_repo(owner, repo))
    return empty()


def _repos(kind: Kind, account: User, include_private: bool) -> Response:
    page = page_params()
    viewer = optional_principal()
    found, total = models.marked_repos(
        kind, account, viewer, include_private=include_private, limit=page.limit, offset=page.offset
    )
    return paged_response([repo_to_api(repo) for repo in found], page, total)


def user_current_list_starred() -> Response:
    """The repositories the caller starred, private ones included."""
    return _repos("star", get_user(current_principal().user_id), True)


def user_current_list_subscriptions() -> Response:
    """The repositories the caller watches, private ones included."""
    return _repos("watch", get_user(current_principal().user_id), True)


def _is_self(account: User) -> bool:
    principal = optional_principal()
    return principal is not None and principal.user_id == account.id


def user_list_starred(username: str) -> Response:
    """The repositories a user starred: private ones only for the user themself (Gitea)."""
    account = current_user()
    return _repos("star", account, _is_self(account))


def user_list_subscriptions(username: str) -> Response:
    """The repositories a user watches: private ones only for the user themself (Gitea)."""
    account = current_user()
    return _repos("watch", account, _is_self(account))


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        REPO + "/stargazers",
        "repoListStargazers",
        repo_list_stargazers,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[user]",
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        REPO + "/subscribers",
        "repoListSubscribers",
        repo_list_subscribers,
        "repository",
        token("repository", anonymous_read=True, repo="read"),
        returns="[user]",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        REPO + "/subscription",
        "userCurrentCheckSubscription",
        user_current_check_subscription,
        "repository",
        token("repository", repo="read"),
        returns="watch_info",
        errors=(404,),
    ),
    Endpoint(
        "PUT",
        REPO + "/subscription",
        "userCurrentPutSubscription",
        user_current_put_subscription,
        "repository",
        token("repository", repo="read"),
        returns="watch_info",
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        REPO + "/subscription",
        "userCurrentDeleteSubscription",
        user_current_delete_subscription,
        "repository",
        token("repository", repo="read"),
        status=204,
        returns=EMPTY,
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/user/starred",
        "userCurrentListStarred",
        user_current_list_starred,
        "user",
        token("user", "repository"),
        returns="[repository]",
        errors=(403,),
    ),
    Endpoint(
        "GET",
        API + "/user/starred/<owner>/<repo>",
        "userCurrentCheckStarring",
        user_current_check_starring,
        "user",
        token("user", "repository"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "PUT",
        API + "/user/starred/<owner>/<repo>",
        "userCurrentPutStar",
        user_current_put_star,
        "user",
        token("user", "repository"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        API + "/user/starred/<owner>/<repo>",
        "userCurrentDeleteStar",
        user_current_delete_star,
        "user",
        token("user", "repository"),
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/user/subscriptions",
        "userCurrentListSubscriptions",
        user_current_list_subscriptions,
        "user",
        token("user"),
        returns="[repository]",
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/starred",
        "userListStarred",
        user_list_starred,
        "user",
        token("user", anonymous_read=True, user="visible"),
        returns="[repository]",
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        API + "/users/<username>/subscriptions",
        "userListSubscriptions",
        user_list_subscriptions,
        "user",
        token("user", anonymous_read=True, user="visible"),
        returns="[repository]",
        errors=(404,),
    ),
)
