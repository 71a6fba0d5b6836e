"""Deploy tokens over REST: created by a repository's admin, listed with the keys, regenerated in place,
deleted. Tokens are known to a scenario by their title; their secrets are masked in every transcript.

The ``deploy_tokens`` and ``lfs`` capabilities are probed on a throw-away repository of the admin.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.deploy_tokens import DeployTokensApi, LfsApi
from conformance.capabilities import register_probe
from conformance.client import Exchange, HttpClient, Recorder, json_of, mask_text
from conformance.context import RepoRef, ScenarioContext
from steps.actors import acting, repo_owner
from steps.common import expect_status
from steps.parsing import phrase

__all__ = ["DeployTokenRecord", "DeployTokens"]


@dataclass
class DeployTokenRecord:
    """A deploy token of the scenario: its repository, id and current secret, and the secrets it had."""

    repo: RepoRef
    id: int
    secret: str
    read_only: bool
    previous: list[str] = field(default_factory=list)


@dataclass
class DeployTokens:
    """The scenario's deploy tokens by title."""

    by_title: dict[str, DeployTokenRecord] = field(default_factory=dict)

    def token(self, title: str) -> DeployTokenRecord:
        """A deploy token created earlier in the scenario, by title."""
        found = self.by_title.get(title)
        assert found is not None, f'no deploy token "{title}" in this scenario: add a Given that creates it'
        return found

    def keep(self, ctx: ScenarioContext, repo: RepoRef, title: str, response: requests.Response) -> None:
        """Keep a created or regenerated token (its secret masked in the transcript)."""
        body = json_of(response)
        _mask_secret(ctx.admin.http.recorder, str(body["key"]))
        known = self.by_title.get(title)
        if known is not None and known.id == body["id"]:
            known.previous.append(known.secret)
            known.secret = str(body["key"])
            return
        self.by_title[title] = DeployTokenRecord(repo, int(body["id"]), str(body["key"]), bool(body["read_only"]))


@pytest.fixture
def deploy_tokens() -> DeployTokens:
    """The scenario's deploy tokens."""
    return DeployTokens()


def _mask_secret(recorder: Recorder, secret: str) -> None:
    """Mask a secret from now on, and in the exchanges already recorded (the answer that revealed it): the
    HTTP ones are masked when shown, the ones other clients showed themselves are masked again here."""
    recorder.add_secret(secret)
    for index, exchange in enumerate(recorder.exchanges):
        if not isinstance(exchange, Exchange):
            continue
        if secret in exchange.response_body or secret in exchange.request_body:
            recorder.exchanges[index] = replace(
                exchange,
                response_body=mask_text(exchange.response_body, (secret,)),
                request_body=mask_text(exchange.request_body, (secret,)),
            )


def _create(
    ctx: ScenarioContext, deploy_tokens: DeployTokens, who: str, *, short: str, title: str, read_only: bool
) -> None:
    repo = ctx.repo(short)
    ctx.response = acting(ctx, who, DeployTokensApi).create_token(repo.owner, repo.name, title, read_only=read_only)
    if ctx.response.status_code == 201:
        deploy_tokens.keep(ctx, repo, title, ctx.response)


# ---------------------------------------------------------------- Given


def _given_token(ctx: ScenarioContext, deploy_tokens: DeployTokens, short: str, title: str, read_only: bool) -> None:
    repo = ctx.repo(short)
    response = (
        repo_owner(ctx, repo).area(DeployTokensApi).create_token(repo.owner, repo.name, title, read_only=read_only)
    )
    expect_status(response, 201, f'create the deploy token "{title}"')
    deploy_tokens.keep(ctx, repo, title, response)


@given(phrase('the repository "{short}" has a read-only deploy token "{title}"'))
def given_read_only_token(ctx: ScenarioContext, deploy_tokens: DeployTokens, short: str, title: str) -> None:
    """A read-only deploy token made by the repository's owner."""
    _given_token(ctx, deploy_tokens, short, title, True)


@given(phrase('the repository "{short}" has a read-write deploy token "{title}"'))
def given_read_write_token(ctx: ScenarioContext, deploy_tokens: DeployTokens, short: str, title: str) -> None:
    """A read-write deploy token made by the repository's owner."""
    _given_token(ctx, deploy_tokens, short, title, False)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates a read-only deploy token "{title}" for "{short}"'))
def when_create_read_only(ctx: ScenarioContext, deploy_tokens: DeployTokens, who: str, title: str, short: str) -> None:
    """``POST .../keys/tokens`` with ``read_only: true``."""
    _create(ctx, deploy_tokens, who, short=short, title=title, read_only=True)


@when(phrase('"{who}" creates a read-write deploy token "{title}" for "{short}"'))
def when_create_read_write(ctx: ScenarioContext, deploy_tokens: DeployTokens, who: str, title: str, short: str) -> None:
    """``POST .../keys/tokens`` with ``read_only: false``."""
    _create(ctx, deploy_tokens, who, short=short, title=title, read_only=False)


@when(phrase('"{who}" lists the keys of "{short}"'))
def when_list_keys(ctx: ScenarioContext, who: str, short: str) -> None:
    """``GET .../keys``."""
    repo = ctx.repo(short)
    ctx.response = acting(ctx, who, DeployTokensApi).list_keys(repo.owner, repo.name)


