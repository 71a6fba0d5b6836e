"""Steps of the orgs area: organizations, their members and teams, and renames (collaborators: ``steps.collaborators``).

Teams are known by organization and name (:class:`OrgNotes`, their ids); after a rename the scenario's
names of the organization and of its repositories follow the new name, and the cleanup ledger with them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from pytest_bdd import given, then, when

from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from conformance.ledger import CleanupLedger, LedgerEntry
from conformance.seeding import SeededData
from steps.actors import acting_api, org_owner
from steps.common import expect_status, json_document, json_option, response_json, user_name
from steps.parsing import phrase

DEFAULT_UNITS = ["repo.code", "repo.issues", "repo.pulls", "repo.releases"]
NO_SUCH_TEAM = 999_999_999


__all__ = ["OrgNotes"]


@dataclass
class OrgNotes:
    """The ids of the teams the scenario made (by organization and team name) and each renamed
    organization's old name."""

    teams: dict[tuple[str, str], int] = field(default_factory=dict)
    old_names: dict[str, str] = field(default_factory=dict)

    def team_id(self, ctx: ScenarioContext, org: str, team: str) -> int:
        """A team's id; the Owners team of an organization is looked up the first time it is named."""
        if (org, team) not in self.teams and team == "Owners":
            teams = json_of(org_owner(ctx, org).api.orgs.list_teams(ctx.orgs[org]))
            self.teams[org, team] = next(int(item["id"]) for item in teams if item["name"] == "Owners")
        found = self.teams.get((org, team))
        assert found is not None, f'no team "{team}" of "{org}": add `Given a team "{team}" of "{org}" ...`'
        return found

    def old_name(self, org: str) -> str:
        """The name the organization had before the scenario renamed it."""
        assert org in self.old_names, f'the scenario did not rename the organization "{org}"'
        return self.old_names[org]


@pytest.fixture
def org_notes() -> OrgNotes:
    """The scenario's teams and renames."""
    return OrgNotes()


def _org_name(ctx: ScenarioContext, short: str) -> str:
    return ctx.orgs.get(short) or ctx.real_name(short)


def _create_team(ctx: ScenarioContext, org_notes: OrgNotes, org: str, team: str, body: dict[str, Any]) -> None:
    response = org_owner(ctx, org).api.orgs.create_team(ctx.orgs[org], body)
    org_notes.teams[org, team] = int(expect_status(response, 201, f'create the team "{team}"')["id"])


# ---------------------------------------------------------------- Given


@given(phrase('a team "{team}" of "{org}" with the permission "{permission}"'))
def given_team(ctx: ScenarioContext, org_notes: OrgNotes, team: str, org: str, permission: str) -> None:
    """A team created by the organization's owner with the code, issues, pulls and releases units."""
    _create_team(ctx, org_notes, org, team, {"name": team, "permission": permission, "units": DEFAULT_UNITS})


@given(phrase('a team "{team}" of "{org}" with the permission "{permission}" on all repositories'))
def given_team_all(ctx: ScenarioContext, org_notes: OrgNotes, team: str, org: str, permission: str) -> None:
    """A team that covers every repository of the organization."""
    body = {"name": team, "permission": permission, "units": DEFAULT_UNITS, "includes_all_repositories": True}
    _create_team(ctx, org_notes, org, team, body)


@given(phrase('"{user}" is in the team "{team}" of "{org}"'))
def given_team_member(
    ctx: ScenarioContext, org_notes: OrgNotes, identities: IdentityFactory, *, user: str, team: str, org: str
) -> None:
    """The organization's owner adds the user (created if new) to the team."""
    name = identities.user(user).username
    response = org_owner(ctx, org).api.orgs.add_team_member(org_notes.team_id(ctx, org, team), name)
    expect_status(response, 204, f'add "{user}" to the team "{team}"')


