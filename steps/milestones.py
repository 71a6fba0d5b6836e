"""Milestones: creating, listing, reading (by id or by name), editing and deleting them, and the milestone
an issue belongs to. Given steps note each milestone's id by its title (:class:`MilestoneNotes`); checks
read with the admin's token, never as the acting user."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.issues import IssuesApi
from conformance.api.milestones import MilestonesApi
from conformance.api.pulls import PullsApi
from conformance.context import ScenarioContext
from steps.actors import ADMIN, acting
from steps.common import comma_list, expect_status, json_option, response_json
from steps.issues import IssueNotes
from steps.parsing import phrase

__all__ = ["MilestoneNotes"]


@dataclass
class MilestoneNotes:
    """Milestone ids by (repository, title), as the scenario's Given steps created them."""

    ids: dict[tuple[str, str], int] = field(default_factory=dict)

    def id_of(self, repo: str, title: str) -> int:
        found = self.ids.get((repo, title))
        assert found is not None, f'no milestone "{title}" in "{repo}": add `Given "..." created the milestone ...`'
        return found


@pytest.fixture
def milestone_notes() -> MilestoneNotes:
    """The scenario's milestones."""
    return MilestoneNotes()


def _create(ctx: ScenarioContext, notes: MilestoneNotes, who: str, repo: str, option: dict[str, Any]) -> None:
    ref = ctx.repo(repo)
    created = expect_status(
        acting(ctx, who, MilestonesApi).create(ref.owner, ref.name, option), 201, f"create {option.get('title')}"
    )
    notes.ids[repo, str(option.get("title", ""))] = int(created["id"])


def _milestone(ctx: ScenarioContext, notes: MilestoneNotes, repo: str, title: str) -> dict[str, Any]:
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, MilestonesApi).get(ref.owner, ref.name, notes.id_of(repo, title))
    return dict(expect_status(answer, 200, f"read the milestone {title}"))


def _issue(ctx: ScenarioContext, repo: str, index: int) -> dict[str, Any]:
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, IssuesApi).get_issue(ref.owner, ref.name, index)
    return dict(expect_status(answer, 200, f"read issue {index}"))


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" created the milestone "{title}" in "{repo}"'))
def given_milestone(ctx: ScenarioContext, milestone_notes: MilestoneNotes, who: str, title: str, repo: str) -> None:
    _create(ctx, milestone_notes, who, repo, {"title": title})


@given(phrase('"{who}" created the closed milestone "{title}" in "{repo}"'))
def given_closed(ctx: ScenarioContext, milestone_notes: MilestoneNotes, who: str, title: str, repo: str) -> None:
    _create(ctx, milestone_notes, who, repo, {"title": title, "state": "closed"})


@given(phrase('"{who}" opened the issue "{title}" in "{repo}" in the milestone "{milestone}"'))
def given_issue_in(
    ctx: ScenarioContext,
    milestone_notes: MilestoneNotes,
    issue_notes: IssueNotes,
    *,
    who: str,
    title: str,
    repo: str,
    milestone: str,
) -> None:
    ref = ctx.repo(repo)
    option = {"title": title, "milestone": milestone_notes.id_of(repo, milestone)}
    created = expect_status(acting(ctx, who, IssuesApi).create_issue(ref.owner, ref.name, option), 201, title)
    issue_notes.numbers[repo, title] = int(created["number"])


# ---------------------------------------------------------------- When


@when(phrase('"{who}" creates a milestone in "{repo}" with the body'))
def when_create(ctx: ScenarioContext, who: str, repo: str, docstring: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MilestonesApi).create(ref.owner, ref.name, json_option(ctx, docstring))


@when(phrase('"{who}" lists the milestones of "{repo}" with "{query}"'))
def when_list(ctx: ScenarioContext, who: str, repo: str, query: str) -> None:
    """``query`` is ``key=value&key=value`` (state, name, page, limit)."""
    ref = ctx.repo(repo)
    params = dict(part.split("=", 1) for part in query.split("&") if part)
    ctx.response = acting(ctx, who, MilestonesApi).list(ref.owner, ref.name, **params)


@when(phrase('"{who}" reads the milestone "{title}" of "{repo}" by its id'))
def when_read_id(ctx: ScenarioContext, milestone_notes: MilestoneNotes, who: str, title: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MilestonesApi).get(ref.owner, ref.name, milestone_notes.id_of(repo, title))


@when(phrase('"{who}" reads the milestone "{title}" of "{repo}" by its name'))
def when_read_name(ctx: ScenarioContext, who: str, title: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MilestonesApi).get(ref.owner, ref.name, title)


@when(phrase('"{who}" edits the milestone "{title}" of "{repo}" with the body'))
def when_edit(
    ctx: ScenarioContext, milestone_notes: MilestoneNotes, *, who: str, title: str, repo: str, docstring: str
) -> None:
    ref = ctx.repo(repo)
    key = milestone_notes.id_of(repo, title)
    ctx.response = acting(ctx, who, MilestonesApi).edit(ref.owner, ref.name, key, json_option(ctx, docstring))


@when(phrase('"{who}" deletes the milestone "{title}" of "{repo}"'))
def when_delete(ctx: ScenarioContext, milestone_notes: MilestoneNotes, who: str, title: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, MilestonesApi).delete(ref.owner, ref.name, milestone_notes.id_of(repo, title))


