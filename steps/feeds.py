"""Activity feeds: listing the feeds of users, repositories, organizations and teams, and reading their items.

A feed item is named by its ``op_type`` and its actor (``"create_issue" by "dev"``); an expected feed is
written newest first as ``op_type by actor`` pairs, comma separated (``nothing`` for an empty feed).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from pytest_bdd import given, then, when

from conformance.api.feeds import FeedsApi
from conformance.api.settings import SettingsApi
from conformance.context import ScenarioContext
from steps.actors import acting
from steps.common import expect_status, response_json
from steps.orgs import OrgNotes
from steps.parsing import phrase

__all__: list[str] = []


def _query(text: str) -> dict[str, str]:
    """``key=value&key=value`` as query parameters."""
    return dict(part.split("=", 1) for part in text.split("&") if part)


def _items(ctx: ScenarioContext) -> list[dict[str, Any]]:
    body = response_json(ctx)
    assert isinstance(body, list), f"expected a list of feed items, got {json.dumps(body)[:300]}"
    return body


def _item(ctx: ScenarioContext, op_type: str) -> dict[str, Any]:
    """The newest item of this kind in the last response."""
    for item in _items(ctx):
        if item["op_type"] == op_type:
            return item
    raise AssertionError(f'the feed has no "{op_type}" item: {[item["op_type"] for item in _items(ctx)]}')


def _account_id(ctx: ScenarioContext, short: str) -> int:
    name = ctx.owner_name(short)
    path = f"orgs/{name}" if short in ctx.orgs else f"users/{name}"
    body = expect_status(ctx.admin.http.get(path), 200, f'read the account "{short}"')
    return int(body["id"])


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" hides their activity'))
def given_hidden_activity(ctx: ScenarioContext, who: str) -> None:
    """The user's ``hide_activity`` setting is on."""
    response = acting(ctx, who, SettingsApi).update_user_settings({"hide_activity": True})
    expect_status(response, 200, "hide the activity")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" lists the activity feed of "{repo}"'))
def when_repo_feed(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, FeedsApi).repo_feed(ref.owner, ref.name)


@when(phrase('"{who}" lists the activity feed of "{repo}" with "{query}"'))
def when_repo_feed_query(ctx: ScenarioContext, who: str, repo: str, query: str) -> None:
    """``query`` is ``key=value&key=value`` (``date``, ``page``, ``limit``)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, FeedsApi).repo_feed(ref.owner, ref.name, **_query(query))


@when(phrase('"{who}" lists the activity feed of "{repo}" for the day it was created'))
def when_repo_feed_creation_day(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``date`` is the UTC day of the repository's ``created_at``."""
    ref = ctx.repo(repo)
    created = expect_status(ctx.admin.repos.get(ref.owner, ref.name), 200, "read the repository")["created_at"]
    ctx.response = acting(ctx, who, FeedsApi).repo_feed(ref.owner, ref.name, date=_utc_day(str(created)))


def _utc_day(timestamp: str) -> str:
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).astimezone(UTC).strftime("%Y-%m-%d")


@when(phrase('"{who}" lists the activity feed of the user "{user}"'))
def when_user_feed(ctx: ScenarioContext, who: str, user: str) -> None:
    ctx.response = acting(ctx, who, FeedsApi).user_feed(ctx.owner_name(user))


@when(phrase('"{who}" lists the activity feed of the user "{user}" with "{query}"'))
def when_user_feed_query(ctx: ScenarioContext, who: str, user: str, query: str) -> None:
    """``query`` is ``key=value&key=value`` (``only-performed-by``, ``date``, ``page``, ``limit``)."""
    ctx.response = acting(ctx, who, FeedsApi).user_feed(ctx.owner_name(user), **_query(query))


@when(phrase('"{who}" lists the activity feed of the organization "{org}"'))
def when_org_feed(ctx: ScenarioContext, who: str, org: str) -> None:
    ctx.response = acting(ctx, who, FeedsApi).org_feed(ctx.org(org))


@when(phrase('"{who}" lists the activity feed of the team "{team}" of "{org}"'))
def when_team_feed(ctx: ScenarioContext, org_notes: OrgNotes, who: str, team: str, org: str) -> None:
    ctx.response = acting(ctx, who, FeedsApi).team_feed(org_notes.team_id(ctx, org, team))


# ---------------------------------------------------------------- Then


