"""Steps of the tokens area: tokens created with basic auth, their scopes, their use and their deletion."""

from __future__ import annotations

from pytest_bdd import given, then, when

from conformance.api import ForgeApi
from conformance.client import BasicAuth, json_of
from conformance.context import ScenarioContext, TokenRef
from conformance.identities import IdentityFactory
from conformance.target import Target
from steps.actors import basic_api, named_token, token_api
from steps.common import expect_status, parse_scopes, send_with
from steps.parsing import phrase


def _create(ctx: ScenarioContext, who: str, name: str, scopes: list[str] | None) -> None:
    identity = ctx.user(who)
    ctx.response = basic_api(ctx, who).tokens.create(identity.username, name, scopes)
    if ctx.response.status_code == 201:
        body = json_of(ctx.response)
        value = str(body.get("sha1", ""))
        ctx.admin.http.recorder.add_secret(value)
        ctx.tokens[name] = TokenRef(who, int(body.get("id", 0)), name, value, tuple(scopes or ()))


@given(phrase('"{who}" has a token "{name}" scoped "{scopes}"'))
def has_token(identities: IdentityFactory, who: str, name: str, scopes: str) -> None:
    """A further token of a scenario user."""
    identities.token_for(who, name, parse_scopes(scopes))


@given(phrase('"{who}" has deleted the token "{name}"'))
def has_deleted_token(ctx: ScenarioContext, who: str, name: str) -> None:
    """The token is deleted by its owner (basic auth)."""
    response = basic_api(ctx, who).tokens.delete(ctx.user(who).username, named_token(ctx, name).id)
    expect_status(response, 204, f'delete the token "{name}"')


@when(phrase('"{who}" creates a token "{name}" scoped "{scopes}"'))
def create_token(ctx: ScenarioContext, who: str, name: str, scopes: str) -> None:
    """``POST /users/{name}/tokens`` with basic auth and the listed scopes."""
    _create(ctx, who, name, parse_scopes(scopes))


@when(phrase('"{who}" creates a token "{name}" without scopes'))
def create_token_without_scopes(ctx: ScenarioContext, who: str, name: str) -> None:
    """``POST /users/{name}/tokens`` with no scopes field."""
    _create(ctx, who, name, None)


@when(phrase('"{who}" creates a token for "{other}" named "{name}" scoped "{scopes}"'))
def create_token_for_other(ctx: ScenarioContext, who: str, other: str, name: str, scopes: str) -> None:
    """``POST /users/{other}/tokens`` with the basic auth of someone else."""
    ctx.response = basic_api(ctx, who).tokens.create(ctx.user(other).username, name, parse_scopes(scopes))


@when(phrase('"{who}" deletes the token "{name}"'))
def delete_token(ctx: ScenarioContext, who: str, name: str) -> None:
    """``DELETE /users/{name}/tokens/{id}`` with basic auth."""
    ctx.response = basic_api(ctx, who).tokens.delete(ctx.user(who).username, named_token(ctx, name).id)


@when(phrase('"{who}" lists their tokens'))
def list_tokens(ctx: ScenarioContext, who: str) -> None:
    """``GET /users/{name}/tokens`` with basic auth."""
    ctx.response = basic_api(ctx, who).tokens.list(ctx.user(who).username)


@when(phrase('the token "{name}" is used to fetch the authenticated user'))
def token_fetches_me(ctx: ScenarioContext, name: str) -> None:
    """``GET /user`` with the named token."""
    ctx.response = token_api(ctx, name).users.me()


@when(phrase('the token "{name}" is used to fetch the repository "{short}"'))
def token_fetches_repo(ctx: ScenarioContext, name: str, short: str) -> None:
    """``GET /repos/{owner}/{repo}`` with the named token."""
    repo = ctx.repo(short)
    ctx.response = token_api(ctx, name).repos.get(repo.owner, repo.name)


@when(phrase('the token "{name}" is used to fetch a repository that does not exist'))
def token_fetches_missing_repo(ctx: ScenarioContext, name: str) -> None:
    """``GET /repos/{owner}/{repo}`` of names nobody created."""
    ctx.response = token_api(ctx, name).repos.get(ctx.real_name("nobody"), ctx.real_name("nothing"))


