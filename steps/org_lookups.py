"""Steps of an organization's team search, public memberships, repositories and one-item team lookups.

The team search answers Gitea's ``{"data", "ok"}`` envelope; deleting every repository of an organization is
asynchronous in Gitea (202), so the step that checks the result waits for it.
"""

from __future__ import annotations

import time

from pytest_bdd import given, then, when

from conformance.client import json_of
from conformance.context import RepoRef, ScenarioContext
from conformance.ledger import CleanupLedger
from conformance.polling import Backoff
from steps.actors import acting_api, org_owner
from steps.common import comma_list, expect_status, response_json
from steps.orgs import DEFAULT_UNITS, OrgNotes
from steps.parsing import phrase

__all__: list[str] = []

REPOS_GONE_WAIT_SECONDS = 30.0


# ---------------------------------------------------------------- Given


@given(phrase('a team "{team}" of "{org}" described as "{description}"'))
def given_described_team(ctx: ScenarioContext, org_notes: OrgNotes, team: str, org: str, description: str) -> None:
    """A read team with a description, created by the organization's owner."""
    body = {"name": team, "description": description, "permission": "read", "units": DEFAULT_UNITS}
    response = org_owner(ctx, org).api.orgs.create_team(ctx.orgs[org], body)
    org_notes.teams[org, team] = int(expect_status(response, 201, f'create the team "{team}"')["id"])


@given(phrase('a team "{team}" of "{org}" visible as "{visibility}"'))
def given_visible_team(ctx: ScenarioContext, org_notes: OrgNotes, team: str, org: str, visibility: str) -> None:
    """A read team with this ``visibility`` (public, limited or private), created by the organization's owner."""
    body = {"name": team, "permission": "read", "units": DEFAULT_UNITS, "visibility": visibility}
    response = org_owner(ctx, org).api.orgs.create_team(ctx.orgs[org], body)
    org_notes.teams[org, team] = int(expect_status(response, 201, f'create the team "{team}"')["id"])


# ---------------------------------------------------------------- When: teams


@when(phrase('"{who}" searches the teams of "{org}" for "{q}"'))
def when_search(ctx: ScenarioContext, who: str, org: str, q: str) -> None:
    ctx.response = acting_api(ctx, who).orgs.search_teams(ctx.orgs[org], q=q)


@when(phrase('"{who}" searches the team names of "{org}" for "{q}"'))
def when_search_names(ctx: ScenarioContext, who: str, org: str, q: str) -> None:
    """``include_desc=false``: the descriptions are not searched."""
    ctx.response = acting_api(ctx, who).orgs.search_teams(ctx.orgs[org], q=q, include_desc="false")


@when(phrase('"{who}" lists page {page:d} of the teams of "{org}" found for "{q}" with {limit:d} per page'))
def when_search_page(ctx: ScenarioContext, *, who: str, page: int, org: str, q: str, limit: int) -> None:
    ctx.response = acting_api(ctx, who).orgs.search_teams(ctx.orgs[org], q=q, page=page, limit=limit)


@when(phrase('"{who}" reads the member "{user}" of the team "{team}" of "{org}"'))
def when_team_member(ctx: ScenarioContext, org_notes: OrgNotes, *, who: str, user: str, team: str, org: str) -> None:
    """``GET /teams/{id}/members/{username}``."""
    team_id = org_notes.team_id(ctx, org, team)
    ctx.response = acting_api(ctx, who).orgs.get_team_member(team_id, ctx.owner_name(user))


