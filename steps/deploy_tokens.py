"""Deploy tokens over REST: created by a repository's admin, listed with the keys, regenerated in place,
deleted. Tokens are known to a scenario by their title; their secrets are masked in every transcript.

The ``deploy_tokens`` and ``lfs`` capabilities are probed on a throw-away repository of the admin.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import requests
from pytest_bdd import given, then, when

from conformance.api.deploy_tokens import DeployTokensApi, LfsApi
from conformance.capabilities import register_probe
from conformance.client import HttpClient, Recorder, json_of, mask_text
from conformance.context import RepoRef, ScenarioContext
from conformance.schemas import validate
from steps.parsing import phrase

__all__ = ["DeployTokenRecord", "deploy_token", "owner_http"]

TOKEN_KEY = "deploy tokens"


@dataclass
class DeployTokenRecord:
    """A deploy token of the scenario: its repository, id and current secret, and the secrets it had."""

    repo: RepoRef
    id: int
    secret: str
    read_only: bool
    previous: list[str] = field(default_factory=list)


def _tokens(ctx: ScenarioContext) -> dict[str, DeployTokenRecord]:
    tokens: dict[str, DeployTokenRecord] = ctx.values.setdefault(TOKEN_KEY, {})
    return tokens


def deploy_token(ctx: ScenarioContext, title: str) -> DeployTokenRecord:
    """A deploy token created earlier in the scenario, by title."""
    try:
        return _tokens(ctx)[title]
    except KeyError:
        raise AssertionError(f'no deploy token "{title}" in this scenario: add a Given that creates it') from None


def owner_http(ctx: ScenarioContext, repo: RepoRef) -> HttpClient:
    """The client of the repository's owner (its user, else the admin for an organization's repository)."""
    owner_short = repo.short.split("/", 1)[0]
    return ctx.users[owner_short].http if owner_short in ctx.users else ctx.admin.http


def _api(ctx: ScenarioContext, who: str) -> DeployTokensApi:
    return ctx.user(who).api.area(DeployTokensApi)


def _mask_secret(recorder: Recorder, secret: str) -> None:
    """Mask a secret from now on, and in the exchanges already recorded (the answer that revealed it)."""
    recorder.add_secret(secret)
    for index, exchange in enumerate(recorder.exchanges):
        if secret in exchange.response_body or secret in exchange.request_body:
            recorder.exchanges[index] = replace(
                exchange,
                response_body=mask_text(exchange.response_body, (secret,)),
                request_body=mask_text(exchange.request_body, (secret,)),
            )


def _remember(ctx: ScenarioContext, repo: RepoRef, title: str, response: requests.Response) -> None:
    """Keep a created or regenerated token (its secret masked in the transcript)."""
    body = json_of(response)
    _mask_secret(ctx.admin.http.recorder, str(body["key"]))
    known = _tokens(ctx).get(title)
    if known is not None and known.id == body["id"]:
        known.previous.append(known.secret)
        known.secret = str(body["key"])
        return
    _tokens(ctx)[title] = DeployTokenRecord(repo, int(body["id"]), str(body["key"]), bool(body["read_only"]))


def _create(ctx: ScenarioContext, api: DeployTokensApi, short: str, title: str, read_only: bool) -> None:
    repo = ctx.repo(short)
    ctx.response = api.create_token(repo.owner, repo.name, title, read_only=read_only)
    if ctx.response.status_code == 201:
        _remember(ctx, repo, title, ctx.response)


# ---------------------------------------------------------------- Given


def _given_token(ctx: ScenarioContext, short: str, title: str, read_only: bool) -> None:
    repo = ctx.repo(short)
    api = DeployTokensApi(owner_http(ctx, repo), ctx.admin.site_url)
    response = api.create_token(repo.owner, repo.name, title, read_only=read_only)
    assert response.status_code == 201, f'creating the deploy token "{title}" answered {response.status_code}'
    _remember(ctx, repo, title, response)


@given(phrase('the repository "{short}" has a read-only deploy token "{title}"'))
def given_read_only_token(ctx: ScenarioContext, short: str, title: str) -> None:
    """A read-only deploy token made by the repository's owner."""
    _given_token(ctx, short, title, True)


