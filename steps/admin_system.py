"""Steps of the site administrator's other instance operations: system webhooks read, edited and deleted,
every organization listed, unadopted data deleted, users searched with filters and deleted with purge."""

from __future__ import annotations

from typing import Any

from pytest_bdd import then, when

from conformance.api.admin import AdminApi
from conformance.api.hooks import HooksApi
from conformance.api.repos import ReposApi
from conformance.context import ScenarioContext
from steps.common import expect_status, response_json
from steps.parsing import phrase


def _system_hook(system_hooks: list[int]) -> int:
    assert system_hooks, "no system webhook in this scenario: add `Given the admin has a system webhook ...`"
    return system_hooks[-1]


@when(phrase("the admin reads the system webhook"))
def when_read_system_hook(ctx: ScenarioContext, system_hooks: list[int]) -> None:
    """``GET /admin/hooks/{id}``."""
    ctx.response = ctx.admin.area(HooksApi).get_system_hook(_system_hook(system_hooks))


@when(phrase('the admin changes the system webhook to the events "{events}", inactive'))
def when_edit_system_hook(ctx: ScenarioContext, system_hooks: list[int], events: str) -> None:
    """``PATCH /admin/hooks/{id}`` with new events and ``active: false``."""
    option = {"events": [event.strip() for event in events.split(",")], "active": False}
    ctx.response = ctx.admin.area(HooksApi).edit_system_hook(_system_hook(system_hooks), option)


@when(phrase("the admin deletes the system webhook"))
def when_delete_system_hook(ctx: ScenarioContext, system_hooks: list[int]) -> None:
    """``DELETE /admin/hooks/{id}``."""
    ctx.response = ctx.admin.area(HooksApi).delete_system_hook(_system_hook(system_hooks))


def _check_hook(body: Any, hook_id: int, events: str, *, active: bool) -> None:
    assert body["id"] == hook_id, f"id is {body['id']!r}, expected {hook_id}"
    wanted = sorted(event.strip() for event in events.split(","))
    assert sorted(body["events"]) == wanted, f"events are {body['events']!r}, expected {wanted!r}"
    assert body["active"] is active, f"active is {body['active']!r}"
    assert body["type"] == "gitea", f"type is {body['type']!r}"


@then(phrase('the answer is the active system webhook for the events "{events}"'))
def then_system_hook(ctx: ScenarioContext, system_hooks: list[int], events: str) -> None:
    """The ``Hook`` the admin created: its id, events, type and state."""
    _check_hook(response_json(ctx), _system_hook(system_hooks), events, active=True)


@then(phrase('the system webhook reads back with the events "{events}", inactive'))
def then_system_hook_changed(ctx: ScenarioContext, system_hooks: list[int], events: str) -> None:
    """A later read shows the edit kept."""
    hook_id = _system_hook(system_hooks)
    body = expect_status(ctx.admin.area(HooksApi).get_system_hook(hook_id), 200, "reading the system webhook")
    _check_hook(body, hook_id, events, active=False)


@then(phrase("the system webhook is no longer found"))
def then_system_hook_gone(ctx: ScenarioContext, system_hooks: list[int]) -> None:
    """A later read of the deleted hook is a 404."""
    response = ctx.admin.area(HooksApi).get_system_hook(_system_hook(system_hooks))
    assert response.status_code == 404, f"the deleted hook answers {response.status_code}"


@when(phrase("the admin lists the last page of every organization"))
def when_list_orgs_last_page(ctx: ScenarioContext) -> None:
    """``GET /admin/orgs``: the first page tells the total, then the page the newest organizations are on."""
    admin = ctx.admin.area(AdminApi)
    first = admin.organizations(page=1, limit=50)
    expect_status(first, 200, "listing the organizations")
    total = int(first.headers.get("X-Total-Count", "0"))
    ctx.response = admin.organizations(page=max(1, (total + 49) // 50), limit=50)


@then(phrase('the organization "{org}" is on that page, with its full name'))
def then_org_listed(ctx: ScenarioContext, org: str) -> None:
    """The admin's list holds the organization the scenario created, as Gitea's ``Organization``."""
    body = response_json(ctx)
    found = {item["name"]: item for item in body}
    name = ctx.org(org)
    assert name in found, f"{name!r} is not listed: {sorted(found)}"
    assert found[name]["username"] == name and "full_name" in found[name], f"listed as {found[name]!r}"


@when(phrase('the admin deletes the unadopted repository "{short}"'))
def when_delete_unadopted(ctx: ScenarioContext, short: str) -> None:
    """``DELETE /admin/unadopted/{owner}/{repo}``."""
    owner, _, name = short.partition("/")
    real = ctx.repo(short).name if short in ctx.repos else ctx.real_name(name)
    ctx.response = ctx.admin.area(AdminApi).delete_unadopted(ctx.owner_name(owner), real)


@when(phrase('the admin searches the users by the login name of "{short}"'))
def when_search_by_login(ctx: ScenarioContext, short: str) -> None:
    """``GET /admin/users?login_name=``: an exact sign-in name."""
    ctx.response = ctx.admin.area(AdminApi).search_users(login_name=ctx.user(short).username)


@when(phrase('the admin searches the users named like "{short}" with "{parameter}" set to "{value}"'))
def when_search_filtered(ctx: ScenarioContext, short: str, parameter: str, value: str) -> None:
    """``GET /admin/users?q=<name>&<parameter>=<value>``."""
    ctx.response = ctx.admin.area(AdminApi).search_users(q=ctx.user(short).username, **{parameter: value})


@then(phrase('the user list holds only "{short}"'))
def then_user_list(ctx: ScenarioContext, short: str) -> None:
    """Exactly the user the scenario created."""
    body = response_json(ctx)
    assert [item["login"] for item in body] == [ctx.user(short).username], f"listed: {[i['login'] for i in body]}"


@when(phrase('the admin deletes the user "{short}" with purge'))
def when_delete_user_purge(ctx: ScenarioContext, short: str) -> None:
    """``DELETE /admin/users/{username}?purge=true``."""
    ctx.response = ctx.admin.users.admin_delete(ctx.user(short).username, purge=True)


@when(phrase('the admin deletes the user "{short}" without purge'))
def when_delete_user_keep(ctx: ScenarioContext, short: str) -> None:
    """``DELETE /admin/users/{username}``."""
    ctx.response = ctx.admin.users.admin_delete(ctx.user(short).username, purge=False)


@then(phrase('the user "{short}" and the repository "{repo}" are gone'))
def then_user_gone(ctx: ScenarioContext, short: str, repo: str) -> None:
    """Neither the account nor what it owned answers any more."""
    assert ctx.admin.users.get(ctx.user(short).username).status_code == 404, "the user still answers"
    ref = ctx.repo(repo)
    status = ctx.admin.area(ReposApi).get(ref.owner, ref.name).status_code
    assert status == 404, f"the repository answers {status}"