@when(phrase('the token "{name}" is used to create the file "{path}" in "{short}"'))
def token_creates_file(ctx: ScenarioContext, name: str, path: str, short: str) -> None:
    """``POST .../contents/{path}`` with the named token: a write in the repository category only."""
    repo = ctx.repo(short)
    ctx.response = token_api(ctx, name).contents.create(repo.owner, repo.name, path, "written with a token")


@then(phrase('the response holds the secret of the token "{name}"'))
def response_holds_secret(ctx: ScenarioContext, name: str) -> None:
    """sha1 is the token (40 hex characters) and token_last_eight its last eight characters."""
    body = json_of(ctx.last_response())
    sha1 = body.get("sha1", "")
    assert isinstance(sha1, str) and len(sha1) == 40 and all(c in "0123456789abcdef" for c in sha1), (
        "sha1 is not a 40-character lowercase hex token"
    )
    assert body.get("token_last_eight") == sha1[-8:], "token_last_eight is not the last eight characters of sha1"
    assert body.get("name") == name, f"the token is named {body.get('name')!r}, expected {name!r}"


@then(phrase('the listed tokens include "{name}" without its secret'))
def listed_without_secret(ctx: ScenarioContext, name: str) -> None:
    """The list has the token by name, with an empty sha1 and the right last eight characters."""
    body = json_of(ctx.last_response())
    assert isinstance(body, list), f"expected an array of tokens, got {type(body).__name__}"
    matches = [item for item in body if isinstance(item, dict) and item.get("name") == name]
    assert len(matches) == 1, f'expected one token named "{name}", found {len(matches)}'
    assert matches[0].get("sha1", "") == "", "a listed token must not reveal its secret"
    assert matches[0].get("token_last_eight") == named_token(ctx, name).value[-8:], "token_last_eight does not match"


def _token_as_password_api(ctx: ScenarioContext, who: str, name: str) -> ForgeApi:
    """``who``'s basic auth with the token ``name`` in place of the password."""
    return basic_api(ctx, who, named_token(ctx, name).value)


@when(phrase('"{who}" creates a token "{name}" scoped "{scopes}" with the token "{used}" as the password'))
def create_token_with_token_password(ctx: ScenarioContext, who: str, name: str, scopes: str, used: str) -> None:
    """``POST /users/{name}/tokens`` with basic auth whose password is a token."""
    ctx.response = _token_as_password_api(ctx, who, used).tokens.create(
        ctx.user(who).username, name, parse_scopes(scopes)
    )


@when(phrase('"{who}" lists their tokens with the token "{used}" as the password'))
def list_tokens_with_token_password(ctx: ScenarioContext, who: str, used: str) -> None:
    """``GET /users/{name}/tokens`` with basic auth whose password is a token."""
    ctx.response = _token_as_password_api(ctx, who, used).tokens.list(ctx.user(who).username)


@when(phrase('"{who}" deletes the token "{name}" with the token "{used}" as the password'))
def delete_token_with_token_password(ctx: ScenarioContext, who: str, name: str, used: str) -> None:
    """``DELETE /users/{name}/tokens/{id}`` with basic auth whose password is a token."""
    api = _token_as_password_api(ctx, who, used)
    ctx.response = api.tokens.delete(ctx.user(who).username, named_token(ctx, name).id)


@when(phrase("the admin creates a token for itself with its own token as the basic-auth password"))
def admin_mints_with_token(ctx: ScenarioContext, target: Target) -> None:
    """The harness's admin token (whatever its scopes) as the password of the admin's basic auth."""
    login = str(json_of(ctx.admin.http.get("user")).get("login", ""))
    http = ctx.admin.http.with_auth(BasicAuth(login, target.admin_token))
    ctx.response = ForgeApi(http, ctx.admin.site_url).tokens.create(login, ctx.real_name("minted"), ["all"])


@when(phrase('the token "{name}" sends {method:w} "{path}"'))
def token_sends(ctx: ScenarioContext, name: str, method: str, path: str) -> None:
    """A request authenticated with the scenario's token ``name`` (in the Authorization header)."""
    send_with(ctx, token_api(ctx, name).http, method, path)
