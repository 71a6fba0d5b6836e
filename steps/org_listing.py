"""Steps of the organizations anyone may list (``GET /orgs``) and a user's permissions in one."""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api.orgs import OrgsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import acting, org_owner
from steps.parsing import phrase

MAX_PAGES = 40
"""Pages of 50 walked looking for an organization (a live forge may have many)."""


@given(phrase('the organization "{org}" is private'))
def org_private(ctx: ScenarioContext, org: str) -> None:
    answer = org_owner(ctx, org).api.area(OrgsApi).edit(ctx.orgs[org], {"visibility": "private"})
    assert answer.status_code == 200, f"the organization did not become private: {answer.text[:300]}"


def _listed_by(ctx: ScenarioContext, who: str, org: str) -> bool:
    name = ctx.orgs[org]
    api = acting(ctx, who, OrgsApi)
    for page in range(1, MAX_PAGES + 1):
        items = json_of(api.all_orgs(page))
        if any(item["username"] == name for item in items) or not items:
            return bool(items)
    return False


@then(phrase('"{who}" finds the organization "{org}" among all organizations'))
def finds_org(ctx: ScenarioContext, who: str, org: str) -> None:
    assert _listed_by(ctx, who, org), f'"{who}" does not see {ctx.orgs[org]} in GET /orgs'


@then(phrase('"{who}" does not find the organization "{org}" among all organizations'))
def misses_org(ctx: ScenarioContext, who: str, org: str) -> None:
    assert not _listed_by(ctx, who, org), f'"{who}" sees {ctx.orgs[org]} in GET /orgs'


@when(phrase('"{who}" asks for the permissions of "{user}" in "{org}"'))
def ask_permissions(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    ctx.response = acting(ctx, who, OrgsApi).user_permissions(ctx.user(user).username, ctx.orgs[org])


@then(phrase('the permissions are "{granted}" and nothing more'))
def permissions_are(ctx: ScenarioContext, granted: str) -> None:
    assert ctx.response is not None and ctx.response.status_code == 200, "the permissions were not answered"
    body = json_of(ctx.response)
    expected = {name.strip() for name in granted.split(",") if name.strip() and name.strip() != "none"}
    held = {name for name, value in body.items() if value is True}
    assert held == expected, f"the permissions are {sorted(held)}, expected {sorted(expected)}"