@when(phrase('"{who}" puts issue {index:d} of "{repo}" in the milestone "{title}"'))
def when_put_in(
    ctx: ScenarioContext, milestone_notes: MilestoneNotes, *, who: str, index: int, repo: str, title: str
) -> None:
    ref = ctx.repo(repo)
    option = {"milestone": milestone_notes.id_of(repo, title)}
    ctx.response = acting(ctx, who, IssuesApi).edit_issue(ref.owner, ref.name, index, option)


@when(phrase('"{who}" puts pull request {index:d} of "{repo}" in the milestone "{title}"'))
def when_put_pull_in(
    ctx: ScenarioContext, milestone_notes: MilestoneNotes, *, who: str, index: int, repo: str, title: str
) -> None:
    """An ``EditPullRequestOption`` with the milestone's id."""
    ref = ctx.repo(repo)
    option = {"milestone": milestone_notes.id_of(repo, title)}
    ctx.response = acting(ctx, who, PullsApi).edit_pull(ref.owner, ref.name, index, option)


@when(phrase('"{who}" opens the issue "{title}" in "{repo}" in the milestone "{milestone}"'))
def when_open_in(
    ctx: ScenarioContext, milestone_notes: MilestoneNotes, *, who: str, title: str, repo: str, milestone: str
) -> None:
    ref = ctx.repo(repo)
    option = {"title": title, "milestone": milestone_notes.id_of(repo, milestone)}
    ctx.response = acting(ctx, who, IssuesApi).create_issue(ref.owner, ref.name, option)


# ---------------------------------------------------------------- Then


@then(phrase('the response is the milestone "{title}" of "{repo}"'))
def then_is_milestone(ctx: ScenarioContext, milestone_notes: MilestoneNotes, title: str, repo: str) -> None:
    body = response_json(ctx)
    assert (body["id"], body["title"]) == (milestone_notes.id_of(repo, title), title), f"the response is {body}"


@then(phrase('the response lists the milestones "{titles}"'))
def then_lists(ctx: ScenarioContext, titles: str) -> None:
    """Titles in order; ``nothing`` for an empty list."""
    expected = [] if titles == "nothing" else comma_list(titles)
    found = [item["title"] for item in response_json(ctx)]
    assert found == expected, f"the response lists {found}, expected {expected}"


@then(phrase('the milestone "{title}" of "{repo}" counts {opened:d} open and {closed:d} closed issues'))
def then_counts(
    ctx: ScenarioContext, milestone_notes: MilestoneNotes, *, title: str, repo: str, opened: int, closed: int
) -> None:
    body = _milestone(ctx, milestone_notes, repo, title)
    found = (body["open_issues"], body["closed_issues"])
    assert found == (opened, closed), f"the milestone counts {found[0]} open and {found[1]} closed issues"


@then(phrase('the milestone "{title}" of "{repo}" is {state:w}'))
def then_state(ctx: ScenarioContext, milestone_notes: MilestoneNotes, title: str, repo: str, state: str) -> None:
    assert _milestone(ctx, milestone_notes, repo, title)["state"] == state


@then(phrase('the milestone "{title}" of "{repo}" no longer exists'))
def then_gone(ctx: ScenarioContext, milestone_notes: MilestoneNotes, title: str, repo: str) -> None:
    ref = ctx.repo(repo)
    answer = acting(ctx, ADMIN, MilestonesApi).get(ref.owner, ref.name, milestone_notes.id_of(repo, title))
    assert answer.status_code == 404, f"the milestone is still there: {answer.status_code}"


@then(phrase('the milestones of "{repo}" are "{titles}"'))
def then_all(ctx: ScenarioContext, repo: str, titles: str) -> None:
    """Every milestone, open or closed, read by the admin; ``nothing`` for none."""
    ref = ctx.repo(repo)
    listed = expect_status(acting(ctx, ADMIN, MilestonesApi).list(ref.owner, ref.name, state="all"), 200, "list")
    expected = [] if titles == "nothing" else comma_list(titles)
    assert [item["title"] for item in listed] == expected, f"the milestones are {listed}"


@then(phrase('issue {index:d} of "{repo}" is in the milestone "{title}"'))
def then_issue_in(ctx: ScenarioContext, milestone_notes: MilestoneNotes, index: int, repo: str, title: str) -> None:
    milestone = _issue(ctx, repo, index)["milestone"]
    assert milestone is not None, "the issue is in no milestone"
    assert (milestone["id"], milestone["title"]) == (milestone_notes.id_of(repo, title), title), f"it is in {milestone}"


@then(phrase('the last timeline entry of issue {index:d} of "{repo}" moves it from the milestone "{old}" to "{new}"'))
def then_timeline_move(
    ctx: ScenarioContext, milestone_notes: MilestoneNotes, *, index: int, repo: str, old: str, new: str
) -> None:
    ref = ctx.repo(repo)
    entries = expect_status(acting(ctx, ADMIN, IssuesApi).timeline(ref.owner, ref.name, index), 200, "timeline")
    last = entries[-1]
    assert last["type"] == "milestone", f"the last entry is a {last['type']!r}"
    moved = ((last["old_milestone"] or {}).get("id"), (last["milestone"] or {}).get("id"))
    expected = (milestone_notes.id_of(repo, old), milestone_notes.id_of(repo, new))
    assert moved == expected, f"the entry moves the issue from {last['old_milestone']} to {last['milestone']}"


@then(phrase('issue {index:d} of "{repo}" is in no milestone'))
def then_issue_in_none(ctx: ScenarioContext, index: int, repo: str) -> None:
    milestone = _issue(ctx, repo, index)["milestone"]
    assert milestone is None, f"the issue is in the milestone {milestone}"
