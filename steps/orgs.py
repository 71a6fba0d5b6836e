"""Steps of the orgs area: create, read and delete organizations."""

from __future__ import annotations

from pytest_bdd import then, when

from conformance.context import ScenarioContext
from conformance.ledger import CleanupLedger
from steps.common import phrase


def _org_name(ctx: ScenarioContext, short: str) -> str:
    return ctx.orgs.get(short) or ctx.real_name(short)


@when(phrase('"{who}" creates the organization "{short}"'))
def create_org(ctx: ScenarioContext, ledger: CleanupLedger, who: str, short: str) -> None:
    """``POST /orgs``; the caller becomes the owner."""
    name = _org_name(ctx, short)
    ledger.record_org(name)
    ctx.response = ctx.user(who).api.orgs.create(name, full_name=f"Organization {short}")
    if ctx.response.status_code == 201:
        ctx.orgs[short] = name


@when(phrase('"{who}" creates an organization without a name'))
def create_org_without_name(ctx: ScenarioContext, who: str) -> None:
    """``POST /orgs`` with a body lacking ``username``."""
    ctx.response = ctx.user(who).api.orgs.create_raw({"full_name": "nameless"})


@when(phrase('"{who}" fetches the organization "{short}"'))
def fetch_org(ctx: ScenarioContext, who: str, short: str) -> None:
    """``GET /orgs/{org}`` (an unknown short name maps to a name nobody created)."""
    ctx.response = ctx.user(who).api.orgs.get(_org_name(ctx, short))


@when(phrase('"{who}" deletes the organization "{short}"'))
def delete_org(ctx: ScenarioContext, who: str, short: str) -> None:
    """``DELETE /orgs/{org}``."""
    ctx.response = ctx.user(who).api.orgs.delete(_org_name(ctx, short))


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
