"""Steps of Actions secrets: set, list and delete at repository, organization and user scope; the value
never comes back; a job receives it and its log shows ``***`` instead.

A scope reads ``the organization "acme"``, ``the repository "dev/app"`` or ``the user "dev"`` (a user's
own secrets: the path is ``/user/actions/...`` and only that user can act on it). Given steps act as
the admin at repository and organization scope, as the user at user scope. Every value a step sends is
registered with the recorder (so reports mask it) and kept, so a Then step can prove no response of
the scenario carried it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import requests
from pytest_bdd import given, then, when

from conformance.api.actions import ActionsApi
from conformance.api.secrets import USER_SCOPE, ActionsConfigApi, org_scope, repo_scope
from conformance.client import TokenAuth, json_of
from conformance.context import ScenarioContext
from steps.ci import actions_of, the_repo
from steps.common import response_json
from steps.parsing import phrase

__all__ = ["ConfigScope", "config_api", "resolve_scope", "scope_owner_ids", "token_api", "track"]

SCOPE_KINDS = ("organization", "repository", "user")


@dataclass(frozen=True)
class ConfigScope:
    """Where secrets and variables live: the path before ``/actions`` and the scope's kind and short name."""

    kind: str
    short: str
    path: str


def resolve_scope(ctx: ScenarioContext, kind: str, short: str) -> ConfigScope:
    """``organization``/``repository``/``user`` and a short name to the scope's API path."""
    if kind == "organization":
        return ConfigScope(kind, short, org_scope(ctx.org(short)))
    if kind == "repository":
        repo = ctx.repo(short)
        return ConfigScope(kind, short, repo_scope(repo.owner, repo.name))
    if kind == "user":
        ctx.user(short)
        return ConfigScope(kind, short, USER_SCOPE)
    raise AssertionError(f"a scope is one of {', '.join(SCOPE_KINDS)}, got {kind!r}")


def config_api(ctx: ScenarioContext, who: str | None, scope: ConfigScope) -> ActionsConfigApi:
    """The operations as ``who`` (a scenario user), or for Given steps (``who`` None) as whoever owns the
    scope: the admin for repositories and organizations, the user themself at user scope."""
    if who is not None:
        return ctx.user(who).api.area(ActionsConfigApi)
    return (ctx.user(scope.short).api if scope.kind == "user" else ctx.admin).area(ActionsConfigApi)


def token_api(ctx: ScenarioContext, token_name: str) -> ActionsConfigApi:
    """The operations with a named token of the scenario (``Given "dev" has a token "t" scoped "..."``)."""
    token = ctx.tokens.get(token_name)
    assert token is not None, f'no token "{token_name}" in this scenario'
    return ActionsConfigApi(ctx.admin.http.with_auth(TokenAuth(token.value)), ctx.admin.site_url)


def track(ctx: ScenarioContext, response: requests.Response) -> None:
    """Make the response the scenario's last one and keep it for the no-value-revealed check."""
    ctx.response = response
    ctx.values.setdefault("secrets:responses", []).append(response)


def _remember_value(ctx: ScenarioContext, value: str) -> None:
    ctx.admin.http.recorder.add_secret(value)
    values: set[str] = ctx.values.setdefault("secrets:values", set())
    values.add(value)


def scope_owner_ids(ctx: ScenarioContext, scope: ConfigScope) -> tuple[int, int]:
    """``(owner_id, repo_id)`` a secret or variable of the scope carries, as Gitea reports them."""
    if scope.kind == "repository":
        repo = ctx.repo(scope.short)
        found = json_of(ctx.admin.repos.get(repo.owner, repo.name))
        return 0, int(found["id"])
    name = ctx.org(scope.short) if scope.kind == "organization" else ctx.user(scope.short).username
    response = ctx.admin.orgs.get(name) if scope.kind == "organization" else ctx.admin.users.get(name)
    return int(json_of(response)["id"]), 0


def _expect(response: requests.Response, statuses: tuple[int, ...], what: str) -> None:
    if response.status_code not in statuses:
        raise AssertionError(f"{what} answered {response.status_code}: {response.text[:300]}")


# ---------------------------------------------------------------- Given


def _given_secret(
    ctx: ScenarioContext, *, kind: str, short: str, name: str, value: str, description: str | None
) -> None:
    scope = resolve_scope(ctx, kind, short)
    _remember_value(ctx, value)
    response = config_api(ctx, None, scope).put_secret(scope.path, name, value, description)
    _expect(response, (201, 204), f'setting the secret "{name}" of the {kind} "{short}"')


