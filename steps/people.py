"""Steps of follows, blocks, the user search, a user's repositories and heatmap, and OAuth2 applications
(the users area). Users are short names; ``the organization "acme"`` names an organization of the scenario."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.people import PeopleApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import acting, token_api
from steps.common import expect_status, json_document, response_json, user_name
from steps.parsing import phrase

__all__: list[str] = []


@dataclass
class AppNotes:
    """The scenario's OAuth2 application: its id and the secret its creation answered."""

    app_id: int | None = None
    first_secret: str = ""
    owner: str = ""
    secrets: list[str] = field(default_factory=list)

    def noted_id(self) -> int:
        assert self.app_id is not None, "no step created an OAuth2 application"
        return self.app_id


@pytest.fixture
def app_notes() -> AppNotes:
    """The scenario's OAuth2 application."""
    return AppNotes()


def _people(ctx: ScenarioContext, who: str) -> PeopleApi:
    return acting(ctx, who, PeopleApi)


def _logins(body: Any) -> list[str]:
    assert isinstance(body, list), f"expected a list of users, got {str(body)[:200]}"
    return [str(item.get("login")) for item in body]


def _names(ctx: ScenarioContext, users: str) -> list[str]:
    return [] if users == "nobody" else [user_name(ctx, short.strip()) for short in users.split(",") if short.strip()]


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" is following "{user}"'))
def given_following(ctx: ScenarioContext, who: str, user: str) -> None:
    """``PUT /user/following/{username}`` must succeed."""
    expect_status(_people(ctx, who).follow(user_name(ctx, user)), 204, f'"{who}" follows "{user}"')


@given(phrase('"{who}" has blocked "{user}"'))
def given_blocked(ctx: ScenarioContext, who: str, user: str) -> None:
    """``PUT /user/blocks/{username}`` must succeed."""
    expect_status(_people(ctx, who).block(user_name(ctx, user)), 204, f'"{who}" blocks "{user}"')