@given(phrase('the repository "{short}" has a read-write deploy token "{title}"'))
def given_read_write_token(ctx: ScenarioContext, short: str, title: str) -> None:
    """A read-write deploy token made by the repository's owner."""
    _given_token(ctx, short, title, False)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates a read-only deploy token "{title}" for "{short}"'))
def when_create_read_only(ctx: ScenarioContext, who: str, title: str, short: str) -> None:
    """``POST .../keys/tokens`` with ``read_only: true``."""
    _create(ctx, _api(ctx, who), short, title, True)


@when(phrase('"{who}" creates a read-write deploy token "{title}" for "{short}"'))
def when_create_read_write(ctx: ScenarioContext, who: str, title: str, short: str) -> None:
    """``POST .../keys/tokens`` with ``read_only: false``."""
    _create(ctx, _api(ctx, who), short, title, False)


@when(phrase('"{who}" lists the keys of "{short}"'))
def when_list_keys(ctx: ScenarioContext, who: str, short: str) -> None:
    """``GET .../keys``."""
    repo = ctx.repo(short)
    ctx.response = _api(ctx, who).list_keys(repo.owner, repo.name)


@given(phrase('"{who}" regenerates the deploy token "{title}"'))
@when(phrase('"{who}" regenerates the deploy token "{title}"'))
def when_regenerate(ctx: ScenarioContext, who: str, title: str) -> None:
    """``POST .../keys/tokens/{id}/regenerate``."""
    token = deploy_token(ctx, title)
    ctx.response = _api(ctx, who).regenerate_token(token.repo.owner, token.repo.name, token.id)
    if ctx.response.status_code == 200:
        _remember(ctx, token.repo, title, ctx.response)


@given(phrase('"{who}" deletes the deploy token "{title}"'))
@when(phrase('"{who}" deletes the deploy token "{title}"'))
def when_delete(ctx: ScenarioContext, who: str, title: str) -> None:
    """``DELETE .../keys/{id}``."""
    token = deploy_token(ctx, title)
    ctx.response = _api(ctx, who).delete_key(token.repo.owner, token.repo.name, token.id)


# ---------------------------------------------------------------- Then


@then(phrase('the response holds the secret of the deploy token "{title}"'))
def then_secret_shown(ctx: ScenarioContext, title: str) -> None:
    """The creation answer shows the secret (gdt_ + 43 alphanumerics) and the token's title and access."""
    body = json_of(ctx.last_response())
    validate(body, "deploy_token_created")
    token = deploy_token(ctx, title)
    assert body["key"] == token.secret and body["title"] == title, f"unexpected token: {body['title']!r}"
    assert body["read_only"] is token.read_only, f"read_only is {body['read_only']!r}"


@then(phrase('the deploy token "{title}" kept its id and has a new secret'))
def then_regenerated(ctx: ScenarioContext, title: str) -> None:
    """Regeneration changes the secret in place."""
    body = json_of(ctx.last_response())
    validate(body, "deploy_token_created")
    token = deploy_token(ctx, title)
    assert body["id"] == token.id, f"the regenerated token has id {body['id']}, the token was {token.id}"
    assert token.previous and body["key"] not in token.previous, "the secret did not change"


@then(phrase('the key list holds the deploy token "{title}" without its secret'))
def then_listed(ctx: ScenarioContext, title: str) -> None:
    """The list shows the token by id and title, never its secret."""
    body = json_of(ctx.last_response())
    validate(body, "deploy_key_list")
    token = deploy_token(ctx, title)
    found = [key for key in body if key.get("id") == token.id]
    assert found, f'the deploy token "{title}" (id {token.id}) is not listed'
    assert found[0]["title"] == title and found[0]["read_only"] is token.read_only
    assert token.secret not in ctx.last_response().text, "a listed deploy token shows its secret"


@then(phrase('the key list of "{short}" does not hold the deploy token "{title}"'))
def then_not_listed(ctx: ScenarioContext, short: str, title: str) -> None:
    """After a deletion the token is gone from its repository's keys."""
    repo = ctx.repo(short)
    response = DeployTokensApi(owner_http(ctx, repo), ctx.admin.site_url).list_keys(repo.owner, repo.name)
    assert response.status_code == 200, f"listing the keys answered {response.status_code}"
    ids = [key.get("id") for key in json_of(response)]
    assert deploy_token(ctx, title).id not in ids, f'the deploy token "{title}" is still listed'


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