@given(phrase('"{who}" regenerates the deploy token "{title}"'))
@when(phrase('"{who}" regenerates the deploy token "{title}"'))
def when_regenerate(ctx: ScenarioContext, deploy_tokens: DeployTokens, who: str, title: str) -> None:
    """``POST .../keys/tokens/{id}/regenerate``."""
    token = deploy_tokens.token(title)
    ctx.response = acting(ctx, who, DeployTokensApi).regenerate_token(token.repo.owner, token.repo.name, token.id)
    if ctx.response.status_code == 200:
        deploy_tokens.keep(ctx, token.repo, title, ctx.response)


@given(phrase('"{who}" deletes the deploy token "{title}"'))
@when(phrase('"{who}" deletes the deploy token "{title}"'))
def when_delete(ctx: ScenarioContext, deploy_tokens: DeployTokens, who: str, title: str) -> None:
    """``DELETE .../keys/{id}``."""
    token = deploy_tokens.token(title)
    ctx.response = acting(ctx, who, DeployTokensApi).delete_key(token.repo.owner, token.repo.name, token.id)


# ---------------------------------------------------------------- Then


@then(phrase('the response holds the secret of the deploy token "{title}"'))
def then_secret_shown(ctx: ScenarioContext, deploy_tokens: DeployTokens, title: str) -> None:
    """The creation answer shows the secret (gdt_ + 43 alphanumerics) and the token's title and access."""
    body = json_of(ctx.last_response())
    token = deploy_tokens.token(title)
    assert body["key"] == token.secret and body["title"] == title, f"unexpected token: {body['title']!r}"
    assert body["read_only"] is token.read_only, f"read_only is {body['read_only']!r}"


@then(phrase('the deploy token "{title}" kept its id and has a new secret'))
def then_regenerated(ctx: ScenarioContext, deploy_tokens: DeployTokens, title: str) -> None:
    """Regeneration changes the secret in place."""
    body = json_of(ctx.last_response())
    token = deploy_tokens.token(title)
    assert body["id"] == token.id, f"the regenerated token has id {body['id']}, the token was {token.id}"
    assert token.previous and body["key"] not in token.previous, "the secret did not change"


@then(phrase('the key list holds the deploy token "{title}" without its secret'))
def then_listed(ctx: ScenarioContext, deploy_tokens: DeployTokens, title: str) -> None:
    """The list shows the token by id and title, never its secret."""
    body = json_of(ctx.last_response())
    token = deploy_tokens.token(title)
    found = [key for key in body if key.get("id") == token.id]
    assert found, f'the deploy token "{title}" (id {token.id}) is not listed'
    assert found[0]["title"] == title and found[0]["read_only"] is token.read_only
    assert token.secret not in ctx.last_response().text, "a listed deploy token shows its secret"


@then(phrase('the key list of "{short}" does not hold the deploy token "{title}"'))
def then_not_listed(ctx: ScenarioContext, deploy_tokens: DeployTokens, short: str, title: str) -> None:
    """After a deletion the token is gone from its repository's keys."""
    repo = ctx.repo(short)
    response = repo_owner(ctx, repo).area(DeployTokensApi).list_keys(repo.owner, repo.name)
    assert response.status_code == 200, f"listing the keys answered {response.status_code}"
    ids = [key.get("id") for key in json_of(response)]
    assert deploy_tokens.token(title).id not in ids, f'the deploy token "{title}" is still listed'


# ---------------------------------------------------------------- capabilities


def _on_probe_repository(admin: HttpClient, check: Callable[[str, str], bool]) -> bool:
    """Run ``check(owner, name)`` on a private repository of the admin made for the probe, then delete it."""
    name = f"probe-{secrets.token_hex(5)}"
    try:
        created = admin.post("user/repos", json={"name": name, "private": True, "auto_init": False})
        if created.status_code != 201:
            return False
        owner = str(created.json()["owner"]["login"])
        try:
            return check(owner, name)
        finally:
            admin.delete(f"repos/{owner}/{name}")
    except (requests.RequestException, ValueError, KeyError, TypeError):
        return False


@register_probe("deploy_tokens")
def _deploy_tokens_probe(admin: HttpClient) -> bool:
    """``POST .../keys/tokens`` answers 201 on a repository of the admin."""

    def check(owner: str, name: str) -> bool:
        created = DeployTokensApi(admin, admin.base_url).create_token(owner, name, "probe", read_only=True)
        if created.status_code != 201:
            return False
        _mask_secret(admin.recorder, str(created.json().get("key", "")))
        return True

    return _on_probe_repository(admin, check)


@register_probe("lfs")
def _lfs_probe(admin: HttpClient) -> bool:
    """The LFS batch API answers an empty download batch with 200 in the LFS media type."""

    def check(owner: str, name: str) -> bool:
        site = admin.base_url.removesuffix("/").removesuffix("/api/v1") + "/"
        answer = LfsApi(admin, site).batch(owner, name, "download", [])
        return answer.status_code == 200 and answer.headers.get("Content-Type", "").startswith(
            "application/vnd.git-lfs+json"
        )

    return _on_probe_repository(admin, check)