@given(phrase('the team "{team}" of "{org}" has the repository "{repo}"'))
def given_team_repo(ctx: ScenarioContext, org_notes: OrgNotes, team: str, org: str, repo: str) -> None:
    """The organization's owner gives the team the repository."""
    ref = ctx.repo(repo)
    response = org_owner(ctx, org).api.orgs.add_team_repo(org_notes.team_id(ctx, org, team), ref.owner, ref.name)
    expect_status(response, 204, f'give the team "{team}" the repository "{repo}"')


@given(phrase('"{who}" edited the organization "{org}" with the full name "{full_name}"'))
def given_org_edited(ctx: ScenarioContext, who: str, org: str, full_name: str) -> None:
    """A profile edit done before the scenario's action."""
    expect_status(acting_api(ctx, who).orgs.edit(ctx.orgs[org], {"full_name": full_name}), 200, f'edit "{org}"')


@given(phrase('"{user}" shows its membership of "{org}"'))
def given_public_member(ctx: ScenarioContext, user: str, org: str) -> None:
    """The member publicizes its own membership."""
    response = acting_api(ctx, user).orgs.publicize_member(ctx.orgs[org], ctx.user(user).username)
    expect_status(response, 204, f'publicize the membership of "{user}"')


@given(phrase('the team "{team}" of "{org}" was deleted'))
def given_team_deleted(ctx: ScenarioContext, org_notes: OrgNotes, team: str, org: str) -> None:
    """The organization's owner deleted the team (its id stays known to the scenario)."""
    expect_status(
        org_owner(ctx, org).api.orgs.delete_team(org_notes.team_id(ctx, org, team)), 204, f'delete the team "{team}"'
    )


# ---------------------------------------------------------------- When: organizations


@when(phrase('"{who}" creates the organization "{short}"'))
def create_org(ctx: ScenarioContext, fake: SeededData, ledger: CleanupLedger, who: str, short: str) -> None:
    """``POST /orgs``; the caller becomes the owner."""
    name = _org_name(ctx, short)
    ledger.record_org(name)
    ctx.response = acting_api(ctx, who).orgs.create(name, full_name=fake.company())
    if ctx.response.status_code == 201:
        ctx.orgs[short] = name
        ctx.org_owners[short] = who


@when(phrase('"{who}" creates an organization without a name'))
def create_org_without_name(ctx: ScenarioContext, fake: SeededData, who: str) -> None:
    """``POST /orgs`` with a body lacking ``username``."""
    ctx.response = acting_api(ctx, who).orgs.create_raw({"full_name": fake.company()})


@when(phrase('"{who}" fetches the organization "{short}"'))
def fetch_org(ctx: ScenarioContext, who: str, short: str) -> None:
    """``GET /orgs/{org}`` (an unknown short name maps to a name nobody created)."""
    ctx.response = acting_api(ctx, who).orgs.get(_org_name(ctx, short))


@when(phrase('"{who}" deletes the organization "{short}"'))
def delete_org(ctx: ScenarioContext, who: str, short: str) -> None:
    """``DELETE /orgs/{org}``."""
    ctx.response = acting_api(ctx, who).orgs.delete(_org_name(ctx, short))


@when(phrase('"{who}" edits the organization "{org}" with the body'))
def edit_org(ctx: ScenarioContext, who: str, org: str, docstring: str) -> None:
    """``PATCH /orgs/{org}`` with an ``EditOrgOption`` (placeholders expanded)."""
    ctx.response = acting_api(ctx, who).orgs.edit(_org_name(ctx, org), json_option(ctx, docstring))


def _rename(
    ctx: ScenarioContext, org_notes: OrgNotes, ledger: CleanupLedger, who: str, *, org: str, new_name: str
) -> None:
    """``POST /orgs/{org}/rename``; on success the scenario's names and the cleanup ledger follow."""
    old_name = _org_name(ctx, org)
    ctx.response = acting_api(ctx, who).orgs.rename(old_name, new_name)
    if ctx.response.status_code != 204 or org not in ctx.orgs:
        return
    org_notes.old_names[org] = old_name
    ctx.orgs[org] = new_name
    ledger.record_org(new_name)
    stale = [LedgerEntry("organization", old_name)]
    for short, ref in list(ctx.repos.items()):
        if ref.owner == old_name:
            ctx.repos[short] = dataclasses.replace(ref, owner=new_name)
            ledger.record_repo(new_name, ref.name)
            stale.append(LedgerEntry("repository", f"{old_name}/{ref.name}"))
    if old_name.lower() != new_name.lower():
        for entry in stale:  # the old names only redirect now; deleting them would be reported as leaks
            if entry in ledger.entries:
                ledger.entries.remove(entry)


