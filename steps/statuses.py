"""Commit statuses: reporting them on a branch's tip, listing them by SHA or by ref, the combined status,
and the statuses Actions jobs report on the commit their run is about.

Branch tips are read fresh over the branches API as the repository's owner; the SHA a step reported on
is kept in :class:`StatusNotes` so a Then step can look at that commit even after the branch moved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.branches import BranchesApi
from conformance.api.statuses import StatusesApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from steps.actors import acting, repo_owner
from steps.ci import CiWorld, find_run, wait_for
from steps.common import expect_status, json_option, response_json
from steps.parsing import phrase

__all__ = ["StatusNotes"]


@dataclass
class StatusNotes:
    """The commits statuses were reported on, by repository and branch."""

    commits: dict[tuple[str, str], str] = field(default_factory=dict)


@pytest.fixture
def status_notes() -> StatusNotes:
    """The scenario's status notes."""
    return StatusNotes()


def branch_tip(ctx: ScenarioContext, repo: str, branch: str) -> str:
    """The commit the branch points at now."""
    ref = ctx.repo(repo)
    body = expect_status(
        repo_owner(ctx, repo).area(BranchesApi).get(ref.owner, ref.name, branch), 200, f'read the branch "{branch}"'
    )
    sha: str = body["commit"]["id"]
    return sha


def _report(
    ctx: ScenarioContext, notes: StatusNotes, *, who: str, repo: str, branch: str, option: dict[str, Any]
) -> Any:
    ref = ctx.repo(repo)
    sha = branch_tip(ctx, repo, branch)
    notes.commits[repo, branch] = sha
    return acting(ctx, who, StatusesApi).create(ref.owner, ref.name, sha, option)


def _contexts(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


# ---------------------------------------------------------------- Given


REPORTED = '"{who}" reported the status "{state}" with the context "{context}" on the branch "{branch}" of "{repo}"'


@given(phrase(REPORTED))
def given_status(
    ctx: ScenarioContext, status_notes: StatusNotes, *, who: str, state: str, context: str, branch: str, repo: str
) -> None:
    response = _report(
        ctx, status_notes, who=who, repo=repo, branch=branch, option={"state": state, "context": context}
    )
    expect_status(response, 201, f'report "{state}" for "{context}"')


# ---------------------------------------------------------------- When


@when(phrase('"{who}" reports the status "{state}" with the context "{context}" on the branch "{branch}" of "{repo}"'))
def when_status(
    ctx: ScenarioContext, status_notes: StatusNotes, *, who: str, state: str, context: str, branch: str, repo: str
) -> None:
    option = {"state": state, "context": context, "target_url": "https://ci.example/build/1", "description": "Build"}
    ctx.response = _report(ctx, status_notes, who=who, repo=repo, branch=branch, option=option)


@when(phrase('"{who}" reports a status on the branch "{branch}" of "{repo}" with the body'))
def when_status_body(
    ctx: ScenarioContext, status_notes: StatusNotes, *, who: str, branch: str, repo: str, docstring: str
) -> None:
    option = json_option(ctx, docstring)
    ctx.response = _report(ctx, status_notes, who=who, repo=repo, branch=branch, option=option)


@when(phrase('"{who}" reports the status "{state}" on the commit "{sha}" of "{repo}"'))
def when_status_on_sha(ctx: ScenarioContext, who: str, state: str, sha: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StatusesApi).create(ref.owner, ref.name, sha, {"state": state})


@when(phrase('"{who}" reads the combined status of "{ref_name}" in "{repo}"'))
def when_combined(ctx: ScenarioContext, who: str, ref_name: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StatusesApi).combined(ref.owner, ref.name, ref_name)


@when(phrase('"{who}" lists the statuses of "{ref_name}" in "{repo}"'))
def when_list_by_ref(ctx: ScenarioContext, who: str, ref_name: str, repo: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StatusesApi).list_by_ref(ref.owner, ref.name, ref_name)


@when(phrase('"{who}" lists the statuses of "{ref_name}" in "{repo}" filtered by the state "{state}"'))
def when_list_by_state(ctx: ScenarioContext, who: str, ref_name: str, repo: str, state: str) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, StatusesApi).list_by_ref(ref.owner, ref.name, ref_name, state=state)


@when(phrase('"{who}" lists the statuses of the tip of "{branch}" of "{repo}" by its SHA sorted "{sort}"'))
def when_list_by_sha(ctx: ScenarioContext, who: str, branch: str, repo: str, sort: str) -> None:
    ref = ctx.repo(repo)
    sha = branch_tip(ctx, repo, branch)
    ctx.response = acting(ctx, who, StatusesApi).list_by_sha(ref.owner, ref.name, sha, sort=sort)