@when(phrase('"{who}" reads the repository "{repo}" of the team "{team}" of "{org}"'))
def when_team_repo(ctx: ScenarioContext, org_notes: OrgNotes, *, who: str, repo: str, team: str, org: str) -> None:
    """``GET /teams/{id}/repos/{org}/{repo}``."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).orgs.get_team_repo(org_notes.team_id(ctx, org, team), ref.owner, ref.name)


# ---------------------------------------------------------------- When: public memberships


@when(phrase('"{who}" lists the public members of "{org}"'))
def when_public_members(ctx: ScenarioContext, who: str, org: str) -> None:
    ctx.response = acting_api(ctx, who).orgs.list_public_members(ctx.orgs[org])


@when(phrase('"{who}" checks whether "{user}" is a public member of "{org}"'))
def when_is_public(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    ctx.response = acting_api(ctx, who).orgs.is_public_member(ctx.orgs[org], ctx.owner_name(user))


@when(phrase('"{who}" hides the membership of "{user}" in "{org}"'))
def when_conceal(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    """``DELETE /orgs/{org}/public_members/{username}``."""
    ctx.response = acting_api(ctx, who).orgs.conceal_member(ctx.orgs[org], ctx.owner_name(user))


# ---------------------------------------------------------------- When: repositories


@when(phrase('"{who}" lists the repositories of the organization "{org}"'))
def when_org_repos(ctx: ScenarioContext, who: str, org: str) -> None:
    ctx.response = acting_api(ctx, who).orgs.list_repos(ctx.orgs[org])


@when(phrase('"{who}" creates the repository "{short}" through the older organization path'))
def when_create_deprecated(ctx: ScenarioContext, ledger: CleanupLedger, who: str, short: str) -> None:
    """``POST /org/{org}/repos`` with the real name of ``short`` (``org/name``)."""
    org_short, _, name_short = short.partition("/")
    org, name = ctx.orgs[org_short], ctx.real_name(name_short)
    ledger.record_repo(org, name)
    ctx.response = acting_api(ctx, who).orgs.create_repo_deprecated(org, {"name": name, "auto_init": True})
    if ctx.response.status_code == 201:
        branch = str(json_of(ctx.response)["default_branch"])
        ctx.repos[short] = RepoRef(short=short, owner=org, name=name, default_branch=branch)


@when(phrase('"{who}" deletes every repository of the organization "{org}"'))
def when_delete_repos(ctx: ScenarioContext, who: str, org: str) -> None:
    ctx.response = acting_api(ctx, who).orgs.delete_repos(ctx.orgs[org])


# ---------------------------------------------------------------- Then


@then(phrase('the team search finds exactly "{teams}"'))
def then_found(ctx: ScenarioContext, teams: str) -> None:
    """``ok`` is true and ``data`` holds exactly these teams, by name (Gitea's order), without organization."""
    body = response_json(ctx)
    assert body.get("ok") is True, f"ok is {body.get('ok')!r}"
    names = [team["name"] for team in body["data"]]
    expected = [name for name in comma_list(teams) if name != "none"]
    assert names == expected, f"the search found {names}, expected {expected}"


@then(phrase('the response is the repository "{repo}"'))
def then_is_repo(ctx: ScenarioContext, repo: str) -> None:
    """A ``Repository`` whose full name is that repository's."""
    full_name = response_json(ctx).get("full_name")
    assert full_name == ctx.repo(repo).full_name, f"the answer is the repository {full_name!r}"


@then(phrase('the response is the user "{user}"'))
def then_is_user(ctx: ScenarioContext, user: str) -> None:
    login = response_json(ctx).get("login")
    assert login == ctx.owner_name(user), f"the answer is the user {login!r}"


@then(phrase('the organization "{org}" comes to have no repositories'))
def then_no_repos(ctx: ScenarioContext, org: str) -> None:
    """The owner's list of the organization's repositories becomes empty (Gitea deletes in the background)."""
    deadline = time.monotonic() + REPOS_GONE_WAIT_SECONDS
    backoff = Backoff(cap=0.5)
    while True:
        listed = json_of(org_owner(ctx, org).api.orgs.list_repos(ctx.orgs[org]))
        if not listed or time.monotonic() > deadline:
            break
        backoff.sleep()
    assert listed == [], f"the organization still has {[repo['full_name'] for repo in listed]}"


@then(phrase('"{user}" is a public member of "{org}"'))
def then_public(ctx: ScenarioContext, user: str, org: str) -> None:
    response = org_owner(ctx, org).api.orgs.is_public_member(ctx.orgs[org], ctx.owner_name(user))
    assert response.status_code == 204, f"the public membership check answered {response.status_code}"


@then(phrase('"{user}" is not a public member of "{org}"'))
def then_not_public(ctx: ScenarioContext, user: str, org: str) -> None:
    response = org_owner(ctx, org).api.orgs.is_public_member(ctx.orgs[org], ctx.owner_name(user))
    assert response.status_code == 404, f"the public membership check answered {response.status_code}"
