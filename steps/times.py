"""Tracked times of issues: tracking seconds on an issue (for oneself or, as an administrator, for
someone), the times a caller may list, and who may delete an entry."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import requests
from pytest_bdd import given, then, when

from conformance.api.repo_edit import RepoEditApi
from conformance.api.times import TimesApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting, repo_owner
from steps.common import comma_list, expect_status, user_name
from steps.parsing import phrase

__all__: list[str] = []


@dataclass
class TimeNotes:
    """The id of the entry each user last tracked in a Given step."""

    ids: dict[str, int] = field(default_factory=dict)


@pytest.fixture
def time_notes() -> TimeNotes:
    return TimeNotes()


def _track(ctx: ScenarioContext, who: str, repo: str, index: int, body: dict[str, object]) -> requests.Response:
    ref = ctx.repo(repo)
    return acting(ctx, who, TimesApi).add(ref.owner, ref.name, index, body)


def _listed(ctx: ScenarioContext) -> list[str]:
    """``user: seconds`` of each listed entry, with users by their short names."""
    body = json_of(ctx.last_response())
    assert isinstance(body, list), f"expected a list of tracked times, got {str(body)[:200]}"
    shorts = {user_name(ctx, short): short for short in ctx.users}
    return [f"{shorts.get(item['user_name'], item['user_name'])}: {item['time']}" for item in body]


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" tracked {seconds:d} seconds on issue {index:d} of "{repo}"'))
def given_tracked(
    ctx: ScenarioContext, time_notes: TimeNotes, *, who: str, seconds: int, index: int, repo: str
) -> None:
    response = _track(ctx, who, repo, index, {"time": seconds})
    time_notes.ids[who] = int(expect_status(response, 200, "track time")["id"])


@given(phrase('"{who}" tracked {seconds:d} seconds on issue {index:d} of "{repo}" on {day}'))
def given_tracked_on(ctx: ScenarioContext, *, who: str, seconds: int, index: int, repo: str, day: str) -> None:
    """An entry created at midnight UTC of ``day`` (``2024-01-01``)."""
    response = _track(ctx, who, repo, index, {"time": seconds, "created": f"{day}T00:00:00Z"})
    expect_status(response, 200, "track time")


@given(phrase('the repository "{repo}" has its issues turned off'))
def given_no_issues(ctx: ScenarioContext, repo: str) -> None:
    """The owner turned the issues unit off (time tracking lives in it)."""
    ref = ctx.repo(repo)
    expect_status(repo_owner(ctx, repo).area(RepoEditApi).edit(ref.owner, ref.name, has_issues=False), 200, "edit")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" tracks {seconds:d} seconds on issue {index:d} of "{repo}"'))
def when_track(ctx: ScenarioContext, who: str, seconds: int, index: int, repo: str) -> None:
    ctx.response = _track(ctx, who, repo, index, {"time": seconds})


@when(phrase('"{who}" tracks {seconds:d} seconds on issue {index:d} of "{repo}" for "{user}"'))
def when_track_for(ctx: ScenarioContext, *, who: str, seconds: int, index: int, repo: str, user: str) -> None:
    body = {"time": seconds, "user_name": user_name(ctx, user)}
    ctx.response = _track(ctx, who, repo, index, body)


@when(phrase('"{who}" lists the tracked times of "{repo}"'))
def when_repo_times(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TimesApi).repo_times(ref.owner, ref.name)


@when(phrase('"{who}" lists the tracked times of issue {index:d} of "{repo}"'))
def when_issue_times(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TimesApi).issue_times(ref.owner, ref.name, index)


@when(phrase('"{who}" lists the tracked times of "{repo}" of the user "{user}"'))
def when_repo_times_of(ctx: ScenarioContext, who: str, repo: str, user: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TimesApi).repo_times(ref.owner, ref.name, user=user_name(ctx, user))


@when(phrase('"{who}" lists the tracked times of "{repo}" since {day}'))
def when_repo_times_since(ctx: ScenarioContext, who: str, repo: str, day: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TimesApi).repo_times(ref.owner, ref.name, since=f"{day}T00:00:00Z")


@when(phrase('"{who}" lists their own tracked times'))
def when_my_times(ctx: ScenarioContext, who: str) -> None:
    ctx.response = acting(ctx, who, TimesApi).my_times()


@when(phrase('"{who}" reads the tracked times of "{user}" in "{repo}"'))
def when_user_times(ctx: ScenarioContext, who: str, user: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TimesApi).user_times(ref.owner, ref.name, user_name(ctx, user))


@when(phrase('"{who}" deletes the time "{owner}" tracked on issue {index:d} of "{repo}"'))
def when_delete(ctx: ScenarioContext, time_notes: TimeNotes, *, who: str, owner: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    time_id = time_notes.ids.get(owner)
    assert time_id, f'"{owner}" tracked no time in a Given step'
    ctx.response = acting(ctx, who, TimesApi).delete(ref.owner, ref.name, index, time_id)


@given(phrase('"{who}" reset the tracked time on issue {index:d} of "{repo}"'))
def given_reset(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, TimesApi).reset(ref.owner, ref.name, index), 204, "reset the tracked time")


@when(phrase('"{who}" resets the tracked time on issue {index:d} of "{repo}"'))
def when_reset(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TimesApi).reset(ref.owner, ref.name, index)


# ---------------------------------------------------------------- Then


@then(phrase('the tracked time is of "{user}" on issue {index:d}'))
def then_time_of(ctx: ScenarioContext, user: str, index: int) -> None:
    body = json_of(ctx.last_response())
    assert body.get("user_name") == user_name(ctx, user), f"user_name is {body.get('user_name')!r}"
    assert body.get("issue", {}).get("number") == index, f"the issue is {body.get('issue')}"


@then(phrase('the listed times are "{entries}"'))
def then_listed(ctx: ScenarioContext, entries: str) -> None:
    """``user: seconds`` in order; ``none`` for an empty list."""
    expected = [] if entries == "none" else comma_list(entries)
    found = _listed(ctx)
    assert found == expected, f"the listed times are {found}, expected {expected}"


@then(phrase('the tracked times of "{repo}" are "{entries}"'))
def then_repo_times(ctx: ScenarioContext, repo: str, entries: str) -> None:
    """Read as the admin."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, ADMIN, TimesApi).repo_times(ref.owner, ref.name)
    expect_status(ctx.response, 200, "list the tracked times")
    expected = [] if entries == "none" else comma_list(entries)
    assert _listed(ctx) == expected, f"the tracked times are {_listed(ctx)}, expected {expected}"
