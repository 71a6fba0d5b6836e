"""Assignees: who can be assigned in a repository, and adding or removing the assignees of an issue.

Users are named by their short scenario names, comma separated (``"bob, dev"``); a name with a
placeholder (``"{dev}-nobody"``) is sent as it expands, for users that do not exist.
"""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, then, when

from conformance.api.assignees import AssigneesApi
from conformance.api.issues import IssuesApi
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import expand, expect_status, response_json
from steps.parsing import phrase

__all__: list[str] = []


def _name(ctx: ScenarioContext, short: str) -> str:
    return expand(ctx, short) if "{" in short else ctx.owner_name(short)


def _names(ctx: ScenarioContext, users: str) -> list[str]:
    return [_name(ctx, short.strip()) for short in users.split(",") if short.strip()]


def _assignees(ctx: ScenarioContext, repo: str, index: int) -> list[str]:
    """The logins of the issue's assignees, read by the admin; also checks the deprecated ``assignee``."""
    ref = ctx.repo(repo)
    issue: dict[str, Any] = expect_status(
        acting(ctx, ADMIN, IssuesApi).get_issue(ref.owner, ref.name, index), 200, f"read issue {index}"
    )
    logins = [user["login"] for user in issue.get("assignees") or []]
    first = (issue.get("assignee") or {}).get("login")
    assert first == (logins[0] if logins else None), f"assignee is {first!r} but assignees are {logins}"
    return logins


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" assigned "{users}" to issue {index:d} of "{repo}"'))
def given_assigned(ctx: ScenarioContext, who: str, users: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    response = acting(ctx, who, AssigneesApi).add_assignees(ref.owner, ref.name, index, _names(ctx, users))
    expect_status(response, 201, f'assign "{users}" to issue {index}')


# ---------------------------------------------------------------- When


@when(phrase('"{who}" lists the assignees of "{repo}"'))
def when_list(ctx: ScenarioContext, who: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, AssigneesApi).list_assignees(ref.owner, ref.name)


@when(phrase('"{who}" checks whether "{user}" can be assigned in "{repo}"'))
def when_check(ctx: ScenarioContext, who: str, user: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, AssigneesApi).check_assignee(ref.owner, ref.name, _name(ctx, user))


@when(phrase('"{who}" checks whether "{user}" can be assigned to issue {index:d} of "{repo}"'))
def when_check_issue(ctx: ScenarioContext, who: str, user: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, AssigneesApi).check_issue_assignee(ref.owner, ref.name, index, _name(ctx, user))


@when(phrase('"{who}" assigns "{users}" to issue {index:d} of "{repo}"'))
def when_assign(ctx: ScenarioContext, who: str, users: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, AssigneesApi).add_assignees(ref.owner, ref.name, index, _names(ctx, users))


@when(phrase('"{who}" unassigns "{users}" from issue {index:d} of "{repo}"'))
def when_unassign(ctx: ScenarioContext, who: str, users: str, index: int, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, AssigneesApi).remove_assignees(ref.owner, ref.name, index, _names(ctx, users))


# ---------------------------------------------------------------- Then


@then(phrase('issue {index:d} of "{repo}" is assigned to "{users}"'))
def then_assigned(ctx: ScenarioContext, index: int, repo: str, users: str) -> None:
    """Exactly these assignees, in the order they were assigned; ``assignee`` is the first."""
    expected = _names(ctx, users)
    found = _assignees(ctx, repo, index)
    assert found == expected, f"the issue is assigned to {found}, expected {expected}"


@then(phrase('issue {index:d} of "{repo}" has no assignees'))
def then_unassigned(ctx: ScenarioContext, index: int, repo: str) -> None:
    found = _assignees(ctx, repo, index)
    assert found == [], f"the issue is assigned to {found}"


@then(phrase('the response shows the assignees "{users}"'))
def then_response_assignees(ctx: ScenarioContext, users: str) -> None:
    """The returned ``Issue`` carries exactly these assignees, in order."""
    body = response_json(ctx)
    found = [user["login"] for user in body.get("assignees") or []]
    assert found == _names(ctx, users), f"the response shows the assignees {found}"


@then(phrase('the timeline of issue {index:d} of "{repo}" records the assignee changes "{changes}" by "{who}"'))
def then_timeline_changes(ctx: ScenarioContext, index: int, repo: str, changes: str, who: str) -> None:
    """``assignees`` entries in order: ``+bob`` an assignment, ``-bob`` a removal (``removed_assignee``);
    ``who`` names everybody who made them (comma separated)."""
    ref = ctx.repo(repo)
    timeline = expect_status(acting(ctx, ADMIN, IssuesApi).timeline(ref.owner, ref.name, index), 200, "read timeline")
    found = [
        ("-" if entry["removed_assignee"] else "+") + str((entry.get("assignee") or {}).get("login"))
        for entry in timeline
        if entry["type"] == "assignees"
    ]
    expected = [change.strip()[0] + _name(ctx, change.strip()[1:]) for change in changes.split(",") if change.strip()]
    assert found == expected, f"the timeline records {found}, expected {expected}"
    doers = {entry["user"]["login"] for entry in timeline if entry["type"] == "assignees"}
    assert doers == set(_names(ctx, who)), f"the changes were made by {doers}"
