"""Steps of the badges area: a site administrator lists, adds and removes a user's badges.

Badges must be defined before they can be given. Gitea has no API for that (an operator seeds its
database), so scenarios that need defined badges carry ``@capability_badge_definitions``: they
define scenario-unique badges through the reference server's test hook, and are reported
unsupported on a forge without it. Badge slugs in the scenarios are short names; the target sees
``<run prefix>-<scenario>-<short>``, and the definitions are deleted when the scenario ends.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.badges import BadgesApi
from conformance.capabilities import register_probe
from conformance.client import HttpClient, json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from steps.actors import ADMIN, acting
from steps.parsing import phrase

__all__: list[str] = []

UNDEFINED = "never-defined"
"""A short slug no scenario defines."""


@register_probe("badge_definitions")
def _can_define_badges(admin: HttpClient) -> bool:
    """The reference's badge definition hook answers the admin."""
    try:
        return admin.get("-/reference/badges").status_code == 200
    except requests.RequestException:
        return False


def _slugs(ctx: ScenarioContext, text: str) -> list[str]:
    return [ctx.real_name(short.strip()) for short in text.split(",") if short.strip()]


def _admin(ctx: ScenarioContext) -> BadgesApi:
    return acting(ctx, ADMIN, BadgesApi)


def _slug_of(badge: Any) -> Any:
    """A listed badge's slug, under the swagger's key or the key Gitea 1.27 really sends."""
    return badge.get("slug", badge.get("Slug")) if isinstance(badge, dict) else None


@given(phrase('the badges "{shorts}" are defined'))
def given_badges(ctx: ScenarioContext, request: pytest.FixtureRequest, shorts: str) -> None:
    """Define scenario-unique badges through the reference's hook; delete them when the scenario ends."""
    api = _admin(ctx)
    for slug in _slugs(ctx, shorts):
        response = api.define(slug, f"conformance badge {slug}", f"https://badges.example/{slug}.png")
        assert response.status_code == 200, f"defining {slug} answered {response.status_code}: {response.text[:300]}"
        request.addfinalizer(partial(api.forget, slug))


@given(phrase('"{who}" holds the badges "{shorts}"'))
def given_user_badges(ctx: ScenarioContext, identities: IdentityFactory, who: str, shorts: str) -> None:
    """The administrator has given the user these (defined) badges."""
    user = identities.user(who)
    response = _admin(ctx).add_user_badges(user.username, _slugs(ctx, shorts))
    assert response.status_code == 204, f"giving badges answered {response.status_code}: {response.text[:300]}"


@when(phrase('the admin lists the badges of "{who}"'))
def list_badges(ctx: ScenarioContext, who: str) -> None:
    """``GET /admin/users/{username}/badges``."""
    ctx.response = _admin(ctx).user_badges(ctx.user(who).username)


@when(phrase('the admin gives "{who}" the badges "{shorts}"'))
def give_badges(ctx: ScenarioContext, who: str, shorts: str) -> None:
    """``POST /admin/users/{username}/badges``."""
    ctx.response = _admin(ctx).add_user_badges(ctx.user(who).username, _slugs(ctx, shorts))


@when(phrase('the admin takes the badges "{shorts}" from "{who}"'))
def take_badges(ctx: ScenarioContext, shorts: str, who: str) -> None:
    """``DELETE /admin/users/{username}/badges``."""
    ctx.response = _admin(ctx).remove_user_badges(ctx.user(who).username, _slugs(ctx, shorts))


@when(phrase("the admin {action:w} badges of a user that does not exist"))
def badges_of_missing_user(ctx: ScenarioContext, action: str) -> None:
    """List, give or take badges of a name no account has."""
    api, name = _admin(ctx), ctx.real_name("nobody")
    operations = {
        "lists": lambda: api.user_badges(name),
        "gives": lambda: api.add_user_badges(name, [ctx.real_name(UNDEFINED)]),
        "takes": lambda: api.remove_user_badges(name, [ctx.real_name(UNDEFINED)]),
    }
    assert action in operations, f"unknown action {action!r}: {sorted(operations)}"
    ctx.response = operations[action]()


@when(phrase('"{who}" {action:w} the badges of "{other}"'))
def user_touches_badges(ctx: ScenarioContext, who: str, action: str, other: str) -> None:
    """A user who is not a site administrator lists, gives or takes badges."""
    api, name = acting(ctx, who, BadgesApi), ctx.user(other).username
    operations = {
        "lists": lambda: api.user_badges(name),
        "gives": lambda: api.add_user_badges(name, [ctx.real_name(UNDEFINED)]),
        "takes": lambda: api.remove_user_badges(name, [ctx.real_name(UNDEFINED)]),
    }
    assert action in operations, f"unknown action {action!r}: {sorted(operations)}"
    ctx.response = operations[action]()


def _listed(ctx: ScenarioContext, who: str) -> tuple[list[Any], str | None]:
    response = _admin(ctx).user_badges(ctx.user(who).username)
    assert response.status_code == 200, f"listing badges answered {response.status_code}: {response.text[:300]}"
    body = json_of(response)
    assert isinstance(body, list), f"the badge list is not an array: {response.text[:300]}"
    return body, response.headers.get("X-Total-Count")


@then(phrase('"{who}" holds exactly the badges "{shorts}"'))
def holds_exactly(ctx: ScenarioContext, who: str, shorts: str) -> None:
    """The admin's list of the user's badges has exactly these slugs, and X-Total-Count agrees."""
    body, total = _listed(ctx, who)
    expected = sorted(_slugs(ctx, shorts))
    found = sorted(str(_slug_of(badge)) for badge in body)
    assert found == expected, f"{who} holds {found}, expected {expected}"
    assert total == str(len(expected)), f"X-Total-Count is {total!r}, expected {len(expected)}"


@then(phrase('"{who}" holds no badges'))
def holds_none(ctx: ScenarioContext, who: str) -> None:
    """The admin's list of the user's badges is empty, and X-Total-Count says 0."""
    body, total = _listed(ctx, who)
    assert body == [], f"{who} holds {body!r}"
    assert total == "0", f"X-Total-Count is {total!r}, expected 0"


@then(phrase('the listed badge "{short}" carries its description and image'))
def listed_badge_described(ctx: ScenarioContext, short: str) -> None:
    """The named badge carries the description and image it was defined with (the contract check holds every
    listed badge to the swagger's keys)."""
    body = json_of(ctx.last_response())
    assert isinstance(body, list) and body, f"expected a non-empty array: {ctx.last_response().text[:300]}"
    slug = ctx.real_name(short)
    found = [badge for badge in body if badge.get("slug") == slug]
    assert found, f"{slug} is not listed"
    assert found[0]["description"] == f"conformance badge {slug}", f"description is {found[0]['description']!r}"
    assert found[0]["image_url"] == f"https://badges.example/{slug}.png", f"image_url is {found[0]['image_url']!r}"
