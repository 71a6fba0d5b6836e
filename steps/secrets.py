"""Steps of Actions secrets: set, list and delete at repository, organization and user scope; the value
never comes back; a job receives it and its log shows ``***`` instead.

A scope reads ``the organization "acme"``, ``the repository "dev/app"`` or ``the user "dev"`` (a user's
own secrets: the path is ``/user/actions/...`` and only that user can act on it). Given steps act as
the admin at repository and organization scope, as the user at user scope. Every value a step sends is
registered with the recorder (so reports mask it) and kept, so a Then step can prove no response of
the scenario carried it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.secrets import USER_SCOPE, ActionsConfigApi, org_scope, repo_scope
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting, token_api
from steps.ci import CiWorld, owner_actions
from steps.common import expect_status, json_document, response_json
from steps.parsing import phrase

__all__ = ["ConfigScope", "SecretNotes", "config_api", "resolve_scope", "scope_owner_ids", "token_config_api"]

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
    """The operations as ``who``, or for Given steps (``who`` None) as whoever owns the scope: the admin
    for repositories and organizations, the user themself at user scope."""
    if who is None:
        who = scope.short if scope.kind == "user" else ADMIN
    return acting(ctx, who, ActionsConfigApi)


def token_config_api(ctx: ScenarioContext, token_name: str) -> ActionsConfigApi:
    """The operations with a named token of the scenario (``Given "dev" has a token "t" scoped "..."``)."""
    return token_api(ctx, token_name).area(ActionsConfigApi)


@dataclass
class SecretNotes:
    """Every secret value a step sent and every answer the secret steps got (to prove none reveals a value),
    and the job's log once read."""

    values: set[str] = field(default_factory=set)
    responses: list[requests.Response] = field(default_factory=list)
    job_log: str | None = None

    def track(self, ctx: ScenarioContext, response: requests.Response) -> None:
        """Make the response the scenario's last one and keep it for the no-value-revealed check."""
        ctx.response = response
        self.responses.append(response)

    def sent(self, ctx: ScenarioContext, value: str) -> None:
        """A value about to be sent: masked in transcripts, kept for the checks."""
        ctx.admin.http.recorder.add_secret(value)
        self.values.add(value)


@pytest.fixture
def secret_notes() -> SecretNotes:
    """The scenario's secret values and answers."""
    return SecretNotes()


def scope_owner_ids(ctx: ScenarioContext, scope: ConfigScope) -> tuple[int, int]:
    """``(owner_id, repo_id)`` a secret or variable of the scope carries, as Gitea reports them."""
    if scope.kind == "repository":
        repo = ctx.repo(scope.short)
        found = json_of(ctx.admin.repos.get(repo.owner, repo.name))
        return 0, int(found["id"])
    name = ctx.org(scope.short) if scope.kind == "organization" else ctx.user(scope.short).username
    response = ctx.admin.orgs.get(name) if scope.kind == "organization" else ctx.admin.users.get(name)
    return int(json_of(response)["id"]), 0


# ---------------------------------------------------------------- Given


def _given_secret(
    ctx: ScenarioContext,
    secret_notes: SecretNotes,
    *,
    kind: str,
    short: str,
    name: str,
    value: str,
    description: str | None,
) -> None:
    scope = resolve_scope(ctx, kind, short)
    secret_notes.sent(ctx, value)
    response = config_api(ctx, None, scope).put_secret(scope.path, name, value, description)
    expect_status(response, (201, 204), f'setting the secret "{name}" of the {kind} "{short}"')


@given(phrase('the {kind:w} "{short}" has the secret "{name}" set to "{value}"'))
def given_secret(
    ctx: ScenarioContext, secret_notes: SecretNotes, *, kind: str, short: str, name: str, value: str
) -> None:
    """A secret made by the scope's owner."""
    _given_secret(ctx, secret_notes, kind=kind, short=short, name=name, value=value, description=None)


@given(phrase('the {kind:w} "{short}" has the secret "{name}" set to "{value}" with the description "{description}"'))
def given_secret_described(
    ctx: ScenarioContext, secret_notes: SecretNotes, *, kind: str, short: str, name: str, value: str, description: str
) -> None:
    """A secret with a description."""
    _given_secret(ctx, secret_notes, kind=kind, short=short, name=name, value=value, description=description)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" sets the secret "{name}" of the {kind:w} "{short}" to "{value}"'))
def set_secret(
    ctx: ScenarioContext, secret_notes: SecretNotes, *, who: str, name: str, kind: str, short: str, value: str
) -> None:
    """PUT .../actions/secrets/{name} with ``{"data": value}``."""
    scope = resolve_scope(ctx, kind, short)
    secret_notes.sent(ctx, value)
    secret_notes.track(ctx, config_api(ctx, who, scope).put_secret(scope.path, name, value))