# ---------------------------------------------------------------- Then


@then(phrase('the statuses listed are "{expected}" in this order'))
def statuses_in_order(ctx: ScenarioContext, expected: str) -> None:
    """``context:state`` pairs, comma-separated, in the order of the answer."""
    listed = response_json(ctx)
    assert isinstance(listed, list), f"expected a list, got {listed!r}"
    found = [f"{item.get('context')}:{item.get('status')}" for item in listed]
    assert found == _contexts(expected), f"listed {found}"


@then(phrase('the statuses listed are "{expected}" in any order'))
def statuses_in_any_order(ctx: ScenarioContext, expected: str) -> None:
    """``context:state`` pairs, comma-separated, whatever their order: Gitea sorts a list by the creation
    second only, so statuses made within one second come in the database's order."""
    listed = response_json(ctx)
    assert isinstance(listed, list), f"expected a list, got {listed!r}"
    found = sorted(f"{item.get('context')}:{item.get('status')}" for item in listed)
    assert found == sorted(_contexts(expected)), f"listed {found}"


@then(phrase('the combined status holds the contexts "{expected}"'))
def combined_contexts(ctx: ScenarioContext, expected: str) -> None:
    body = response_json(ctx)
    statuses = body.get("statuses") or []
    found = sorted(f"{item.get('context')}:{item.get('status')}" for item in statuses)
    assert found == sorted(_contexts(expected)), f"the combined status holds {found}"


@then(phrase('the response field "{field}" is the tip of "{branch}" of "{repo}"'))
def field_is_tip(ctx: ScenarioContext, field: str, branch: str, repo: str) -> None:
    value = response_json(ctx).get(field)
    assert value == branch_tip(ctx, repo, branch), f'"{field}" is {value!r}'


@then(phrase('the branch "{branch}" of "{repo}" has {count:d} statuses'))
def branch_status_count(ctx: ScenarioContext, branch: str, repo: str, count: int) -> None:
    ref = ctx.repo(repo)
    response = ctx.admin.area(StatusesApi).list_by_ref(ref.owner, ref.name, branch)
    listed = expect_status(response, 200, f'list the statuses of "{branch}"')
    assert len(listed) == count, f"{len(listed)} statuses: {listed!r}"


# ---------------------------------------------------------------- Actions


def _run_status(ci_world: CiWorld, file_name: str, context: str, state: str) -> None:
    """The latest status of ``context`` on the commit of the run of ``file_name`` once it is ``state``."""
    ctx, repo = ci_world.ctx, ci_world.repository()
    run = find_run(ctx, repo, file_name)
    sha = str(run.get("head_sha"))
    api = ctx.admin.area(StatusesApi)

    def probe() -> dict[str, Any] | None:
        body = json_of(api.combined(repo.owner, repo.name, sha))
        for item in body.get("statuses") or []:
            if item.get("context") == context and item.get("status") == state:
                found: dict[str, Any] = item
                return found
        return None

    wait_for(probe, f'the status "{state}" of "{context}" on {sha}')


@then(phrase('the commit of the run of "{file_name}" has the status "{state}" for "{context}"'))
def run_commit_status(ci_world: CiWorld, file_name: str, state: str, context: str) -> None:
    _run_status(ci_world, file_name, context, state)


@then(phrase('the status "{context}" of the run of "{file_name}" links to the run'))
def run_status_links(ci_world: CiWorld, context: str, file_name: str) -> None:
    ctx, repo = ci_world.ctx, ci_world.repository()
    run = find_run(ctx, repo, file_name)
    body = json_of(ctx.admin.area(StatusesApi).combined(repo.owner, repo.name, str(run.get("head_sha"))))
    matching = [item for item in body.get("statuses") or [] if item.get("context") == context]
    assert matching, f'no status "{context}" on the run\'s commit: {body!r}'
    target = str(matching[0].get("target_url"))
    assert target.startswith(f"{run.get('html_url')}/"), f"target_url {target!r} is not under {run.get('html_url')}"


@then(phrase('the commit of the run of "{file_name}" has no status'))
def run_commit_no_status(ci_world: CiWorld, file_name: str) -> None:
    ctx, repo = ci_world.ctx, ci_world.repository()
    run = find_run(ctx, repo, file_name)
    listed = json_of(ctx.admin.area(StatusesApi).list_by_sha(repo.owner, repo.name, str(run.get("head_sha"))))
    assert listed == [], f"the run's commit has statuses: {listed!r}"
