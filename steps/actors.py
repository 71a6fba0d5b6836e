"""Who acts: the one place that turns the party a step names into the client its request goes out with.

Features name the acting party the same way in every area: a scenario user by short name
(``"alice"``), ``"the admin"`` (the harness's site administrator) or ``"an anonymous client"`` (no
credentials at all). Set-up steps act as the owner of what they touch (:func:`repo_owner`,
:func:`org_owner`). Credentials other than an account's main token (a named token of the scenario, basic
auth, a token sent as the password, a job's token, a token nobody issued, a fresh read-only token) are
made here too, so no area builds a client of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from requests.auth import AuthBase

from conformance.api import ApiArea, ForgeApi
from conformance.client import BasicAuth, HttpClient, TokenAuth
from conformance.context import Identity, RepoRef, ScenarioContext, TokenRef
from conformance.gitclient import GitCredentials
from conformance.identities import IdentityFactory

__all__ = [
    "ADMIN",
    "ANONYMOUS",
    "UNKNOWN_TOKEN",
    "acting",
    "acting_api",
    "acting_http",
    "basic_api",
    "git_credentials",
    "named_token",
    "org_manager",
    "org_owner",
    "repo_owner",
    "scoped_token_api",
    "token_api",
    "with_token",
]

ADMIN = "the admin"
ANONYMOUS = "an anonymous client"
UNKNOWN_TOKEN = "0" * 40
"""A well-formed token no forge ever issued."""

AreaT = TypeVar("AreaT", bound=ApiArea)


def acting_api(ctx: ScenarioContext, who: str) -> ForgeApi:
    """``"the admin"``, ``"an anonymous client"`` or a scenario user's short name, as a facade."""
    if who == ADMIN:
        return ctx.admin
    if who == ANONYMOUS:
        return ctx.anonymous()
    return ctx.user(who).api


def acting(ctx: ScenarioContext, who: str, area: type[AreaT]) -> AreaT:
    """One area's operations as ``who`` (``acting(ctx, "bob", IssuesApi).create_issue(...)``)."""
    return acting_api(ctx, who).area(area)


def acting_http(ctx: ScenarioContext, who: str) -> HttpClient:
    """The HTTP client of ``who``, for requests a step writes out itself."""
    return acting_api(ctx, who).http


def org_owner(ctx: ScenarioContext, short: str) -> Identity:
    """The scenario user who created (and so owns) the organization ``short``."""
    owner = ctx.org_owners.get(short)
    assert owner is not None, f'no owner known for "{short}": add `Given an organization "{short}" owned by ...`'
    return ctx.user(owner)


def org_manager(ctx: ScenarioContext, short: str) -> ForgeApi:
    """Who acts for an organization: its owner when the scenario knows it, else the admin."""
    return org_owner(ctx, short).api if short in ctx.org_owners else ctx.admin


def repo_owner(ctx: ScenarioContext, repo: str | RepoRef) -> ForgeApi:
    """Who acts as a repository's owner: its user; for an organization's repository the organization's
    owner when the scenario knows it, else the admin (who created the repository)."""
    short = repo.short if isinstance(repo, RepoRef) else repo
    owner = short.split("/", 1)[0]
    if owner in ctx.users:
        return ctx.users[owner].api
    return org_manager(ctx, owner)


def named_token(ctx: ScenarioContext, name: str) -> TokenRef:
    """A token the scenario made by name (``Given "dev" has a token "t" scoped "..."``)."""
    token = ctx.tokens.get(name)
    assert token is not None, f'no token "{name}" in this scenario: add `Given "..." has a token "{name}" scoped "..."`'
    return token


def token_api(ctx: ScenarioContext, name: str, auth: AuthBase | None = None) -> ForgeApi:
    """Its owner's facade presenting the named token: in the header, or as ``auth`` says (basic, query)."""
    token = named_token(ctx, name)
    return ctx.user(token.owner).client(auth or TokenAuth(token.value))


def basic_api(ctx: ScenarioContext, who: str, password: str | None = None) -> ForgeApi:
    """The user's basic auth with their password, or with another secret (a token) in its place."""
    identity = ctx.user(who)
    return identity.client(BasicAuth(identity.username, identity.password if password is None else password))


def with_token(ctx: ScenarioContext, token: str, scheme: str = "token") -> ForgeApi:
    """A facade presenting any token value (a job's token, one nobody issued), masked in transcripts."""
    if token != UNKNOWN_TOKEN:
        ctx.admin.http.recorder.add_secret(token)
    return ForgeApi(ctx.admin.http.with_auth(TokenAuth(token, scheme)), ctx.admin.site_url)


def scoped_token_api(ctx: ScenarioContext, identities: IdentityFactory, who: str, scopes: Sequence[str]) -> ForgeApi:
    """The user with a fresh token of exactly ``scopes`` (``a read-only token`` is ``read:repository``)."""
    token = identities.token_for(who, ctx.real_name(f"scoped-{len(ctx.tokens)}"), list(scopes))
    return ctx.user(who).client(TokenAuth(token.value))


def git_credentials(ctx: ScenarioContext, who: str) -> GitCredentials:
    """What ``who`` gives git over HTTPS: their user name and account token."""
    identity = ctx.user(who)
    return GitCredentials(identity.username, identity.token)