@given(phrase('the {kind:w} "{short}" has the secret "{name}" set to "{value}"'))
def given_secret(ctx: ScenarioContext, kind: str, short: str, name: str, value: str) -> None:
    """A secret made by the scope's owner."""
    _given_secret(ctx, kind=kind, short=short, name=name, value=value, description=None)


@given(phrase('the {kind:w} "{short}" has the secret "{name}" set to "{value}" with the description "{description}"'))
def given_secret_described(
    ctx: ScenarioContext, *, kind: str, short: str, name: str, value: str, description: str
) -> None:
    """A secret with a description."""
    _given_secret(ctx, kind=kind, short=short, name=name, value=value, description=description)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" sets the secret "{name}" of the {kind:w} "{short}" to "{value}"'))
def set_secret(ctx: ScenarioContext, *, who: str, name: str, kind: str, short: str, value: str) -> None:
    """PUT .../actions/secrets/{name} with ``{"data": value}``."""
    scope = resolve_scope(ctx, kind, short)
    _remember_value(ctx, value)
    track(ctx, config_api(ctx, who, scope).put_secret(scope.path, name, value))


@when(phrase('"{who}" sets the secret "{name}" of the {kind:w} "{short}" to a value of {size:d} bytes'))
def set_sized_secret(ctx: ScenarioContext, *, who: str, name: str, kind: str, short: str, size: int) -> None:
    """PUT with a value of exactly ``size`` bytes."""
    scope = resolve_scope(ctx, kind, short)
    value = ("0123456789abcdef" * (size // 16 + 1))[:size]
    _remember_value(ctx, value)
    track(ctx, config_api(ctx, who, scope).put_secret(scope.path, name, value))


@when(phrase('"{who}" sets the secret "{name}" of the {kind:w} "{short}" with the body'))
def set_secret_body(ctx: ScenarioContext, *, who: str, name: str, kind: str, short: str, docstring: str) -> None:
    """PUT with a literal JSON body (for bad input)."""
    scope = resolve_scope(ctx, kind, short)
    track(ctx, config_api(ctx, who, scope).put_secret_body(scope.path, name, json.loads(docstring)))


@when(phrase('the token "{token}" is used to set the secret "{name}" of the {kind:w} "{short}" to "{value}"'))
def set_secret_with_token(ctx: ScenarioContext, *, token: str, name: str, kind: str, short: str, value: str) -> None:
    """PUT with another token of the scope's owner (for scope checks)."""
    scope = resolve_scope(ctx, kind, short)
    _remember_value(ctx, value)
    track(ctx, token_api(ctx, token).put_secret(scope.path, name, value))


@when(phrase('"{who}" lists the secrets of the {kind:w} "{short}"'))
def list_secrets(ctx: ScenarioContext, who: str, kind: str, short: str) -> None:
    """GET .../actions/secrets."""
    scope = resolve_scope(ctx, kind, short)
    track(ctx, config_api(ctx, who, scope).list_secrets(scope.path))


@given(phrase('"{who}" has deleted the secret "{name}" of the {kind:w} "{short}"'))
def given_deleted_secret(ctx: ScenarioContext, who: str, name: str, kind: str, short: str) -> None:
    """A deletion that must succeed (204) before the scenario's action."""
    scope = resolve_scope(ctx, kind, short)
    _expect(config_api(ctx, who, scope).delete_secret(scope.path, name), (204,), f'deleting the secret "{name}"')


@when(phrase('"{who}" deletes the secret "{name}" of the {kind:w} "{short}"'))
def delete_secret(ctx: ScenarioContext, who: str, name: str, kind: str, short: str) -> None:
    """DELETE .../actions/secrets/{name}."""
    scope = resolve_scope(ctx, kind, short)
    track(ctx, config_api(ctx, who, scope).delete_secret(scope.path, name))


# ---------------------------------------------------------------- Then


@then(phrase("the response body is empty"))
def then_empty_body(ctx: ScenarioContext) -> None:
    """201/204 of a secret or variable change carry no body."""
    body = ctx.last_response().content
    assert not body.strip(), f"expected an empty body, got {body[:200]!r}"


def _listed_names(ctx: ScenarioContext) -> list[str]:
    body = response_json(ctx)
    assert isinstance(body, list), f"expected an array, got {str(body)[:300]}"
    return sorted(str(item.get("name")) for item in body)


@then(phrase('the secret list holds exactly "{names}"'))
def then_secret_list(ctx: ScenarioContext, names: str) -> None:
    """The listed names (upper-cased by the server) and X-Total-Count."""
    expected = sorted(name.strip() for name in names.split(",") if name.strip())
    assert _listed_names(ctx) == expected, f"listed {_listed_names(ctx)}, expected {expected}"
    total = ctx.last_response().headers.get("X-Total-Count")
    assert total == str(len(expected)), f"X-Total-Count is {total!r}, expected {len(expected)}"


@then(phrase("the secret list is empty"))
def then_secret_list_empty(ctx: ScenarioContext) -> None:
    """An empty array and a total of 0."""
    assert _listed_names(ctx) == [], f"listed {_listed_names(ctx)}"
    assert ctx.last_response().headers.get("X-Total-Count") == "0"


@then(phrase('the listed secret "{name}" has the description "{description}"'))
def then_secret_description(ctx: ScenarioContext, name: str, description: str) -> None:
    """The description comes back, the value does not."""
    entry = next((item for item in response_json(ctx) if item.get("name") == name), None)
    assert entry is not None, f'no secret "{name}" listed'
    assert entry.get("description") == description, f"description is {entry.get('description')!r}"


@then(phrase('the {kind:w} "{short}" has exactly the secrets "{names}"'))
def then_scope_secrets(ctx: ScenarioContext, kind: str, short: str, names: str) -> None:
    """Listed again by the admin: what the scope holds after the action."""
    scope = resolve_scope(ctx, kind, short)
    response = config_api(ctx, None, scope).list_secrets(scope.path)
    ctx.values.setdefault("secrets:responses", []).append(response)
    _expect(response, (200,), f"listing the secrets of the {kind} {short!r}")
    listed = sorted(str(item.get("name")) for item in json_of(response))
    expected = sorted(name.strip() for name in names.split(",") if name.strip())
    assert listed == expected, f"the {kind} holds {listed}, expected {expected}"


@then(phrase("no response of the scenario reveals a secret value"))
def then_no_value_revealed(ctx: ScenarioContext) -> None:
    """Neither body nor headers of any answer the secret steps got carries a value that was sent."""
    values: set[str] = ctx.values.get("secrets:values", set())
    responses: list[requests.Response] = ctx.values.get("secrets:responses", [])
    assert values and responses, "no secret was sent or no answer was received in this scenario"
    for response in responses:
        seen = response.text + "\n" + "\n".join(f"{k}: {v}" for k, v in response.headers.items())
        for value in values:
            assert value not in seen, f"{response.request.method} {response.url} revealed a secret value"


# ---------------------------------------------------------------- jobs


def _job_log(ctx: ScenarioContext) -> str:
    """The log of the repository's only job, read over REST (``GET .../actions/jobs/{id}/logs``)."""
    cached = ctx.values.get("secrets:job log")
    if isinstance(cached, str):
        return cached
    repo = the_repo(ctx)
    actions: ActionsApi = actions_of(ctx, repo)
    jobs_response = actions.list_jobs(repo.owner, repo.name)
    _expect(jobs_response, (200,), "listing the repository's jobs")
    jobs: list[dict[str, Any]] = json_of(jobs_response).get("jobs") or []
    assert len(jobs) == 1, f"expected one job in the repository, found {len(jobs)}"
    response = actions.job_logs(repo.owner, repo.name, int(jobs[0]["id"]))
    ctx.values.setdefault("secrets:responses", []).append(response)
    _expect(response, (200,), "reading the job's log")
    ctx.values["secrets:job log"] = response.text
    return response.text


@then(phrase('the job\'s log read over REST shows "{text}"'))
def then_log_shows(ctx: ScenarioContext, text: str) -> None:
    """A line the job printed, after the runner's masking."""
    log = _job_log(ctx)
    assert text in log, f"{text!r} is not in the job's log ({len(log)} characters)"


@then(phrase("the job's log read over REST reveals no secret value"))
def then_log_hides_values(ctx: ScenarioContext) -> None:
    """No secret value sent in this scenario is in the log."""
    log = _job_log(ctx)
    values: set[str] = ctx.values.get("secrets:values", set())
    assert values, "no secret was set in this scenario"
    leaked = [value for value in values if value in log]
    assert not leaked, f"the job's log reveals {len(leaked)} secret value(s)"
