"""Steps of a site administrator editing users (``PATCH /admin/users/{username}``) and what the edit changes.

The body of an edit names the sign-in as Gitea's clients send it (``source_id`` 0, ``login_name`` the user's
name) unless the scenario writes them; a new password is drawn, kept secret in every report, and remembered
for the Then steps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.client import BasicAuth, TokenAuth
from conformance.context import ScenarioContext
from conformance.identities import random_password
from conformance.ledger import CleanupLedger
from steps.actors import ADMIN, acting_api
from steps.common import json_document
from steps.parsing import phrase


@dataclass
class PasswordNotes:
    """The passwords an administrator gave users in this scenario, by the user's short name."""

    given: dict[str, str] = field(default_factory=dict)


@pytest.fixture
def password_notes() -> PasswordNotes:
    return PasswordNotes()


def _edit(ctx: ScenarioContext, who: str, short: str, body: dict[str, Any]) -> None:
    user = ctx.user(short)
    body.setdefault("source_id", 0)
    body.setdefault("login_name", user.username)
    ctx.response = acting_api(ctx, who).users.admin_edit(user.username, body)


@given(phrase('the admin edits the user "{short}" with'))
@when(phrase('the admin edits the user "{short}" with'))
def admin_edits_user(ctx: ScenarioContext, short: str, docstring: str) -> None:
    """``PATCH /admin/users/{name}`` with the step's JSON (and the sign-in fields Gitea requires)."""
    _edit(ctx, ADMIN, short, json_document(docstring))


@when(phrase('"{who}" tries to edit the user "{short}" with'))
def user_edits_user(ctx: ScenarioContext, who: str, short: str, docstring: str) -> None:
    """The same edit by someone who is not a site administrator."""
    _edit(ctx, who, short, json_document(docstring))


@when(phrase('the admin edits the user "{short}" leaving out the field "{name}"'))
def admin_edits_user_without(ctx: ScenarioContext, short: str, name: str) -> None:
    """An edit whose body lacks one field Gitea requires."""
    user = ctx.user(short)
    body: dict[str, Any] = {"source_id": 0, "login_name": user.username, "location": "Oslo"}
    del body[name]
    ctx.response = ctx.admin.users.admin_edit(user.username, body)


@when(phrase('the admin edits the user "{short}" with the e-mail address of "{other}"'))
def admin_edits_email(ctx: ScenarioContext, short: str, other: str) -> None:
    """An edit giving the user another user's e-mail address."""
    _edit(ctx, ADMIN, short, {"email": ctx.user(other).email})


@when(phrase('the admin gives "{short}" a new password'))
def admin_sets_password(ctx: ScenarioContext, password_notes: PasswordNotes, short: str) -> None:
    """An edit with a drawn password (hidden in every report)."""
    password = random_password()
    ctx.admin.http.recorder.add_secret(password)
    password_notes.given[short] = password
    _edit(ctx, ADMIN, short, {"password": password, "must_change_password": False})


@when(phrase('the admin gives "{short}" the password "{password}"'))
def admin_sets_short_password(ctx: ScenarioContext, short: str, password: str) -> None:
    """An edit with a password the scenario writes (only for refusals: a refused password is no secret)."""
    _edit(ctx, ADMIN, short, {"password": password})


def _status_of_sign_in(ctx: ScenarioContext, short: str, password: str) -> int:
    user = ctx.user(short)
    return ctx.admin.http.with_auth(BasicAuth(user.username, password)).get("user").status_code


@then(phrase('"{short}" signs in with the new password'))
def signs_in_with_new_password(ctx: ScenarioContext, password_notes: PasswordNotes, short: str) -> None:
    status = _status_of_sign_in(ctx, short, password_notes.given[short])
    assert status == 200, f'"{short}" could not sign in with the password the admin gave: {status}'


@then(phrase('the old password of "{short}" is refused'))
def old_password_refused(ctx: ScenarioContext, short: str) -> None:
    status = _status_of_sign_in(ctx, short, ctx.user(short).password)
    assert status == 401, f'"{short}" still signs in with the old password: {status}'


@then(phrase('"{short}" still signs in with their password'))
def password_unchanged(ctx: ScenarioContext, short: str) -> None:
    status = _status_of_sign_in(ctx, short, ctx.user(short).password)
    assert status == 200, f'"{short}" no longer signs in with their password: {status}'


@then(phrase('the token of "{short}" is refused'))
def token_refused(ctx: ScenarioContext, short: str) -> None:
    user = ctx.user(short)
    status = ctx.admin.http.with_auth(TokenAuth(user.token)).get("user").status_code
    assert status == 401, f'the token of "{short}" still works: {status}'


