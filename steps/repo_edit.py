"""Steps that edit a repository (``PATCH /repos/{owner}/{repo}``): rename, fields, default branch, archive.

A rename is recorded in the cleanup ledger under the new name and the scenario's ``RepoRef`` follows it,
so later steps and the end-of-run cleanup reach the repository where it now is.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.repo_edit import RepoEditApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.ledger import CleanupLedger
from steps.actors import acting, repo_owner
from steps.common import expect_status, json_document
from steps.parsing import phrase


@dataclass
class RepoEditNotes:
    """The name each renamed repository (by short name) had before the rename."""

    old_names: dict[str, str] = field(default_factory=dict)


@pytest.fixture
def repo_edit_notes() -> RepoEditNotes:
    """The scenario's repository renames."""
    return RepoEditNotes()


def _edit(ctx: ScenarioContext, who: str, repo: str, fields: dict[str, Any]) -> Any:
    ref = ctx.repo(repo)
    return acting(ctx, who, RepoEditApi).edit(ref.owner, ref.name, **fields)


@given(phrase('the repository "{repo}" is archived'))
def given_archived(ctx: ScenarioContext, repo: str) -> None:
    """The owner archived the repository."""
    ref = ctx.repo(repo)
    expect_status(repo_owner(ctx, repo).area(RepoEditApi).edit(ref.owner, ref.name, archived=True), 200, "archive")


@when(phrase('"{who}" renames the repository "{repo}" to "{new}"'))
def rename(
    ctx: ScenarioContext, repo_edit_notes: RepoEditNotes, ledger: CleanupLedger, *, who: str, repo: str, new: str
) -> None:
    """``PATCH`` with a new ``name`` (made unique for the run); on success the scenario follows the rename."""
    ref = ctx.repo(repo)
    name = ctx.real_name(new)
    ctx.response = _edit(ctx, who, repo, {"name": name})
    if ctx.response.status_code == 200:
        ledger.record_repo(ref.owner, name)
        repo_edit_notes.old_names[repo] = ref.name
        ctx.repos[repo] = replace(ref, name=name)


@when(phrase('"{who}" renames the repository "{repo}" to the name of "{other}"'))
def rename_to_taken(ctx: ScenarioContext, who: str, repo: str, other: str) -> None:
    """``PATCH`` with the name another repository of the owner has."""
    ctx.response = _edit(ctx, who, repo, {"name": ctx.repo(other).name})


@when(phrase('"{who}" edits the repository "{repo}" setting "{field}" to {value}'))
def edit_field(ctx: ScenarioContext, who: str, repo: str, field: str, value: str) -> None:
    """``PATCH`` with one field; the value is JSON (``true``, ``"text"``)."""
    ctx.response = _edit(ctx, who, repo, {field: json_document(value)})


@then(phrase('the repository "{repo}" answers under its new name'))
def answers_under_new_name(ctx: ScenarioContext, repo: str) -> None:
    """The edited Repository carries the new name, and reading it by that name works."""
    ref = ctx.repo(repo)
    assert json_of(ctx.last_response())["full_name"] == ref.full_name, "the answer does not carry the new name"
    response = ctx.admin.repos.get(ref.owner, ref.name)
    assert response.status_code == 200, f"{ref.full_name} answered {response.status_code}"


@then(phrase('the old name of "{repo}" is not found'))
def old_name_gone(ctx: ScenarioContext, repo_edit_notes: RepoEditNotes, repo: str) -> None:
    """The repository's former name answers 404."""
    ref = ctx.repo(repo)
    old = repo_edit_notes.old_names.get(repo)
    assert old, "the scenario did not rename the repository"
    response = ctx.admin.repos.get(ref.owner, old)
    assert response.status_code == 404, f"the old name answered {response.status_code}"


@then(phrase('the repository "{repo}" has the default branch "{branch}"'))
def has_default_branch(ctx: ScenarioContext, repo: str, branch: str) -> None:
    """Reading the repository shows this default branch."""
    ref = ctx.repo(repo)
    body = json_of(ctx.admin.repos.get(ref.owner, ref.name))
    assert body.get("default_branch") == branch, f"the default branch is {body.get('default_branch')!r}"


@then(phrase('the repository "{repo}" is archived'))
def is_archived(ctx: ScenarioContext, repo: str) -> None:
    """Reading the repository shows it archived, with the time it was archived."""
    ref = ctx.repo(repo)
    body = json_of(ctx.admin.repos.get(ref.owner, ref.name))
    assert body.get("archived") is True, "the repository is not archived"
    assert not str(body.get("archived_at", "")).startswith("0001"), "archived_at is not set"
