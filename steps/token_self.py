"""Steps of a token looking at itself and deleting itself through ``/token`` (Gitea 1.27, spec 5.4).

The token is presented the way the scenario says: in the Authorization header with the ``token`` or
``Bearer`` scheme, as the password of basic auth, or in the deprecated ``?token=`` parameter.
"""

from __future__ import annotations

from pytest_bdd import then, when
from requests.auth import AuthBase

from conformance.api import ForgeApi
from conformance.api.token_self import TokenSelfApi
from conformance.client import BasicAuth, QueryTokenAuth, TokenAuth, json_of
from conformance.context import ScenarioContext
from steps.actors import ANONYMOUS, UNKNOWN_TOKEN, acting, named_token, token_api, with_token
from steps.common import response_json
from steps.parsing import phrase

__all__: list[str] = []


def _client(ctx: ScenarioContext, name: str, how: str) -> ForgeApi:
    """The owner's facade with the token presented as ``how`` says."""
    token = named_token(ctx, name)
    auth: AuthBase
    if how in {"token", "Bearer"}:
        auth = TokenAuth(token.value, scheme=how)
    elif how == "basic auth":
        auth = BasicAuth(ctx.user(token.owner).username, token.value)
    elif how == "the query parameter":
        auth = QueryTokenAuth(token.value)
    else:
        raise AssertionError(f"unknown way to present a token: {how!r}")
    return token_api(ctx, name, auth)


def _presented(ctx: ScenarioContext, name: str, how: str) -> TokenSelfApi:
    """The ``/token`` operations with the token presented as ``how`` says."""
    return _client(ctx, name, how).area(TokenSelfApi)


@when(phrase('the token "{name}" asks for itself'))
def token_asks_for_itself(ctx: ScenarioContext, name: str) -> None:
    """``GET /token`` with ``Authorization: token <t>``."""
    ctx.response = _presented(ctx, name, "token").current()


@when(phrase('the token "{name}" asks for itself with the "{scheme}" scheme'))
def token_asks_with_scheme(ctx: ScenarioContext, name: str, scheme: str) -> None:
    """``GET /token`` with ``Authorization: <scheme> <t>``."""
    ctx.response = _presented(ctx, name, scheme).current()


@when(phrase('the token "{name}" deletes itself'))
def token_deletes_itself(ctx: ScenarioContext, name: str) -> None:
    """``DELETE /token`` with ``Authorization: token <t>``."""
    ctx.response = _presented(ctx, name, "token").delete_current()


@when(phrase('the token "{name}" given as {how} asks for itself'))
def token_given_otherwise_asks(ctx: ScenarioContext, name: str, how: str) -> None:
    """``GET /token`` with the token as the basic-auth password or the ``?token=`` parameter."""
    ctx.response = _presented(ctx, name, how).current()


@when(phrase('the token "{name}" given as {how} tries to delete itself'))
def token_given_otherwise_deletes(ctx: ScenarioContext, name: str, how: str) -> None:
    """``DELETE /token`` with the token as the basic-auth password or the ``?token=`` parameter."""
    ctx.response = _presented(ctx, name, how).delete_current()


@when(phrase("an anonymous client asks for the current token"))
def anonymous_asks(ctx: ScenarioContext) -> None:
    """``GET /token`` without credentials."""
    ctx.response = acting(ctx, ANONYMOUS, TokenSelfApi).current()


@when(phrase("a client asks for the current token with an unknown token"))
def unknown_token_asks(ctx: ScenarioContext) -> None:
    """``GET /token`` with a well-formed token the forge never issued."""
    ctx.response = with_token(ctx, UNKNOWN_TOKEN).area(TokenSelfApi).current()


@then(phrase('the answer describes the token "{name}" of "{who}"'))
def answer_describes_token(ctx: ScenarioContext, name: str, who: str) -> None:
    """id, name and scopes are the token's; user is its owner (id and login as the forge knows them)."""
    body, token = response_json(ctx), named_token(ctx, name)
    assert body.get("id") == token.id, f"id is {body.get('id')!r}, the token's id is {token.id}"
    assert body.get("name") == token.name, f"name is {body.get('name')!r}, expected {token.name!r}"
    assert sorted(body.get("scopes") or []) == sorted(token.scopes), (
        f"scopes are {body.get('scopes')!r}, the token was made with {list(token.scopes)!r}"
    )
    owner = ctx.admin.users.get(ctx.user(who).username)
    assert owner.status_code == 200, f"reading {who} answered {owner.status_code}"
    expected = {"id": json_of(owner)["id"], "login": ctx.user(who).username}
    user = body.get("user") or {}
    assert {"id": user.get("id"), "login": user.get("login")} == expected, f"user is {user!r}, expected {expected!r}"
    assert token.value not in ctx.last_response().text, "the answer reveals the token's secret"


@then(phrase('the token "{name}" is refused with 401 afterwards'))
def token_refused_afterwards(ctx: ScenarioContext, name: str) -> None:
    """Both ``/token`` and an ordinary route refuse the deleted token as unauthenticated."""
    client = _client(ctx, name, "token")
    for response in (client.area(TokenSelfApi).current(), client.users.me()):
        assert response.status_code == 401, f"the deleted token got {response.status_code}: {response.text[:200]}"


@then(phrase('the token "{name}" still works'))
def token_still_works(ctx: ScenarioContext, name: str) -> None:
    """``GET /token`` with the token in the header still answers it."""
    response = _presented(ctx, name, "token").current()
    assert response.status_code == 200, f"the token answered {response.status_code}: {response.text[:200]}"
    assert json_of(response).get("id") == named_token(ctx, name).id
