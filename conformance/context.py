"""The scenario's state (the ``ctx`` fixture): the last response, named identities, orgs, repositories, tokens.

Gherkin uses short names ("alice", "alice/demo"); the context maps them to the real, prefixed names
the target sees, so runs and scenarios never collide on a shared server.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import requests

from .api import ForgeApi
from .client import HttpClient

__all__ = ["Identity", "RepoRef", "ScenarioContext", "TokenRef"]


@dataclass
class Identity:
    """A user the scenario created: credentials, and a facade authenticated with its token."""

    short: str
    username: str
    password: str
    email: str
    token: str
    scopes: tuple[str, ...]
    http: HttpClient
    api: ForgeApi

    def client(self, auth: requests.auth.AuthBase | None) -> ForgeApi:
        """A facade for this user with other credentials (basic auth, another token, none)."""
        return ForgeApi(self.http.with_auth(auth), self.api.site_url)


@dataclass(frozen=True)
class RepoRef:
    """A repository by its short Gherkin name and its real owner and name."""

    short: str
    owner: str
    name: str
    default_branch: str

    @property
    def full_name(self) -> str:
        """``owner/name`` as the target knows it."""
        return f"{self.owner}/{self.name}"


@dataclass(frozen=True)
class TokenRef:
    """An access token a scenario created: its owner's short name, id, name and secret value."""

    owner: str
    id: int
    name: str
    value: str
    scopes: tuple[str, ...]


@dataclass
class ScenarioContext:
    """The identities and the last response every step of one scenario shares; created fresh for each.

    State only some areas share lives in typed per-area dataclasses the step libraries provide as
    fixtures (``steps/<area>.py``), never here.

    ``names`` maps short names of accounts a When step created (without credentials) to real names;
    ``org_owners`` an organization's short name to the short name of the user who created it.
    """

    run_prefix: str
    sequence: int
    admin: ForgeApi
    response: requests.Response | None = None
    users: dict[str, Identity] = field(default_factory=dict)
    orgs: dict[str, str] = field(default_factory=dict)
    org_owners: dict[str, str] = field(default_factory=dict)
    repos: dict[str, RepoRef] = field(default_factory=dict)
    tokens: dict[str, TokenRef] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def real_name(self, short: str) -> str:
        """The name the target sees for a Gherkin short name: unique per run and per scenario."""
        return f"{self.run_prefix}-{self.sequence}-{short}".lower()

    def anonymous(self) -> ForgeApi:
        """A facade without credentials, recording into the scenario's transcript."""
        return ForgeApi(self.admin.http.with_auth(None), self.admin.site_url)

    def last_response(self) -> requests.Response:
        """The response of the scenario's last action; an error when no action ran yet."""
        if self.response is None:
            raise AssertionError("no request was made yet in this scenario: a When step must come first")
        return self.response

    def user(self, short: str) -> Identity:
        """A user created earlier in the scenario by its short name."""
        try:
            return self.users[short]
        except KeyError:
            raise AssertionError(f'no user "{short}" in this scenario: add `Given a user "{short}"`') from None

    def repo(self, short: str) -> RepoRef:
        """A repository created earlier in the scenario, by ``owner/name`` short name."""
        try:
            return self.repos[short]
        except KeyError:
            raise AssertionError(
                f'no repository "{short}" in this scenario: add `Given a repository "{short}"`'
            ) from None

    def org(self, short: str) -> str:
        """The real name of an organization created earlier in the scenario."""
        try:
            return self.orgs[short]
        except KeyError:
            raise AssertionError(
                f'no organization "{short}" in this scenario: add `Given an organization "{short}"`'
            ) from None

    def owner_name(self, short: str) -> str:
        """The real name of a user or organization of the scenario."""
        if short in self.users:
            return self.users[short].username
        if short in self.orgs:
            return self.orgs[short]
        if short in self.names:
            return self.names[short]
        raise AssertionError(f'"{short}" is neither a user nor an organization of this scenario')

    def short_of(self, real: str) -> str | None:
        """The short name behind a real user, org or repository name, if the scenario made it."""
        for short, identity in self.users.items():
            if identity.username == real:
                return short
        for short, name in self.orgs.items():
            if name == real:
                return short
        for short, repo in self.repos.items():
            if repo.full_name == real:
                return short
        return None
