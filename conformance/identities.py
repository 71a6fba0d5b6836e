"""Identities made for a scenario through the admin token, every name carrying the run prefix.

The admin creates a user with a random password; the user then creates, with basic auth, a token
carrying exactly the scopes the scenario asks for. Everything created is written in the cleanup
ledger before it is used, so a failing scenario leaves nothing behind.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Sequence
from typing import Any

import requests

from .api import ForgeApi
from .client import BasicAuth, HttpClient, TokenAuth, json_of
from .context import Identity, RepoRef, ScenarioContext, TokenRef
from .ledger import CleanupLedger
from .seeding import SeededData

__all__ = ["DEFAULT_SCOPES", "IdentityFactory", "SetupError", "make_run_prefix", "random_password"]

BASE36 = string.digits + string.ascii_lowercase
DEFAULT_SCOPES: tuple[str, ...] = ("all",)


class SetupError(AssertionError):
    """The target refused to create what a Given step needs; the message says which call and why."""


def make_run_prefix() -> str:
    """``ck`` and six random base-36 characters: short, valid in every name, unique per run."""
    return "ck" + "".join(secrets.choice(BASE36) for _ in range(6))


def random_password() -> str:
    """A password that satisfies common complexity rules."""
    return "Pw1!" + secrets.token_urlsafe(18)


def _expect(response: requests.Response, statuses: Sequence[int], what: str) -> Any:
    if response.status_code not in statuses:
        raise SetupError(
            f"could not {what}: {response.request.method} answered {response.status_code}: {response.text[:300]}"
        )
    return json_of(response) if response.content else None


class IdentityFactory:
    """Creates users, tokens, organizations and repositories for one scenario."""

    def __init__(
        self,
        ctx: ScenarioContext,
        admin: ForgeApi,
        ledger: CleanupLedger,
        api_url: str,
        fake: SeededData | None = None,
    ) -> None:
        self.ctx = ctx
        self.admin = admin
        self.ledger = ledger
        self.api_url = api_url
        self.recorder = admin.http.recorder
        self.fake = fake if fake is not None else SeededData(0)

    def _client(self, auth: requests.auth.AuthBase | None) -> HttpClient:
        """A client of one identity, over the admin's connections: a new pool per identity cost every user two
        new TCP connections (its basic and its token client), and their closing when collected."""
        if self.admin.http.base_url == self.api_url.rstrip("/") + "/":
            return self.admin.http.with_auth(auth)
        return HttpClient(self.api_url, auth, recorder=self.recorder, timeout=self.admin.http.timeout)

    def user(self, short: str, scopes: Sequence[str] = DEFAULT_SCOPES) -> Identity:
        """Create the user ``short`` with a token of ``scopes``, or return it if the scenario has it."""
        if short in self.ctx.users:
            return self.ctx.users[short]
        username = self.ctx.real_name(short)
        password = random_password()
        self.recorder.add_secret(password)
        email = self.fake.email(username)
        self.ledger.record_user(username)
        _expect(self.admin.users.admin_create(username, email, password), (201,), f'create the user "{short}"')
        basic = self._client(BasicAuth(username, password))
        token = self.create_token(short, username, basic, f"{self.ctx.run_prefix}-main", scopes)
        http = self._client(TokenAuth(token.value))
        identity = Identity(
            short=short,
            username=username,
            password=password,
            email=email,
            token=token.value,
            scopes=tuple(scopes),
            http=http,
            api=ForgeApi(http, self.admin.site_url),
        )
        self.ctx.users[short] = identity
        return identity

    def create_token(
        self, owner_short: str, username: str, basic: HttpClient, name: str, scopes: Sequence[str]
    ) -> TokenRef:
        """Create a token with basic auth and keep it in the context under its name."""
        api = ForgeApi(basic, self.admin.site_url)
        body = _expect(api.tokens.create(username, name, list(scopes)), (201,), f'create a token for "{owner_short}"')
        if not isinstance(body, dict) or not isinstance(body.get("sha1"), str) or not body["sha1"]:
            raise SetupError(f'the token created for "{owner_short}" has no sha1 value: {body!r}')
        value: str = body["sha1"]
        self.recorder.add_secret(value)
        token = TokenRef(owner=owner_short, id=int(body.get("id", 0)), name=name, value=value, scopes=tuple(scopes))
        self.ctx.tokens[name] = token
        return token

    def token_for(self, short: str, token_name: str, scopes: Sequence[str]) -> TokenRef:
        """A further token of an existing scenario user."""
        identity = self.ctx.user(short)
        basic = self._client(BasicAuth(identity.username, identity.password))
        return self.create_token(short, identity.username, basic, token_name, scopes)

    def org(self, short: str, owner_short: str) -> str:
        """Create the organization ``short`` owned by the scenario user ``owner_short``."""
        if short in self.ctx.orgs:
            return self.ctx.orgs[short]
        owner = self.user(owner_short)
        name = self.ctx.real_name(short)
        self.ledger.record_org(name)
        _expect(owner.api.orgs.create(name), (201,), f'create the organization "{short}"')
        self.ctx.orgs[short] = name
        self.ctx.org_owners[short] = owner_short
        return name

    def repo(self, short: str, *, auto_init: bool = True, private: bool = False) -> RepoRef:
        """Create ``owner/name`` (short names); an unknown owner becomes a new user of the scenario."""
        if short in self.ctx.repos:
            return self.ctx.repos[short]
        owner_short, sep, name_short = short.partition("/")
        if not sep or not owner_short or not name_short or "/" in name_short:
            raise SetupError(f'a repository is named "owner/name", got "{short}"')
        name = self.ctx.real_name(name_short)
        if owner_short in self.ctx.orgs:
            org = self.ctx.orgs[owner_short]
            creator = self.admin
            self.ledger.record_repo(org, name)
            description = self.fake.sentence()
            response = creator.repos.create(
                name, org=org, auto_init=auto_init, private=private, description=description
            )
            owner = org
        else:
            identity = self.user(owner_short)
            owner = identity.username
            self.ledger.record_repo(owner, name)
            description = self.fake.sentence()
            response = identity.api.repos.create(name, auto_init=auto_init, private=private, description=description)
        body = _expect(response, (201,), f'create the repository "{short}"')
        default_branch = body.get("default_branch") if isinstance(body, dict) else None
        ref = RepoRef(short=short, owner=owner, name=name, default_branch=str(default_branch or "main"))
        self.ctx.repos[short] = ref
        return ref
