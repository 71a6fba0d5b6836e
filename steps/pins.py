"""Pins: pinning, unpinning and moving issues and pull requests, the pinned lists and ``new_pin_allowed``.

The pin limit of a live forge is unknown to the suite, so the limit scenarios pin until the forge says
no new pin is allowed and then try one more: that works for any configured maximum.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.issues import IssuesApi
from conformance.api.pins import PinsApi
from conformance.api.pulls import PullsApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.seeding import SeededData
from steps.actors import ADMIN, acting
from steps.common import expect_status
from steps.issues import IssueNotes
from steps.parsing import phrase

__all__: list[str] = []

MAX_FILL = 60
"""Pins a limit scenario makes at most before giving up (a forge allowing more is not testable this way)."""


@dataclass
class PinNotes:
    """The issues pinned by ``until no new pin is allowed``, per repository, in pin order."""

    filled: dict[str, list[int]] = field(default_factory=dict)


@pytest.fixture
def pin_notes() -> PinNotes:
    """The scenario's filled pin lists."""
    return PinNotes()


def _numbers(text: str) -> list[int]:
    """``"2, 1, 3"`` as numbers; ``"none"`` is the empty list."""
    return [] if text.strip() == "none" else [int(part) for part in text.split(",") if part.strip()]


def _pinned(ctx: ScenarioContext, repo: str, *, pulls: bool) -> list[dict[str, Any]]:
    ref = ctx.repo(repo)
    api = acting(ctx, ADMIN, PinsApi)
    response = api.pinned_pulls(ref.owner, ref.name) if pulls else api.pinned_issues(ref.owner, ref.name)
    body = expect_status(response, 200, "list the pinned entries")
    assert isinstance(body, list)
    return body


def _allowed(ctx: ScenarioContext, who: str, repo: str) -> dict[str, Any]:
    ref = ctx.repo(repo)
    body = expect_status(acting(ctx, who, PinsApi).new_pin_allowed(ref.owner, ref.name), 200, "ask whether a pin fits")
    assert isinstance(body, dict)
    return body