@then(phrase('the feed lists, newest first, "{expected}"'))
def then_feed_lists(ctx: ScenarioContext, expected: str) -> None:
    """Exactly these items in this order: ``op_type by actor`` pairs (``nothing`` for none)."""
    wanted = [] if expected == "nothing" else [pair.strip() for pair in expected.split(",")]
    pairs = []
    for pair in wanted:
        op_type, _, actor = pair.partition(" by ")
        pairs.append((op_type.strip(), ctx.owner_name(actor.strip())))
    found = [(item["op_type"], item["act_user"]["login"]) for item in _items(ctx)]
    assert found == pairs, f"the feed lists {found}, expected {pairs}"


@then(phrase('the feed has a "{op_type}" item by "{who}"'))
def then_feed_has(ctx: ScenarioContext, op_type: str, who: str) -> None:
    item = _item(ctx, op_type)
    assert item["act_user"]["login"] == ctx.owner_name(who), f"the item is by {item['act_user']['login']}"
    assert item["act_user_id"] == item["act_user"]["id"], "act_user_id is not the actor's id"


@then(phrase('the feed has no item of "{repo}"'))
def then_feed_lacks_repo(ctx: ScenarioContext, repo: str) -> None:
    ref = ctx.repo(repo)
    names = [item["repo"]["full_name"] for item in _items(ctx)]
    assert f"{ref.owner}/{ref.name}" not in names, f"the feed shows {names}"


@then(phrase('every feed item is of "{repo}"'))
def then_feed_only_repo(ctx: ScenarioContext, repo: str) -> None:
    ref = ctx.repo(repo)
    names = {item["repo"]["full_name"] for item in _items(ctx)}
    assert _items(ctx), "the feed is empty"
    assert names == {f"{ref.owner}/{ref.name}"}, f"the feed shows {sorted(names)}"


@then(phrase('every feed item belongs to the feed of "{owner}"'))
def then_feed_receiver(ctx: ScenarioContext, owner: str) -> None:
    """``user_id`` is the account whose feed it is."""
    expected = _account_id(ctx, owner)
    found = {item["user_id"] for item in _items(ctx)}
    assert _items(ctx), "the feed is empty"
    assert found == {expected}, f"user_id is {sorted(found)}, expected {expected}"


@then(phrase('the feed item "{op_type}" has the content "{content}"'))
def then_item_content(ctx: ScenarioContext, op_type: str, content: str) -> None:
    item = _item(ctx, op_type)
    assert item["content"] == content, f'the "{op_type}" item has the content {item["content"]!r}'


@then(phrase('the feed item "{op_type}" has the ref name "{ref_name}"'))
def then_item_ref(ctx: ScenarioContext, op_type: str, ref_name: str) -> None:
    item = _item(ctx, op_type)
    assert item["ref_name"] == ref_name, f'the "{op_type}" item has the ref name {item["ref_name"]!r}'


@then(phrase('the feed item "{op_type}" carries the comment "{body}"'))
def then_item_comment(ctx: ScenarioContext, op_type: str, body: str) -> None:
    item = _item(ctx, op_type)
    comment = item.get("comment")
    assert isinstance(comment, dict), f'the "{op_type}" item has no comment: {comment!r}'
    assert comment["body"] == body and item["comment_id"] == comment["id"], f"the comment is {comment!r}"


@then(phrase('the feed item "{op_type}" lists {count:d} pushed commit with the message "{message}"'))
def then_item_commits(ctx: ScenarioContext, op_type: str, count: int, message: str) -> None:
    """The content is Gitea's ``PushCommits`` JSON: ``Len``, ``Commits`` and ``HeadCommit``."""
    content = json.loads(_item(ctx, op_type)["content"])
    assert content["Len"] == count, f"Len is {content['Len']}"
    assert [commit["Message"].strip() for commit in content["Commits"]] == [message], content["Commits"]
    assert content["HeadCommit"]["Sha1"] == content["Commits"][0]["Sha1"]


@then(phrase('the feed item "{op_type}" is {privacy:w}'))
def then_item_privacy(ctx: ScenarioContext, op_type: str, privacy: str) -> None:
    """``private`` or ``public`` (``is_private``)."""
    assert privacy in ("private", "public"), f"say private or public, not {privacy!r}"
    item = _item(ctx, op_type)
    assert item["is_private"] is (privacy == "private"), f'the "{op_type}" item has is_private {item["is_private"]}'