@given(phrase('"{who}" blocked "{user}" for the organization "{org}"'))
def given_org_blocked(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    """``PUT /orgs/{org}/blocks/{username}`` must succeed."""
    response = _people(ctx, who).block(user_name(ctx, user), org=ctx.org(org))
    expect_status(response, 204, f'"{org}" blocks "{user}"')


@given(phrase('"{who}" unblocked "{user}"'))
def given_unblocked(ctx: ScenarioContext, who: str, user: str) -> None:
    """``DELETE /user/blocks/{username}`` must succeed."""
    expect_status(_people(ctx, who).unblock(user_name(ctx, user)), 204, f'"{who}" unblocks "{user}"')


@given(phrase('"{who}" created the OAuth2 application "{name}"'))
def given_app(ctx: ScenarioContext, app_notes: AppNotes, who: str, name: str) -> None:
    """``POST /user/applications/oauth2`` with one redirect URI must succeed; its id and secret are noted."""
    body = {"name": name, "redirect_uris": ["https://client.example/callback"], "confidential_client": True}
    created = expect_status(_people(ctx, who).create_oauth2_app(body), 201, f'"{who}" creates "{name}"')
    ctx.admin.http.recorder.add_secret(str(created["client_secret"]))
    app_notes.app_id, app_notes.first_secret, app_notes.owner = int(created["id"]), created["client_secret"], who


# ---------------------------------------------------------------- When: follows


@when(phrase('"{who}" follows "{user}"'))
def follow(ctx: ScenarioContext, who: str, user: str) -> None:
    """``PUT /user/following/{username}``."""
    ctx.response = _people(ctx, who).follow(user_name(ctx, user))


@when(phrase('"{who}" unfollows "{user}"'))
def unfollow(ctx: ScenarioContext, who: str, user: str) -> None:
    """``DELETE /user/following/{username}``."""
    ctx.response = _people(ctx, who).unfollow(user_name(ctx, user))


@when(phrase('"{who}" checks whether they follow "{user}"'))
def check_own_follow(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /user/following/{username}``."""
    ctx.response = _people(ctx, who).am_following(user_name(ctx, user))


@when(phrase('"{who}" checks whether "{user}" follows "{target}"'))
def check_follow(ctx: ScenarioContext, who: str, user: str, target: str) -> None:
    """``GET /users/{username}/following/{target}``."""
    ctx.response = _people(ctx, who).is_following(user_name(ctx, user), user_name(ctx, target))


@when(phrase('"{who}" lists their followers'))
def my_followers(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/followers``."""
    ctx.response = _people(ctx, who).my_followers()


@when(phrase('"{who}" lists the users they follow'))
def my_following(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/following``."""
    ctx.response = _people(ctx, who).my_following()


@when(phrase('"{who}" lists the followers of "{user}"'))
def followers_of(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{username}/followers``."""
    ctx.response = _people(ctx, who).followers_of(user_name(ctx, user))


@when(phrase('"{who}" lists the users "{user}" follows'))
def following_of(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{username}/following``."""
    ctx.response = _people(ctx, who).following_of(user_name(ctx, user))


# ---------------------------------------------------------------- When: blocks


@when(phrase('"{who}" blocks "{user}"'))
def block(ctx: ScenarioContext, who: str, user: str) -> None:
    """``PUT /user/blocks/{username}``."""
    ctx.response = _people(ctx, who).block(user_name(ctx, user))


@when(phrase('"{who}" blocks "{user}" with the note "{note}"'))
def block_with_note(ctx: ScenarioContext, who: str, user: str, note: str) -> None:
    """``PUT /user/blocks/{username}?note=``."""
    ctx.response = _people(ctx, who).block(user_name(ctx, user), note=note)


@when(phrase('"{who}" blocks the organization "{org}"'))
def block_org(ctx: ScenarioContext, who: str, org: str) -> None:
    """``PUT /user/blocks/{org}``: an organization cannot be blocked."""
    ctx.response = _people(ctx, who).block(ctx.org(org))


@when(phrase('"{who}" unblocks "{user}"'))
def unblock(ctx: ScenarioContext, who: str, user: str) -> None:
    """``DELETE /user/blocks/{username}``."""
    ctx.response = _people(ctx, who).unblock(user_name(ctx, user))


@when(phrase('"{who}" checks whether they block "{user}"'))
def check_block(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /user/blocks/{username}``."""
    ctx.response = _people(ctx, who).is_blocking(user_name(ctx, user))


@when(phrase('"{who}" lists the users they block'))
def list_blocks(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/blocks``."""
    ctx.response = _people(ctx, who).blocks()


@when(phrase('"{who}" blocks "{user}" for the organization "{org}"'))
def org_block(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    """``PUT /orgs/{org}/blocks/{username}``."""
    ctx.response = _people(ctx, who).block(user_name(ctx, user), org=ctx.org(org))


@when(phrase('"{who}" unblocks "{user}" for the organization "{org}"'))
def org_unblock(ctx: ScenarioContext, who: str, user: str, org: str) -> None:
    """``DELETE /orgs/{org}/blocks/{username}``."""
    ctx.response = _people(ctx, who).unblock(user_name(ctx, user), org=ctx.org(org))


@when(phrase('"{who}" checks whether the organization "{org}" blocks "{user}"'))
def org_check_block(ctx: ScenarioContext, who: str, org: str, user: str) -> None:
    """``GET /orgs/{org}/blocks/{username}``."""
    ctx.response = _people(ctx, who).is_blocking(user_name(ctx, user), org=ctx.org(org))


@when(phrase('"{who}" lists the users the organization "{org}" blocks'))
def org_list_blocks(ctx: ScenarioContext, who: str, org: str) -> None:
    """``GET /orgs/{org}/blocks``."""
    ctx.response = _people(ctx, who).blocks(org=ctx.org(org))


# ---------------------------------------------------------------- When: search, repositories, heatmap


@when(phrase('"{who}" searches users for the name of "{user}"'))
def search_name(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/search?q=`` with the user's real name."""
    ctx.response = _people(ctx, who).search({"q": user_name(ctx, user)})


@when(phrase('"{who}" searches users for the scenario\'s names with {limit:d} per page'))
def search_prefix(ctx: ScenarioContext, who: str, limit: int) -> None:
    """``GET /users/search?q=<the scenario's name prefix>&limit=``: only the scenario's users match."""
    ctx.response = _people(ctx, who).search({"q": ctx.real_name(""), "limit": limit})


@when(phrase('the token "{token}" searches users for the name of "{user}"'))
def token_search_name(ctx: ScenarioContext, token: str, user: str) -> None:
    """``GET /users/search?q=`` with a named token of the scenario."""
    ctx.response = token_api(ctx, token).area(PeopleApi).search({"q": user_name(ctx, user)})


@when(phrase('"{who}" searches users by the id of "{user}"'))
def search_uid(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/search?uid=`` with the user's id (read by the admin)."""
    body = expect_status(ctx.admin.users.get(user_name(ctx, user)), 200, f'read "{user}"')
    ctx.response = _people(ctx, who).search({"uid": body["id"]})


@when(phrase('"{who}" lists the repositories of the user "{user}"'))
def repos_of(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{username}/repos``."""
    ctx.response = _people(ctx, who).repos_of(user_name(ctx, user))


@when(phrase('"{who}" reads the heatmap of "{user}"'))
def heatmap(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{username}/heatmap``."""
    ctx.response = _people(ctx, who).heatmap(user_name(ctx, user))


# ---------------------------------------------------------------- When: OAuth2 applications


@when(phrase('"{who}" creates an OAuth2 application with the body'))
def create_app(ctx: ScenarioContext, app_notes: AppNotes, who: str, docstring: str) -> None:
    """``POST /user/applications/oauth2`` with the step's JSON; a created application is noted."""
    ctx.response = _people(ctx, who).create_oauth2_app(json_document(docstring))
    if ctx.response.status_code == 201:
        created = json_of(ctx.response)
        ctx.admin.http.recorder.add_secret(str(created["client_secret"]))
        app_notes.app_id, app_notes.first_secret, app_notes.owner = int(created["id"]), created["client_secret"], who


@when(phrase('"{who}" reads the OAuth2 application'))
def read_app(ctx: ScenarioContext, app_notes: AppNotes, who: str) -> None:
    """``GET /user/applications/oauth2/{id}``."""
    ctx.response = _people(ctx, who).oauth2_app(app_notes.noted_id())


@when(phrase('"{who}" lists their OAuth2 applications'))
def list_apps(ctx: ScenarioContext, who: str) -> None:
    """``GET /user/applications/oauth2``."""
    ctx.response = _people(ctx, who).oauth2_apps()


@when(phrase('"{who}" updates the OAuth2 application with the body'))
def update_app(ctx: ScenarioContext, app_notes: AppNotes, who: str, docstring: str) -> None:
    """``PATCH /user/applications/oauth2/{id}`` with the step's JSON."""
    ctx.response = _people(ctx, who).update_oauth2_app(app_notes.noted_id(), json_document(docstring))
    if ctx.response.status_code == 200:
        ctx.admin.http.recorder.add_secret(str(json_of(ctx.response).get("client_secret")))


@when(phrase('"{who}" deletes the OAuth2 application'))
def delete_app(ctx: ScenarioContext, app_notes: AppNotes, who: str) -> None:
    """``DELETE /user/applications/oauth2/{id}``."""
    ctx.response = _people(ctx, who).delete_oauth2_app(app_notes.noted_id())


# ---------------------------------------------------------------- Then


@then(phrase('the response lists exactly the users "{users}"'))
def lists_exactly(ctx: ScenarioContext, users: str) -> None:
    """A list of ``User`` with exactly these (in any order; ``nobody`` for an empty list)."""
    found = _logins(response_json(ctx))
    assert sorted(found) == sorted(_names(ctx, users)), f"listed {found}, expected {_names(ctx, users)}"


@then(phrase('the search found exactly the users "{users}"'))
def search_found(ctx: ScenarioContext, users: str) -> None:
    """Gitea's ``{"ok": true, "data": [...]}`` envelope with exactly these users, in this order."""
    body = response_json(ctx)
    assert isinstance(body, dict) and body.get("ok") is True, f"not a search envelope: {str(body)[:200]}"
    found = _logins(body.get("data"))
    assert found == _names(ctx, users), f"found {found}, expected {_names(ctx, users)}"


@then(phrase('"{user}" has {followers:d} followers and follows {following:d} users'))
def counts(ctx: ScenarioContext, user: str, followers: int, following: int) -> None:
    """The ``followers_count`` and ``following_count`` of the user's ``User`` (read by the admin)."""
    body = expect_status(ctx.admin.users.get(user_name(ctx, user)), 200, f'read "{user}"')
    found = (body.get("followers_count"), body.get("following_count"))
    assert found == (followers, following), f"{user}: followers, following = {found}"


@then(phrase('"{who}" is among the followers of "{user}"'))
def then_follows(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{who}/following/{user}`` answers 204 (asked by the admin)."""
    status = ctx.admin.area(PeopleApi).is_following(user_name(ctx, who), user_name(ctx, user)).status_code
    assert status == 204, f'"{who}" does not follow "{user}" (status {status})'


@then(phrase('"{who}" is not among the followers of "{user}"'))
def then_not_follows(ctx: ScenarioContext, who: str, user: str) -> None:
    """``GET /users/{who}/following/{user}`` answers 404 (asked by the admin)."""
    status = ctx.admin.area(PeopleApi).is_following(user_name(ctx, who), user_name(ctx, user)).status_code
    assert status == 404, f'"{who}" still follows "{user}" (status {status})'


def _block_status(ctx: ScenarioContext, user: str, blocker: str, org: str | None) -> int:
    """``GET .../blocks/{user}`` as the blocker (or the organization's owner)."""
    who = ctx.org_owners[org] if org else blocker
    api = _people(ctx, who)
    return api.is_blocking(user_name(ctx, user), org=ctx.org(org) if org else None).status_code


@then(phrase('"{user}" is blocked by "{who}"'))
def then_blocked(ctx: ScenarioContext, user: str, who: str) -> None:
    """``GET /user/blocks/{user}`` as the blocker answers 204."""
    assert _block_status(ctx, user, who, None) == 204, f'"{who}" does not block "{user}"'


@then(phrase('"{user}" is not blocked by "{who}"'))
def then_not_blocked(ctx: ScenarioContext, user: str, who: str) -> None:
    """``GET /user/blocks/{user}`` as the blocker answers 404."""
    assert _block_status(ctx, user, who, None) == 404, f'"{who}" still blocks "{user}"'


@then(phrase('"{user}" is blocked by the organization "{org}"'))
def then_org_blocked(ctx: ScenarioContext, user: str, org: str) -> None:
    """``GET /orgs/{org}/blocks/{user}`` as the organization's owner answers 204."""
    assert _block_status(ctx, user, "", org) == 204, f'"{org}" does not block "{user}"'


@then(phrase('"{user}" is not blocked by the organization "{org}"'))
def then_org_not_blocked(ctx: ScenarioContext, user: str, org: str) -> None:
    """``GET /orgs/{org}/blocks/{user}`` as the organization's owner answers 404."""
    assert _block_status(ctx, user, "", org) == 404, f'"{org}" still blocks "{user}"'


@then(phrase("the heatmap counts {count:d} contributions"))
def heatmap_total(ctx: ScenarioContext, count: int) -> None:
    """The contributions of every quarter hour add up to ``count``; each bucket starts on a quarter hour."""
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list, got {str(body)[:200]}"
    assert all(int(item["timestamp"]) % 900 == 0 for item in body), f"buckets off the quarter hour: {body}"
    total = sum(int(item["contributions"]) for item in body)
    assert total == count, f"the heatmap counts {total} contributions, expected {count}: {body}"


@then(phrase("the answer carries a new client secret"))
def new_secret(ctx: ScenarioContext, app_notes: AppNotes) -> None:
    """A ``gto_`` secret of 56 characters, not the one answered before, and a client id (a UUID)."""
    body = response_json(ctx)
    secret = str(body.get("client_secret"))
    assert secret.startswith("gto_") and len(secret) == 56, "the client secret is not a fresh gto_ secret"
    assert secret not in app_notes.secrets, "the client secret was answered before"
    assert len(str(body.get("client_id"))) == 36, f"client_id {body.get('client_id')!r} is not a UUID"
    app_notes.secrets.append(secret)


@then(phrase("the answer shows no client secret"))
def no_secret(ctx: ScenarioContext) -> None:
    """Every application answered has an empty ``client_secret``."""
    body = response_json(ctx)
    apps = body if isinstance(body, list) else [body]
    assert apps, "no application answered"
    assert all(app.get("client_secret") == "" for app in apps), "a client secret was answered again"


@then(phrase("the answer is the OAuth2 application created"))
def is_created_app(ctx: ScenarioContext, app_notes: AppNotes) -> None:
    """The application answered (or the only one listed) has the noted id."""
    body = response_json(ctx)
    apps = body if isinstance(body, list) else [body]
    assert [app.get("id") for app in apps] == [app_notes.noted_id()], f"answered {apps}"


@then(phrase("the OAuth2 application no longer exists"))
def app_gone(ctx: ScenarioContext, app_notes: AppNotes) -> None:
    """Its owner reading it gets 404."""
    status = _people(ctx, app_notes.owner).oauth2_app(app_notes.noted_id()).status_code
    assert status == 404, f"the application still answers {status}"