@when(phrase('"{who}" sets the secret "{name}" of the {kind:w} "{short}" to a value of {size:d} bytes'))
def set_sized_secret(
    ctx: ScenarioContext, secret_notes: SecretNotes, *, who: str, name: str, kind: str, short: str, size: int
) -> None:
    """PUT with a value of exactly ``size`` bytes."""
    scope = resolve_scope(ctx, kind, short)
    value = ("0123456789abcdef" * (size // 16 + 1))[:size]
    secret_notes.sent(ctx, value)
    secret_notes.track(ctx, config_api(ctx, who, scope).put_secret(scope.path, name, value))


@when(phrase('"{who}" sets the secret "{name}" of the {kind:w} "{short}" with the body'))
def set_secret_body(
    ctx: ScenarioContext, secret_notes: SecretNotes, *, who: str, name: str, kind: str, short: str, docstring: str
) -> None:
    """PUT with a literal JSON body (for bad input)."""
    scope = resolve_scope(ctx, kind, short)
    secret_notes.track(ctx, config_api(ctx, who, scope).put_secret_body(scope.path, name, json_document(docstring)))


@when(phrase('the token "{token}" is used to set the secret "{name}" of the {kind:w} "{short}" to "{value}"'))
def set_secret_with_token(
    ctx: ScenarioContext, secret_notes: SecretNotes, *, token: str, name: str, kind: str, short: str, value: str
) -> None:
    """PUT with another token of the scope's owner (for scope checks)."""
    scope = resolve_scope(ctx, kind, short)
    secret_notes.sent(ctx, value)
    secret_notes.track(ctx, token_config_api(ctx, token).put_secret(scope.path, name, value))


@when(phrase('"{who}" lists the secrets of the {kind:w} "{short}"'))
def list_secrets(ctx: ScenarioContext, secret_notes: SecretNotes, who: str, kind: str, short: str) -> None:
    """GET .../actions/secrets."""
    scope = resolve_scope(ctx, kind, short)
    secret_notes.track(ctx, config_api(ctx, who, scope).list_secrets(scope.path))


@given(phrase('"{who}" has deleted the secret "{name}" of the {kind:w} "{short}"'))
def given_deleted_secret(ctx: ScenarioContext, who: str, name: str, kind: str, short: str) -> None:
    """A deletion that must succeed (204) before the scenario's action."""
    scope = resolve_scope(ctx, kind, short)
    expect_status(config_api(ctx, who, scope).delete_secret(scope.path, name), (204,), f'deleting the secret "{name}"')


@when(phrase('"{who}" deletes the secret "{name}" of the {kind:w} "{short}"'))
def delete_secret(
    ctx: ScenarioContext, secret_notes: SecretNotes, *, who: str, name: str, kind: str, short: str
) -> None:
    """DELETE .../actions/secrets/{name}."""
    scope = resolve_scope(ctx, kind, short)
    secret_notes.track(ctx, config_api(ctx, who, scope).delete_secret(scope.path, name))


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
def then_scope_secrets(ctx: ScenarioContext, secret_notes: SecretNotes, kind: str, short: str, names: str) -> None:
    """Listed again by the admin: what the scope holds after the action."""
    scope = resolve_scope(ctx, kind, short)
    response = config_api(ctx, None, scope).list_secrets(scope.path)
    secret_notes.responses.append(response)
    expect_status(response, 200, f"listing the secrets of the {kind} {short!r}")
    listed = sorted(str(item.get("name")) for item in json_of(response))
    expected = sorted(name.strip() for name in names.split(",") if name.strip())
    assert listed == expected, f"the {kind} holds {listed}, expected {expected}"


@then(phrase("no response of the scenario reveals a secret value"))
def then_no_value_revealed(secret_notes: SecretNotes) -> None:
    """Neither body nor headers of any answer the secret steps got carries a value that was sent."""
    values, responses = secret_notes.values, secret_notes.responses
    assert values and responses, "no secret was sent or no answer was received in this scenario"
    for response in responses:
        seen = response.text + "\n" + "\n".join(f"{k}: {v}" for k, v in response.headers.items())
        for value in values:
            assert value not in seen, f"{response.request.method} {response.url} revealed a secret value"


# ---------------------------------------------------------------- jobs


def _job_log(ci_world: CiWorld, secret_notes: SecretNotes) -> str:
    """The log of the repository's only job, read over REST (``GET .../actions/jobs/{id}/logs``) once."""
    if secret_notes.job_log is not None:
        return secret_notes.job_log
    repo = ci_world.repository()
    actions = owner_actions(ci_world.ctx, repo)
    jobs = expect_status(actions.list_jobs(repo.owner, repo.name), 200, "listing the repository's jobs").get("jobs")
    assert jobs and len(jobs) == 1, f"expected one job in the repository, found {len(jobs or [])}"
    response = actions.job_logs(repo.owner, repo.name, int(jobs[0]["id"]))
    secret_notes.responses.append(response)
    assert response.status_code == 200, f"reading the job's log answered {response.status_code}"
    secret_notes.job_log = response.text
    return response.text


@then(phrase('the job\'s log read over REST shows "{text}"'))
def then_log_shows(ci_world: CiWorld, secret_notes: SecretNotes, text: str) -> None:
    """A line the job printed, after the runner's masking."""
    log = _job_log(ci_world, secret_notes)
    assert text in log, f"{text!r} is not in the job's log ({len(log)} characters)"


@then(phrase('the job\'s log read over REST does not show "{text}"'))
def then_log_lacks(ci_world: CiWorld, secret_notes: SecretNotes, text: str) -> None:
    """A value the job masked (``::add-mask::``) or never printed."""
    log = _job_log(ci_world, secret_notes)
    assert text not in log, f"{text!r} is in the job's log"


@then(phrase("the job's log read over REST reveals no secret value"))
def then_log_hides_values(ci_world: CiWorld, secret_notes: SecretNotes) -> None:
    """No secret value sent in this scenario is in the log."""
    log = _job_log(ci_world, secret_notes)
    values = secret_notes.values
    assert values, "no secret was set in this scenario"
    leaked = [value for value in values if value in log]
    assert not leaked, f"the job's log reveals {len(leaked)} secret value(s)"
