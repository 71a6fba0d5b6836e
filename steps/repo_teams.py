"""Steps of a repository's teams (orgs area): which teams of its organization cover a repository, giving
one the repository and taking it back, from the repository's side. Teams are named as the organization
names them (``Owners``, or the name a ``Given a team ...`` step gave)."""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api.repo_teams import RepoTeamsApi
from conformance.context import ScenarioContext
from steps.actors import acting, org_owner
from steps.common import comma_list, expect_status, response_json
from steps.parsing import phrase

__all__: list[str] = []


@given(phrase('the organization "{org}" lets repository admins change team access'))
def given_repo_admins_change_teams(ctx: ScenarioContext, org: str) -> None:
    """The owner edits the organization with ``repo_admin_change_team_access: true``."""
    response = org_owner(ctx, org).api.orgs.edit(ctx.orgs[org], {"repo_admin_change_team_access": True})
    expect_status(response, 200, f'let the repository admins of "{org}" change team access')


@when(phrase('"{who}" lists the teams of the repository "{repo}"'))
def list_repo_teams(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET /repos/{owner}/{repo}/teams``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, RepoTeamsApi).list(ref.owner, ref.name)


@when(phrase('"{who}" checks whether the team "{team}" covers "{repo}"'))
def check_repo_team(ctx: ScenarioContext, who: str, team: str, repo: str) -> None:
    """``GET /repos/{owner}/{repo}/teams/{team}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, RepoTeamsApi).check(ref.owner, ref.name, team)


@when(phrase('"{who}" gives the team "{team}" the repository "{repo}"'))
def add_repo_team(ctx: ScenarioContext, who: str, team: str, repo: str) -> None:
    """``PUT /repos/{owner}/{repo}/teams/{team}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, RepoTeamsApi).add(ref.owner, ref.name, team)


@when(phrase('"{who}" takes the repository "{repo}" from the team "{team}"'))
def remove_repo_team(ctx: ScenarioContext, who: str, repo: str, team: str) -> None:
    """``DELETE /repos/{owner}/{repo}/teams/{team}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, RepoTeamsApi).remove(ref.owner, ref.name, team)


@then(phrase('the response lists the teams "{names}"'))
def then_lists_teams(ctx: ScenarioContext, names: str) -> None:
    """A list of ``Team`` with exactly these names, in this order."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list, got {str(body)[:200]}"
    found = [item.get("name") for item in body]
    assert found == comma_list(names), f"listed {found}, expected {comma_list(names)}"


@then(phrase('the team "{team}" covers "{repo}"'))
def then_team_covers(ctx: ScenarioContext, team: str, repo: str) -> None:
    """``GET .../teams/{team}`` (as the admin) answers the team."""
    ref = ctx.repo(repo)
    body = expect_status(ctx.admin.area(RepoTeamsApi).check(ref.owner, ref.name, team), 200, f'check "{team}"')
    assert body.get("name") == team, f"the team answered is {body.get('name')!r}"


@then(phrase('the team "{team}" does not cover "{repo}"'))
def then_team_does_not_cover(ctx: ScenarioContext, team: str, repo: str) -> None:
    """``GET .../teams/{team}`` (as the admin) answers 404."""
    ref = ctx.repo(repo)
    response = ctx.admin.area(RepoTeamsApi).check(ref.owner, ref.name, team)
    assert response.status_code == 404, f'"{team}" on "{repo}": {response.status_code} {response.text[:200]}'