def _assert_order(found: list[dict[str, Any]], expected: list[int]) -> None:
    """The numbers in this order, with the positions 1..n."""
    numbers = [item["number"] for item in found]
    assert numbers == expected, f"pinned in this order: {numbers}, expected {expected}"
    positions = [item["pin_order"] for item in found]
    assert positions == list(range(1, len(found) + 1)), f"the positions are {positions}, expected 1..{len(found)}"


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" pinned issue {index:d} of "{repo}"'))
def given_pinned(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    expect_status(acting(ctx, who, PinsApi).pin(ref.owner, ref.name, index), 204, f"pin issue {index}")


@given(phrase('"{who}" pinned the issues "{numbers}" of "{repo}" in this order'))
def given_pinned_in_order(ctx: ScenarioContext, who: str, numbers: str, repo: str) -> None:
    for index in _numbers(numbers):
        given_pinned(ctx, who, index, repo)


@given(phrase('"{who}" pinned new issues of "{repo}" until no new pin is allowed'))
def given_filled(ctx: ScenarioContext, fake: SeededData, pin_notes: PinNotes, who: str, repo: str) -> None:
    """Opens and pins issues (titles drawn) while ``new_pin_allowed`` says ``issues: true``; notes the pinned."""
    ref = ctx.repo(repo)
    for count in range(MAX_FILL + 1):
        if not _allowed(ctx, who, repo)["issues"]:
            break
        assert count < MAX_FILL, f"{repo} still allows pins after {MAX_FILL}: its limit is too high for this scenario"
        created = acting(ctx, who, IssuesApi).create_issue(ref.owner, ref.name, {"title": fake.sentence()})
        issue = expect_status(created, 201, "open an issue to pin")
        expect_status(acting(ctx, who, PinsApi).pin(ref.owner, ref.name, issue["number"]), 204, "pin it")
    pin_notes.filled[repo] = [item["number"] for item in _pinned(ctx, repo, pulls=False)]


# ---------------------------------------------------------------- When


@when(phrase('"{who}" pins issue {index:d} of "{repo}"'))
def when_pin(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PinsApi).pin(ref.owner, ref.name, index)


@when(phrase('"{who}" pins the issue "{title}" of "{repo}"'))
def when_pin_titled(ctx: ScenarioContext, issue_notes: IssueNotes, who: str, title: str, repo: str) -> None:
    when_pin(ctx, who, issue_notes.number(repo, title), repo)


@when(phrase('"{who}" unpins issue {index:d} of "{repo}"'))
def when_unpin(ctx: ScenarioContext, who: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PinsApi).unpin(ref.owner, ref.name, index)


@when(phrase('"{who}" moves the pin of issue {index:d} of "{repo}" to position {position}'))
def when_move(ctx: ScenarioContext, who: str, index: int, repo: str, position: str) -> None:
    """``position`` is sent as written (a number, or anything else to see it refused)."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PinsApi).move(ref.owner, ref.name, index, position)


@when(phrase('"{who}" lists the pinned issues of "{repo}"'))
def when_list_issues(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PinsApi).pinned_issues(ref.owner, ref.name)


@when(phrase('"{who}" lists the pinned pull requests of "{repo}"'))
def when_list_pulls(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PinsApi).pinned_pulls(ref.owner, ref.name)


@when(phrase('"{who}" asks whether new pins are allowed in "{repo}"'))
def when_allowed(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, PinsApi).new_pin_allowed(ref.owner, ref.name)


# ---------------------------------------------------------------- Then


@then(phrase('issue {index:d} of "{repo}" has the pin position {position:d}'))
def then_position(ctx: ScenarioContext, index: int, repo: str, position: int) -> None:
    ref = ctx.repo(repo)
    issue = expect_status(acting(ctx, ADMIN, IssuesApi).get_issue(ref.owner, ref.name, index), 200, "read the issue")
    assert issue["pin_order"] == position, f"issue {index} has the pin position {issue['pin_order']}"


@then(phrase('pull request {index:d} of "{repo}" has the pin position {position:d}'))
def then_pull_position(ctx: ScenarioContext, index: int, repo: str, position: int) -> None:
    ref = ctx.repo(repo)
    admin = acting(ctx, ADMIN, IssuesApi)
    pull = expect_status(PullsApi(admin.http, admin.site_url).get_pull(ref.owner, ref.name, index), 200, "read it")
    assert pull["pin_order"] == position, f"pull request {index} has the pin position {pull['pin_order']}"


@then(phrase('the issue "{title}" of "{repo}" is not pinned'))
def then_titled_unpinned(ctx: ScenarioContext, issue_notes: IssueNotes, title: str, repo: str) -> None:
    then_position(ctx, issue_notes.number(repo, title), repo, 0)


@then(phrase('the pinned issues of "{repo}" are "{numbers}" in this order'))
def then_pinned_issues(ctx: ScenarioContext, repo: str, numbers: str) -> None:
    _assert_order(_pinned(ctx, repo, pulls=False), _numbers(numbers))


@then(phrase('the pinned pull requests of "{repo}" are "{numbers}" in this order'))
def then_pinned_pulls(ctx: ScenarioContext, repo: str, numbers: str) -> None:
    _assert_order(_pinned(ctx, repo, pulls=True), _numbers(numbers))


@then(phrase('the response lists the pinned numbers "{numbers}" at positions 1 onwards'))
def then_response_order(ctx: ScenarioContext, numbers: str) -> None:
    body = json_of(ctx.last_response())
    assert isinstance(body, list), "the response is not a list"
    _assert_order(body, _numbers(numbers))


@then(phrase('"{repo}" still has the same pinned issues'))
def then_unchanged(ctx: ScenarioContext, pin_notes: PinNotes, repo: str) -> None:
    """The issues pinned by ``until no new pin is allowed``, in the same order."""
    assert repo in pin_notes.filled, f'add `Given "..." pinned new issues of "{repo}" until no new pin is allowed`'
    _assert_order(_pinned(ctx, repo, pulls=False), pin_notes.filled[repo])


@then(phrase('"{who}" is told that {kind} may {verdict} be pinned in "{repo}"'))
def then_allowed(ctx: ScenarioContext, who: str, kind: str, verdict: str, repo: str) -> None:
    """``kind`` is ``issues`` or ``pull requests``; ``verdict`` is ``still`` or ``no longer``."""
    field = {"issues": "issues", "pull requests": "pull_requests"}[kind]
    expected = {"still": True, "no longer": False}[verdict]
    found = _allowed(ctx, who, repo)[field]
    assert found is expected, f"new_pin_allowed.{field} is {found}, expected {expected}"
