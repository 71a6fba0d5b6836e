"""REST routes of badges: a site administrator lists, adds and removes a user's badges (Gitea's admin API),
and, with ``--test-hooks``, defines badges through ``/api/v1/-/reference/badges/{slug}``."""

from __future__ import annotations

from flask import Flask, Response

from ..access import ADMIN
from ..context import forge
from ..endpoints import EMPTY, Endpoint
from ..errors import Unprocessable
from ..rest import empty, json_body, json_response
from ..users.errors import UserNotFound
from ..users.models import User, get_user_by_name
from . import models
from .presenters import badge_to_api

__all__ = ["ENDPOINTS", "register"]

API = "/api/v1"


def _user(username: str) -> User:
    """The user (not an organization) named in the path; 404 otherwise."""
    user = get_user_by_name(username)
    if user.is_org:
        raise UserNotFound(f"user does not exist [name: {username}]")
    return user


def _slugs() -> list[str]:
    """``UserBadgeOption.badge_slugs`` (absent means none); 422 unless a list of texts."""
    slugs = json_body().get("badge_slugs")
    if slugs is None:
        return []
    if not isinstance(slugs, list) or not all(isinstance(slug, str) for slug in slugs):
        raise Unprocessable("[BadgeSlugs]: must be an array of strings")
    return slugs


def list_user_badges(username: str) -> Response:
    """List a user's badges."""
    badges = models.user_badges(_user(username).id)
    response = json_response([badge_to_api(badge) for badge in badges])
    response.headers["X-Total-Count"] = str(len(badges))
    response.headers["Access-Control-Expose-Headers"] = "X-Total-Count"
    return response


def add_user_badges(username: str) -> Response:
    """Add badges to a user."""
    user = _user(username)
    models.add_user_badges(user.id, _slugs())
    return empty()


def delete_user_badges(username: str) -> Response:
    """Remove badges from a user."""
    user = _user(username)
    models.remove_user_badges(user.id, _slugs())
    return empty()


def reference_list_badges() -> Response:
    """Reference only: every badge definition (what an operator seeded)."""
    return json_response([badge_to_api(badge) for badge in models.all_badges()])


def reference_define_badge(slug: str) -> Response:
    """Reference only: define (or redefine) a badge, as an operator seeds Gitea's badge table."""
    return json_response(badge_to_api(models.define_badge(slug, json_body())))


def reference_forget_badge(slug: str) -> Response:
    """Reference only: delete a badge definition and its assignments."""
    models.forget_badge(slug)
    return empty()


def register(app: Flask) -> None:
    """Store the configured badge definitions."""
    models.seed_badges(forge().config.badges)


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/admin/users/<username>/badges",
        "adminListUserBadges",
        list_user_badges,
        "admin",
        ADMIN,
        returns="[badge]",
        errors=(404,),
    ),
    Endpoint(
        "POST",
        API + "/admin/users/<username>/badges",
        "adminAddUserBadges",
        add_user_badges,
        "admin",
        ADMIN,
        status=204,
        returns=EMPTY,
        body="UserBadgeOption",
        errors=(403,),
    ),
    Endpoint(
        "DELETE",
        API + "/admin/users/<username>/badges",
        "adminDeleteUserBadges",
        delete_user_badges,
        "admin",
        ADMIN,
        body="UserBadgeOption",
        status=204,
        returns=EMPTY,
        errors=(403, 422),
    ),
    Endpoint(
        "GET",
        API + "/-/reference/badges",
        "referenceListBadges",
        reference_list_badges,
        "reference",
        ADMIN,
        returns="[badge]",
    ),
    Endpoint(
        "PUT",
        API + "/-/reference/badges/<slug>",
        "referenceDefineBadge",
        reference_define_badge,
        "reference",
        ADMIN,
        returns="badge",
    ),
    Endpoint(
        "DELETE",
        API + "/-/reference/badges/<slug>",
        "referenceForgetBadge",
        reference_forget_badge,
        "reference",
        ADMIN,
        status=204,
        returns=EMPTY,
    ),
)