@when(phrase('"{who}" renames the organization "{org}" to "{new}"'))
def rename_org(
    ctx: ScenarioContext, org_notes: OrgNotes, ledger: CleanupLedger, *, who: str, org: str, new: str
) -> None:
    """Rename to a fresh unique name made from the short name ``new``."""
    _rename(ctx, org_notes, ledger, who, org=org, new_name=ctx.real_name(new))


@given(phrase('"{who}" renamed the organization "{org}" to "{new}"'))
def given_renamed(
    ctx: ScenarioContext, org_notes: OrgNotes, ledger: CleanupLedger, *, who: str, org: str, new: str
) -> None:
    """A rename done before the scenario's action."""
    _rename(ctx, org_notes, ledger, who, org=org, new_name=ctx.real_name(new))
    expect_status(ctx.last_response(), 204, f'rename the organization "{org}"')


@when(phrase('"{who}" renames the organization "{org}" to its own name in upper case'))
def rename_org_case(ctx: ScenarioContext, org_notes: OrgNotes, ledger: CleanupLedger, who: str, org: str) -> None:
    """A case-only rename."""
    _rename(ctx, org_notes, ledger, who, org=org, new_name=_org_name(ctx, org).upper())


@when(phrase('"{who}" renames the organization "{org}" to its own name'))
def rename_org_same(ctx: ScenarioContext, org_notes: OrgNotes, ledger: CleanupLedger, who: str, org: str) -> None:
    """A rename that changes nothing."""
    _rename(ctx, org_notes, ledger, who, org=org, new_name=_org_name(ctx, org))


@when(phrase('"{who}" renames the organization "{org}" to the name of "{other}"'))
def rename_org_taken(
    ctx: ScenarioContext, org_notes: OrgNotes, ledger: CleanupLedger, *, who: str, org: str, other: str
) -> None:
    """A rename to a name another account holds."""
    _rename(ctx, org_notes, ledger, who, org=org, new_name=ctx.owner_name(other))


@when(phrase('"{who}" renames the organization "{org}" to the literal name "{raw}"'))
def rename_org_literal(
    ctx: ScenarioContext, org_notes: OrgNotes, ledger: CleanupLedger, *, who: str, org: str, raw: str
) -> None:
    """A rename to a name exactly as written (reserved or malformed names)."""
    _rename(ctx, org_notes, ledger, who, org=org, new_name=raw)


@when(phrase('"{who}" fetches the organization "{org}" by its old name'))
def fetch_org_old_name(ctx: ScenarioContext, org_notes: OrgNotes, who: str, org: str) -> None:
    """``GET /orgs/{old name}`` without following redirects."""
    ctx.response = acting_api(ctx, who).orgs.get(org_notes.old_name(org))


@when(phrase('"{who}" fetches the repository "{repo}" by its old owner name'))
def fetch_repo_old_owner(ctx: ScenarioContext, org_notes: OrgNotes, who: str, repo: str) -> None:
    """``GET /repos/{old owner}/{repo}`` without following redirects."""
    org = repo.split("/", 1)[0]
    ctx.response = acting_api(ctx, who).repos.get(org_notes.old_name(org), ctx.repo(repo).name)


# ---------------------------------------------------------------- When: members


@when(phrase('"{who}" lists the members of "{org}"'))
def list_members(ctx: ScenarioContext, who: str, org: str) -> None:
    """``GET /orgs/{org}/members``."""
    ctx.response = acting_api(ctx, who).orgs.list_members(_org_name(ctx, org))


