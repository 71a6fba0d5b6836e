"""Steps of the auth area: every way Gitea accepts credentials, and what bad credentials get."""

from __future__ import annotations

from pytest_bdd import when

from conformance.client import BasicAuth, QueryTokenAuth, TokenAuth
from conformance.context import ScenarioContext
from steps.actors import UNKNOWN_TOKEN, basic_api, with_token
from steps.parsing import phrase


@when(phrase('"{who}" fetches the authenticated user with the "{scheme}" authorization scheme'))
def me_with_scheme(ctx: ScenarioContext, who: str, scheme: str) -> None:
    """``GET /user`` with ``Authorization: <scheme> <token>``."""
    identity = ctx.user(who)
    ctx.response = identity.client(TokenAuth(identity.token, scheme)).users.me()


@when(phrase('"{who}" fetches the authenticated user with basic auth and their password'))
def me_with_password(ctx: ScenarioContext, who: str) -> None:
    """``GET /user`` with basic auth ``user:password``."""
    ctx.response = basic_api(ctx, who).users.me()


@when(phrase('"{who}" fetches the authenticated user with basic auth and their token as the password'))
def me_with_basic_token(ctx: ScenarioContext, who: str) -> None:
    """``GET /user`` with basic auth ``user:token``."""
    ctx.response = basic_api(ctx, who, ctx.user(who).token).users.me()


@when(phrase('"{who}" fetches the authenticated user with their token in the "{parameter}" query parameter'))
def me_with_query_token(ctx: ScenarioContext, who: str, parameter: str) -> None:
    """``GET /user?token=...`` (deprecated)."""
    identity = ctx.user(who)
    ctx.response = identity.client(QueryTokenAuth(identity.token, parameter)).users.me()


@when(phrase('"{who}" fetches the authenticated user with basic auth and a wrong password'))
def me_with_wrong_password(ctx: ScenarioContext, who: str) -> None:
    """``GET /user`` with the right user name and a wrong password."""
    ctx.response = basic_api(ctx, who, ctx.user(who).password + "-wrong").users.me()


@when(phrase('a client fetches the authenticated user with the "{scheme}" scheme and an unknown token'))
def me_with_unknown_token(ctx: ScenarioContext, scheme: str) -> None:
    """``GET /user`` with a well-formed token that was never issued."""
    ctx.response = with_token(ctx, UNKNOWN_TOKEN, scheme).users.me()


@when(phrase("a client fetches the authenticated user with an unknown token in the query"))
def me_with_unknown_query_token(ctx: ScenarioContext) -> None:
    """``GET /user?token=<never issued>``."""
    ctx.response = ctx.admin.http.with_auth(QueryTokenAuth(UNKNOWN_TOKEN)).get("user")


@when(phrase("a client fetches the server version with an unknown token"))
def version_with_unknown_token(ctx: ScenarioContext) -> None:
    """``GET /version`` (public) with a token that was never issued."""
    ctx.response = with_token(ctx, UNKNOWN_TOKEN).misc.version()


TOKEN_AS_USER = (
    '"{who}" fetches the authenticated user with basic auth, their token as the user name and the password "{password}"'
)


@when(phrase(TOKEN_AS_USER))
def me_with_token_as_user(ctx: ScenarioContext, who: str, password: str) -> None:
    """``GET /user`` with basic auth ``token:<password>`` (Gitea reads the user name as the token)."""
    identity = ctx.user(who)
    ctx.response = identity.client(BasicAuth(identity.token, password)).users.me()
