"""Steps of the users area: the admin creates users; anyone reads ``/user`` and ``/users/{name}``."""

from __future__ import annotations

from typing import Any

from pytest_bdd import then, when

from conformance.context import ScenarioContext
from conformance.identities import random_password
from conformance.ledger import CleanupLedger
from conformance.seeding import SeededData
from steps.actors import ADMIN, ANONYMOUS, acting_api
from steps.parsing import phrase


def _user_body(ctx: ScenarioContext, fake: SeededData, short: str) -> dict[str, Any]:
    """A complete ``CreateUserOption``: the short name made real, a drawn full name and e-mail address."""
    username = ctx.real_name(short)
    password = random_password()
    ctx.admin.http.recorder.add_secret(password)
    return {
        "username": username,
        "full_name": fake.full_name(),
        "email": fake.email(username),
        "password": password,
        "must_change_password": False,
    }


def _create_user(ctx: ScenarioContext, ledger: CleanupLedger, who: str, body: dict[str, Any]) -> None:
    api = acting_api(ctx, who)
    username = body.get("username")
    if isinstance(username, str) and username:
        ledger.record_user(username)
    ctx.response = api.users.admin_create_raw(body)


@when(phrase('the admin creates the user "{short}"'))
def admin_creates_user(ctx: ScenarioContext, fake: SeededData, ledger: CleanupLedger, short: str) -> None:
    """``POST /admin/users`` with a complete body; the short name maps to the real one."""
    ctx.names.setdefault(short, ctx.real_name(short))
    _create_user(ctx, ledger, ADMIN, _user_body(ctx, fake, short))


@when(phrase('the admin creates the user "{short}" without the field "{field}"'))
def admin_creates_user_without(
    ctx: ScenarioContext, fake: SeededData, ledger: CleanupLedger, short: str, field: str
) -> None:
    """``POST /admin/users`` with one required field left out."""
    body = _user_body(ctx, fake, short)
    assert field in body, f'"{field}" is not a field of the user creation body'
    del body[field]
    _create_user(ctx, ledger, ADMIN, body)


@when(phrase('the admin creates the user "{short}" with the email "{email}"'))
def admin_creates_user_with_email(
    ctx: ScenarioContext, fake: SeededData, ledger: CleanupLedger, short: str, email: str
) -> None:
    """``POST /admin/users`` with a chosen email address."""
    body = _user_body(ctx, fake, short)
    body["email"] = email
    _create_user(ctx, ledger, ADMIN, body)


@when(phrase('"{who}" tries to create the user "{short}"'))
def user_creates_user(ctx: ScenarioContext, fake: SeededData, ledger: CleanupLedger, who: str, short: str) -> None:
    """``POST /admin/users`` by someone who is not a site administrator."""
    _create_user(ctx, ledger, who, _user_body(ctx, fake, short))


@when(phrase('"{who}" fetches the authenticated user'))
def fetch_me(ctx: ScenarioContext, who: str) -> None:
    """``GET /user`` with the user's token."""
    ctx.response = acting_api(ctx, who).users.me()


@when(phrase("an anonymous client fetches the authenticated user"))
def fetch_me_anonymous(ctx: ScenarioContext) -> None:
    """``GET /user`` without credentials."""
    ctx.response = acting_api(ctx, ANONYMOUS).users.me()


@when(phrase('"{who}" fetches the user "{short}"'))
def fetch_user(ctx: ScenarioContext, who: str, short: str) -> None:
    """``GET /users/{name}``; a short name nobody created maps to a name that does not exist."""
    name = ctx.owner_name(short) if short in ctx.users or short in ctx.names else ctx.real_name(short)
    ctx.response = acting_api(ctx, who).users.get(name)


@then(phrase('the user "{short}" exists'))
def user_exists(ctx: ScenarioContext, short: str) -> None:
    """The admin can read the user."""
    response = ctx.admin.users.get(ctx.real_name(short))
    assert response.status_code == 200, f'user "{short}" is not readable: {response.status_code} {response.text[:300]}'


@then(phrase('the user "{short}" does not exist'))
def user_absent(ctx: ScenarioContext, short: str) -> None:
    """The admin reads 404 for the user."""
    response = ctx.admin.users.get(ctx.real_name(short))
    assert response.status_code == 404, f'user "{short}" should not exist, got {response.status_code}'