@when(phrase('"{who}" checks whether "{user}" is a member of "{org}"'))
def check_member(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    """``GET /orgs/{org}/members/{username}``."""
    ctx.response = acting_api(ctx, who).orgs.is_member(_org_name(ctx, org), user_name(ctx, user))


@when(phrase('"{who}" removes "{user}" from the organization "{org}"'))
def remove_member(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    """``DELETE /orgs/{org}/members/{username}``."""
    ctx.response = acting_api(ctx, who).orgs.remove_member(_org_name(ctx, org), user_name(ctx, user))


@when(phrase('"{who}" lists their organizations'))
def list_my_orgs(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/orgs``."""
    ctx.response = acting_api(ctx, who).orgs.my_orgs()


@when(phrase('"{who}" lists the organizations of "{user}"'))
def list_user_orgs(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{username}/orgs``."""
    ctx.response = acting_api(ctx, who).orgs.user_orgs(user_name(ctx, user))


@when(phrase('"{who}" lists their teams'))
def list_my_teams(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/teams``."""
    ctx.response = acting_api(ctx, who).orgs.my_teams()


# ---------------------------------------------------------------- When: teams


@when(phrase('"{who}" lists the teams of "{org}"'))
def list_teams(ctx: ScenarioContext, who: str, org: str) -> None:
    """``GET /orgs/{org}/teams``."""
    ctx.response = acting_api(ctx, who).orgs.list_teams(_org_name(ctx, org))


@when(phrase('"{who}" creates the team "{team}" in "{org}" with the permission "{permission}"'))
def create_team(
    ctx: ScenarioContext, fake: SeededData, org_notes: OrgNotes, *, who: str, team: str, org: str, permission: str
) -> None:
    """``POST /orgs/{org}/teams`` with the code, issues, pulls and releases units."""
    body = {"name": team, "description": fake.sentence(), "permission": permission, "units": DEFAULT_UNITS}
    ctx.response = acting_api(ctx, who).orgs.create_team(_org_name(ctx, org), body)
    if ctx.response.status_code == 201:
        org_notes.teams[org, team] = int(json_of(ctx.response)["id"])


@when(phrase('"{who}" creates a team in "{org}" with the body'))
def create_team_raw(ctx: ScenarioContext, who: str, org: str, docstring: str) -> None:
    """``POST /orgs/{org}/teams`` with a body exactly as written."""
    ctx.response = acting_api(ctx, who).orgs.create_team(_org_name(ctx, org), json_document(docstring))


@when(phrase('"{who}" reads the team "{team}" of "{org}"'))
def read_team(ctx: ScenarioContext, org_notes: OrgNotes, who: str, team: str, org: str) -> None:
    """``GET /teams/{id}``."""
    ctx.response = acting_api(ctx, who).orgs.get_team(org_notes.team_id(ctx, org, team))


@when(phrase('"{who}" reads a team that does not exist'))
def read_missing_team(ctx: ScenarioContext, who: str) -> None:
    """``GET /teams/{id}`` with an id no team has."""
    ctx.response = acting_api(ctx, who).orgs.get_team(NO_SUCH_TEAM)


@when(phrase('"{who}" edits the team "{team}" of "{org}" with the body'))
def edit_team(ctx: ScenarioContext, org_notes: OrgNotes, *, who: str, team: str, org: str, docstring: str) -> None:
    """``PATCH /teams/{id}`` with an ``EditTeamOption``."""
    ctx.response = acting_api(ctx, who).orgs.edit_team(org_notes.team_id(ctx, org, team), json_document(docstring))


@when(phrase('"{who}" deletes the team "{team}" of "{org}"'))
def delete_team(ctx: ScenarioContext, org_notes: OrgNotes, who: str, team: str, org: str) -> None:
    """``DELETE /teams/{id}``."""
    ctx.response = acting_api(ctx, who).orgs.delete_team(org_notes.team_id(ctx, org, team))


@when(phrase('"{who}" lists the members of the team "{team}" of "{org}"'))
def list_team_members(ctx: ScenarioContext, org_notes: OrgNotes, who: str, team: str, org: str) -> None:
    """``GET /teams/{id}/members``."""
    ctx.response = acting_api(ctx, who).orgs.list_team_members(org_notes.team_id(ctx, org, team))


@when(phrase('"{who}" adds "{user}" to the team "{team}" of "{org}"'))
def add_team_member(ctx: ScenarioContext, org_notes: OrgNotes, *, who: str, user: str, team: str, org: str) -> None:
    """``PUT /teams/{id}/members/{username}``."""
    ctx.response = acting_api(ctx, who).orgs.add_team_member(org_notes.team_id(ctx, org, team), user_name(ctx, user))


@when(phrase('"{who}" removes "{user}" from the team "{team}" of "{org}"'))
def remove_team_member(ctx: ScenarioContext, org_notes: OrgNotes, *, who: str, user: str, team: str, org: str) -> None:
    """``DELETE /teams/{id}/members/{username}``."""
    ctx.response = acting_api(ctx, who).orgs.remove_team_member(org_notes.team_id(ctx, org, team), user_name(ctx, user))


@when(phrase('"{who}" lists the repositories of the team "{team}" of "{org}"'))
def list_team_repos(ctx: ScenarioContext, org_notes: OrgNotes, who: str, team: str, org: str) -> None:
    """``GET /teams/{id}/repos``."""
    ctx.response = acting_api(ctx, who).orgs.list_team_repos(org_notes.team_id(ctx, org, team))


@when(phrase('"{who}" adds the repository "{repo}" to the team "{team}" of "{org}"'))
def add_team_repo(ctx: ScenarioContext, org_notes: OrgNotes, *, who: str, repo: str, team: str, org: str) -> None:
    """``PUT /teams/{id}/repos/{org}/{repo}``."""
    owner, _, name = repo.partition("/")
    ref = ctx.repos.get(repo)
    real = (ref.owner, ref.name) if ref else (_org_name(ctx, owner), ctx.real_name(name))
    ctx.response = acting_api(ctx, who).orgs.add_team_repo(org_notes.team_id(ctx, org, team), *real)


@when(phrase('"{who}" removes the repository "{repo}" from the team "{team}" of "{org}"'))
def remove_team_repo(ctx: ScenarioContext, org_notes: OrgNotes, *, who: str, repo: str, team: str, org: str) -> None:
    """``DELETE /teams/{id}/repos/{org}/{repo}``."""
    ref = ctx.repo(repo)
    ctx.response = acting_api(ctx, who).orgs.remove_team_repo(org_notes.team_id(ctx, org, team), ref.owner, ref.name)


# ---------------------------------------------------------------- Then


def _logins(ctx: ScenarioContext) -> list[str]:
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list, got {str(body)[:200]}"
    return [str(item.get("login") or item.get("name")) for item in body]


@then(phrase('the response lists exactly "{names}"'))
def then_lists_exactly(ctx: ScenarioContext, names: str) -> None:
    """The list holds exactly these users or organizations (comma separated short names), in this order."""
    expected = [ctx.owner_name(short.strip()) for short in names.split(",") if short.strip()]
    assert _logins(ctx) == expected, f"listed {_logins(ctx)}, expected {expected}"


@then(phrase("the response lists nobody"))
def then_lists_nobody(ctx: ScenarioContext) -> None:
    """An empty list."""
    assert _logins(ctx) == [], f"expected an empty list, got {_logins(ctx)}"


@then(phrase('the response lists the team "{team}" with the permission "{permission}"'))
def then_lists_team(ctx: ScenarioContext, team: str, permission: str) -> None:
    """A team of that name and permission is in the list."""
    body = response_json(ctx)
    found = [item for item in body if item.get("name") == team]
    assert found, f'no team "{team}" in {[item.get("name") for item in body]}'
    assert found[0].get("permission") == permission, f'team "{team}" has the permission {found[0].get("permission")!r}'


@then(phrase('the team grants "{mode}" on the unit "{unit}"'))
def then_team_unit(ctx: ScenarioContext, mode: str, unit: str) -> None:
    """The team's ``units_map`` gives ``mode`` on ``unit`` and ``units`` names it."""
    body = response_json(ctx)
    assert body.get("units_map", {}).get(unit) == mode, f"units_map is {body.get('units_map')}"
    assert unit in body.get("units", []), f"units are {body.get('units')}"


@then(phrase('the team in the response belongs to "{org}"'))
def then_team_org(ctx: ScenarioContext, org: str) -> None:
    """The team's ``organization`` is the organization."""
    organization = response_json(ctx).get("organization")
    assert isinstance(organization, dict), f"the team has no organization: {organization!r}"
    assert organization.get("name") == ctx.orgs[org], f"the team belongs to {organization.get('name')!r}"


@then(phrase('"{user}" is a member of "{org}"'))
def then_member(ctx: ScenarioContext, user: str, org: str) -> None:
    """The organization's owner checks the membership: 204."""
    response = org_owner(ctx, org).api.orgs.is_member(ctx.orgs[org], user_name(ctx, user))
    assert response.status_code == 204, f'"{user}" should be a member of "{org}": {response.status_code}'


@then(phrase('"{user}" is not a member of "{org}"'))
def then_not_member(ctx: ScenarioContext, user: str, org: str) -> None:
    """The organization's owner checks the membership: 404."""
    response = org_owner(ctx, org).api.orgs.is_member(ctx.orgs[org], user_name(ctx, user))
    assert response.status_code == 404, f'"{user}" should not be a member of "{org}": {response.status_code}'


def _location_path(ctx: ScenarioContext) -> str:
    response = ctx.last_response()
    location = response.headers.get("Location")
    assert location, f"no Location header (status {response.status_code})"
    return urlsplit(location).path


def _api_path(ctx: ScenarioContext, rest: str) -> str:
    return urlsplit(ctx.admin.http.url(rest)).path


@then(phrase('the response redirects to the organization "{org}"'))
def then_redirects_to_org(ctx: ScenarioContext, org: str) -> None:
    """``Location`` is the API path of the organization under its current name."""
    expected = _api_path(ctx, f"orgs/{ctx.orgs[org]}")
    assert _location_path(ctx) == expected, f"Location is {_location_path(ctx)!r}, expected {expected!r}"


@then(phrase('the response redirects to the repository "{repo}"'))
def then_redirects_to_repo(ctx: ScenarioContext, repo: str) -> None:
    """``Location`` is the API path of the repository under its owner's current name."""
    expected = _api_path(ctx, f"repos/{ctx.repo(repo).full_name}")
    assert _location_path(ctx) == expected, f"Location is {_location_path(ctx)!r}, expected {expected!r}"


@then(phrase('the organization "{org}" is found under its new name'))
def then_found_under_new_name(ctx: ScenarioContext, org: str) -> None:
    """The admin reads the organization by its new name, which the answer carries."""
    response = ctx.admin.orgs.get(ctx.orgs[org])
    assert response.status_code == 200, f"GET /orgs/{ctx.orgs[org]} answered {response.status_code}"
    body = json_of(response)
    assert body["name"] == ctx.orgs[org], f"the organization is named {body['name']!r}, expected {ctx.orgs[org]!r}"


@then(phrase('the organization "{short}" does not exist'))
def org_absent(ctx: ScenarioContext, short: str) -> None:
    """The admin reads 404 for the organization."""
    response = ctx.admin.orgs.get(_org_name(ctx, short))
    assert response.status_code == 404, f'organization "{short}" should be gone, got {response.status_code}'


@then(phrase('the organization "{short}" exists'))
def org_exists(ctx: ScenarioContext, short: str) -> None:
    """The admin reads the organization."""
    response = ctx.admin.orgs.get(_org_name(ctx, short))
    assert response.status_code == 200, f'organization "{short}" is not readable: {response.status_code}'