@then(phrase('the user "{short}" shows the location "{location}" and the full name "{full_name}"'))
def user_shows_profile(ctx: ScenarioContext, short: str, location: str, full_name: str) -> None:
    body = ctx.admin.users.get(ctx.user(short).username).json()
    assert (body["location"], body["full_name"]) == (location, full_name), body


@given(phrase('the admin creates the repository "{name}" for "{short}"'))
@when(phrase('the admin creates the repository "{name}" for "{short}"'))
def admin_creates_repo_for(ctx: ScenarioContext, ledger: CleanupLedger, name: str, short: str) -> None:
    """``POST /admin/users/{name}/repos``."""
    owner = ctx.user(short).username
    real = ctx.real_name(name)
    ledger.record_repo(owner, real)
    ctx.response = ctx.admin.users.admin_create_repo(owner, {"name": real})


@when(phrase('the admin creates the organization "{name}" for "{short}"'))
def admin_creates_org_for(ctx: ScenarioContext, ledger: CleanupLedger, name: str, short: str) -> None:
    """``POST /admin/users/{name}/orgs``."""
    real = ctx.real_name(name)
    ledger.record_org(real)
    ctx.response = ctx.admin.users.admin_create_org(ctx.user(short).username, {"username": real})
    if ctx.response.status_code == 201:
        ctx.orgs[name] = real


@when(phrase('the admin renames the user "{short}" to "{new}"'))
def admin_renames_user(ctx: ScenarioContext, ledger: CleanupLedger, short: str, new: str) -> None:
    """``POST /admin/users/{name}/rename``; the new name is the scenario's ``new`` made real."""
    real = ctx.real_name(new)
    ledger.record_user(real)
    ctx.response = ctx.admin.users.admin_rename(ctx.user(short).username, real)


@then(phrase('"{short}" owns the repository "{name}"'))
def owns_repository(ctx: ScenarioContext, short: str, name: str) -> None:
    user = ctx.user(short)
    answer = user.api.repos.get(user.username, ctx.real_name(name))
    assert answer.status_code == 200, f'"{short}" cannot read the repository: {answer.status_code}'
    assert answer.json()["owner"]["login"] == user.username, answer.json()["owner"]


@then(phrase('"{short}" lists the organization "{name}" among theirs'))
def lists_organization(ctx: ScenarioContext, short: str, name: str) -> None:
    names = [org["username"] for org in ctx.user(short).api.orgs.my_orgs().json()]
    assert ctx.orgs[name] in names, f"{ctx.orgs[name]} not in {names}"


@then(phrase('the user "{new}" is the user "{short}" renamed'))
def renamed_user(ctx: ScenarioContext, new: str, short: str) -> None:
    old = ctx.user(short)
    answer = ctx.admin.users.get(ctx.real_name(new))
    assert answer.status_code == 200, f"the new name answers {answer.status_code}"
    assert answer.json()["login"] == ctx.real_name(new), answer.json()
    mine = ctx.admin.http.with_auth(TokenAuth(old.token)).get("user").json()
    assert mine["id"] == answer.json()["id"], "the token of the renamed user belongs to another account"


@then(phrase('the repository "{name}" of "{short}" is now under the name "{new}"'))
def repository_moved(ctx: ScenarioContext, name: str, short: str, new: str) -> None:
    answer = ctx.admin.repos.get(ctx.real_name(new), ctx.real_name(name))
    assert answer.status_code == 200, f"the moved repository answers {answer.status_code}"
    assert answer.json()["owner"]["login"] == ctx.real_name(new)


@when(phrase('the admin searches the e-mail addresses for the name of "{short}"'))
def admin_searches_emails_by_name(ctx: ScenarioContext, short: str) -> None:
    ctx.response = ctx.admin.users.admin_search_emails(ctx.user(short).username)


@when(phrase('the admin searches the e-mail addresses for "{keyword}"'))
def admin_searches_emails(ctx: ScenarioContext, keyword: str) -> None:
    ctx.response = ctx.admin.users.admin_search_emails(keyword)


@then(phrase('the e-mail address of "{short}" is listed as their primary one'))
def email_listed(ctx: ScenarioContext, short: str) -> None:
    assert ctx.response is not None and ctx.response.status_code == 200, "the search failed"
    user = ctx.user(short)
    found = [item for item in ctx.response.json() if item["username"] == user.username]
    assert found, f"no address of {user.username} in {ctx.response.json()}"
    assert any(item["email"].lower() == user.email.lower() and item["primary"] for item in found), found
