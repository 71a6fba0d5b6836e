"""Steps of Actions variables: create, read, update (with rename), delete and list at repository,
organization and user scope. Scopes read as in :mod:`steps.secrets`.
"""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.common import json_document, response_json
from steps.parsing import phrase
from steps.secrets import config_api, resolve_scope, scope_owner_ids, token_config_api

__all__: list[str] = []


# ---------------------------------------------------------------- Given


@given(phrase('the {kind:w} "{short}" has the variable "{name}" set to "{value}"'))
def given_variable(ctx: ScenarioContext, kind: str, short: str, name: str, value: str) -> None:
    """A variable made by the scope's owner (the admin, or the user at user scope)."""
    scope = resolve_scope(ctx, kind, short)
    response = config_api(ctx, None, scope).create_variable(scope.path, name, {"value": value})
    if response.status_code != 201:
        raise AssertionError(f'creating the variable "{name}" answered {response.status_code}: {response.text[:300]}')


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates the variable "{name}" of the {kind:w} "{short}" with the value "{value}"'))
def create_variable(ctx: ScenarioContext, *, who: str, name: str, kind: str, short: str, value: str) -> None:
    """POST .../actions/variables/{name} with ``{"value": value}``."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = config_api(ctx, who, scope).create_variable(scope.path, name, {"value": value})


@when(phrase('"{who}" creates the variable "{name}" of the {kind:w} "{short}" with the body'))
def create_variable_body(ctx: ScenarioContext, *, who: str, name: str, kind: str, short: str, docstring: str) -> None:
    """POST with a literal JSON body."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = config_api(ctx, who, scope).create_variable(scope.path, name, json_document(docstring))


@when(phrase('"{who}" gets the variable "{name}" of the {kind:w} "{short}"'))
def get_variable(ctx: ScenarioContext, who: str, name: str, kind: str, short: str) -> None:
    """GET .../actions/variables/{name}."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = config_api(ctx, who, scope).get_variable(scope.path, name)


@when(phrase('"{who}" updates the variable "{name}" of the {kind:w} "{short}" with the body'))
def update_variable(ctx: ScenarioContext, *, who: str, name: str, kind: str, short: str, docstring: str) -> None:
    """PUT .../actions/variables/{name} with a literal JSON body."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = config_api(ctx, who, scope).update_variable(scope.path, name, json_document(docstring))


@when(phrase('"{who}" deletes the variable "{name}" of the {kind:w} "{short}"'))
def delete_variable(ctx: ScenarioContext, who: str, name: str, kind: str, short: str) -> None:
    """DELETE .../actions/variables/{name}."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = config_api(ctx, who, scope).delete_variable(scope.path, name)


@when(phrase('the token "{token}" is used to delete the variable "{name}" of the {kind:w} "{short}"'))
def delete_variable_with_token(ctx: ScenarioContext, token: str, name: str, kind: str, short: str) -> None:
    """DELETE with another token of the scope's owner (for scope checks)."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = token_config_api(ctx, token).delete_variable(scope.path, name)


@when(phrase('"{who}" lists the variables of the {kind:w} "{short}"'))
def list_variables(ctx: ScenarioContext, who: str, kind: str, short: str) -> None:
    """GET .../actions/variables."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = config_api(ctx, who, scope).list_variables(scope.path)


@when(phrase('"{who}" lists page {page:d} of the variables of the {kind:w} "{short}" with {limit:d} per page'))
def list_variables_page(ctx: ScenarioContext, *, who: str, page: int, kind: str, short: str, limit: int) -> None:
    """GET .../actions/variables?page=&limit=."""
    scope = resolve_scope(ctx, kind, short)
    ctx.response = config_api(ctx, who, scope).list_variables(scope.path, page=page, limit=limit)


# ---------------------------------------------------------------- Then


@then(phrase('the variable is "{name}" with the value "{value}"'))
def then_variable(ctx: ScenarioContext, name: str, value: str) -> None:
    """The ActionVariable's name (as stored) and data."""
    body = response_json(ctx)
    assert (body.get("name"), body.get("data")) == (name, value), (
        f"the variable is {body.get('name')!r} = {body.get('data')!r}, expected {name!r} = {value!r}"
    )


@then(phrase('the variable belongs to the {kind:w} "{short}"'))
def then_variable_owner(ctx: ScenarioContext, kind: str, short: str) -> None:
    """owner_id/repo_id as Gitea reports them: a repository's has owner_id 0, an owner's has repo_id 0."""
    body = response_json(ctx)
    expected = scope_owner_ids(ctx, resolve_scope(ctx, kind, short))
    actual = (body.get("owner_id"), body.get("repo_id"))
    assert actual == expected, f"(owner_id, repo_id) is {actual}, expected {expected}"


@then(phrase('the variable list holds exactly "{names}" with an X-Total-Count of {total:d}'))
def then_variable_list(ctx: ScenarioContext, names: str, total: int) -> None:
    """The listed names (in any order) and the total the header announces."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected an array, got {str(body)[:300]}"
    listed = sorted(str(item.get("name")) for item in body)
    expected = sorted(name.strip() for name in names.split(",") if name.strip())
    assert listed == expected, f"listed {listed}, expected {expected}"
    header = ctx.last_response().headers.get("X-Total-Count")
    assert header == str(total), f"X-Total-Count is {header!r}, expected {total}"


@then(phrase('the {kind:w} "{short}" has the variable "{name}" with the value "{value}"'))
def then_scope_variable(ctx: ScenarioContext, kind: str, short: str, name: str, value: str) -> None:
    """Read back by the scope's owner after the action."""
    scope = resolve_scope(ctx, kind, short)
    response = config_api(ctx, None, scope).get_variable(scope.path, name)
    assert response.status_code == 200, f'reading "{name}" answered {response.status_code}: {response.text[:200]}'
    assert json_of(response).get("data") == value, f'"{name}" holds {json_of(response).get("data")!r}'


@then(phrase('the {kind:w} "{short}" has no variable "{name}"'))
def then_scope_lacks_variable(ctx: ScenarioContext, kind: str, short: str, name: str) -> None:
    """Read back by the scope's owner: 404."""
    scope = resolve_scope(ctx, kind, short)
    response = config_api(ctx, None, scope).get_variable(scope.path, name)
    assert response.status_code == 404, f'reading "{name}" answered {response.status_code}, expected 404'
