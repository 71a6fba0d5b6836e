"""Steps of the branches area: list, get, create, delete, rename and move branches, and read their heads.

Given steps keep the history they made in :class:`BranchNotes` (per repository and branch, oldest
first) so commit and compare scenarios can name the commits they expect. Every When that changes a
branch first notes the heads of the branches it touches, so a Then can show that a refused request
left the refs exactly as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.branches import BranchesApi
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from steps.actors import acting, repo_owner
from steps.common import expect_status, response_json
from steps.parsing import phrase

__all__ = ["BranchNotes", "branch_head"]

NOT_NOTED = "not noted"


def branch_head(ctx: ScenarioContext, repo: str, branch: str) -> str | None:
    """The commit ``branch`` of ``repo`` points at now (read with the admin's token), None when missing."""
    ref = ctx.repo(repo)
    response = ctx.admin.area(BranchesApi).get(ref.owner, ref.name, branch)
    if response.status_code == 404:
        return None
    body = expect_status(response, 200, f"reading the branch {branch} of {repo}")
    return str(body["commit"]["id"])


@dataclass
class BranchNotes:
    """Per (repository, branch): the commits the scenario knows (oldest first), those Given steps made,
    and the head a When step saw before changing it (None for a branch that did not exist)."""

    histories: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    made: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    before: dict[tuple[str, str], str | None] = field(default_factory=dict)

    def history(self, ctx: ScenarioContext, repo: str, branch: str) -> list[str]:
        """The commits of ``branch`` the scenario knows, oldest first (its head when first asked)."""
        key = (repo, branch)
        if key not in self.histories:
            head = branch_head(ctx, repo, branch)
            self.histories[key] = [head] if head else []
            self.made[key] = []
        return self.histories[key]

    def made_on(self, ctx: ScenarioContext, repo: str, branch: str) -> list[str]:
        """The commits Given steps made on ``branch``, oldest first."""
        self.history(ctx, repo, branch)
        return self.made[repo, branch]

    def record_commit(self, ctx: ScenarioContext, repo: str, branch: str, sha: str) -> None:
        """Append a commit a Given step made on ``branch``."""
        self.history(ctx, repo, branch).append(sha)
        self.made_on(ctx, repo, branch).append(sha)

    def note_heads(self, ctx: ScenarioContext, repo: str, *branches: str) -> None:
        """Where the branches are now, before a When step changes them."""
        for branch in branches:
            self.before[repo, branch] = branch_head(ctx, repo, branch)

    def head_before(self, repo: str, branch: str) -> str | None:
        """The head noted before the When step; an error when the step noted none."""
        found = self.before.get((repo, branch), NOT_NOTED)
        assert found != NOT_NOTED, f"the When step did not note the head of {branch}"
        return found


@pytest.fixture
def branch_notes() -> BranchNotes:
    """The scenario's branch histories and noted heads."""
    return BranchNotes()


# ---------------------------------------------------------------- Given


@given(phrase('the repository "{repo}" has a branch "{branch}"'))
def given_branch(
    ctx: ScenarioContext, branch_notes: BranchNotes, identities: IdentityFactory, repo: str, branch: str
) -> None:
    """A branch made from the default branch by the repository's owner."""
    ref = identities.repo(repo)
    start = branch_notes.history(ctx, repo, ref.default_branch)[-1]
    response = repo_owner(ctx, repo).area(BranchesApi).create(ref.owner, ref.name, {"new_branch_name": branch})
    expect_status(response, 201, f"creating the branch {branch}")
    branch_notes.histories[repo, branch] = [start]
    branch_notes.made[repo, branch] = []


@given(phrase('the branch "{branch}" of "{repo}" has the file "{path}" with content "{content}"'))
def given_branch_file(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, branch: str, repo: str, path: str, content: str
) -> None:
    """A commit on ``branch`` adding one file, through the contents API."""
    ref = ctx.repo(repo)
    branch_notes.history(ctx, repo, branch)
    response = repo_owner(ctx, repo).contents.create(ref.owner, ref.name, path, content, branch=branch)
    added = expect_status(response, 201, f'adding "{path}" on {branch}')
    branch_notes.record_commit(ctx, repo, branch, str(added["commit"]["sha"]))


@given(phrase('the branch "{branch}" of "{repo}" has {count:d} more commits'))
def given_more_commits(ctx: ScenarioContext, branch_notes: BranchNotes, branch: str, repo: str, count: int) -> None:
    """``count`` commits on ``branch``, each adding a one-line file named after the branch and its number."""
    start = len(branch_notes.made_on(ctx, repo, branch))
    for number in range(start + 1, start + count + 1):
        path, content = f"{branch}-{number}.txt", f"change {number} on {branch}"
        given_branch_file(ctx, branch_notes, branch=branch, repo=repo, path=path, content=content)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" lists the branches of "{repo}"'))
def list_branches(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../branches``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, BranchesApi).list(ref.owner, ref.name)


@when(phrase('"{who}" lists the branches of "{repo}" with limit {limit:d} and page {page:d}'))
def list_branches_page(ctx: ScenarioContext, who: str, repo: str, limit: int, page: int) -> None:
    """``GET .../branches?limit=&page=``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, BranchesApi).list(ref.owner, ref.name, limit=limit, page=page)


@when(phrase('"{who}" gets the branch "{branch}" of "{repo}"'))
def get_branch(ctx: ScenarioContext, who: str, branch: str, repo: str) -> None:
    """``GET .../branches/{branch}``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, BranchesApi).get(ref.owner, ref.name, branch)


@when(phrase('"{who}" creates the branch "{name}" in "{repo}" from "{source}"'))
def create_branch_from(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, name: str, repo: str, source: str
) -> None:
    """``POST .../branches`` with ``old_ref_name`` (a branch, tag or commit)."""
    ref = ctx.repo(repo)
    branch_notes.note_heads(ctx, repo, name)
    body = {"new_branch_name": name, "old_ref_name": source}
    ctx.response = acting(ctx, who, BranchesApi).create(ref.owner, ref.name, body)


@when(phrase('"{who}" creates the branch "{name}" in "{repo}" from the first commit of "{branch}"'))
def create_branch_from_commit(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, name: str, repo: str, branch: str
) -> None:
    """``POST .../branches`` with a commit SHA as ``old_ref_name``."""
    ref = ctx.repo(repo)
    branch_notes.note_heads(ctx, repo, name)
    body = {"new_branch_name": name, "old_ref_name": branch_notes.history(ctx, repo, branch)[0]}
    ctx.response = acting(ctx, who, BranchesApi).create(ref.owner, ref.name, body)


@when(phrase('"{who}" deletes the branch "{branch}" of "{repo}"'))
def delete_branch(ctx: ScenarioContext, branch_notes: BranchNotes, who: str, branch: str, repo: str) -> None:
    """``DELETE .../branches/{branch}``."""
    ref = ctx.repo(repo)
    branch_notes.note_heads(ctx, repo, branch)
    ctx.response = acting(ctx, who, BranchesApi).delete(ref.owner, ref.name, branch)


@when(phrase('"{who}" renames the branch "{branch}" of "{repo}" to "{name}"'))
def rename_branch(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, branch: str, repo: str, name: str
) -> None:
    """``PATCH .../branches/{branch}`` with ``{"name"}``."""
    ref = ctx.repo(repo)
    branch_notes.note_heads(ctx, repo, branch, name)
    ctx.response = acting(ctx, who, BranchesApi).rename(ref.owner, ref.name, branch, name)


def _move(
    ctx: ScenarioContext,
    branch_notes: BranchNotes,
    who: str,
    *,
    branch: str,
    repo: str,
    target: str,
    extra: dict[str, Any],
) -> None:
    ref = ctx.repo(repo)
    branch_notes.note_heads(ctx, repo, branch)
    new = branch_head(ctx, repo, target)
    assert new is not None, f"the branch {target} of {repo} does not exist"
    ctx.response = acting(ctx, who, BranchesApi).update(ref.owner, ref.name, branch, {"new_commit_id": new, **extra})


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}"'))
def move_branch(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, branch: str, repo: str, target: str
) -> None:
    """``PUT .../branches/{branch}`` with ``new_commit_id`` only."""
    _move(ctx, branch_notes, who, branch=branch, repo=repo, target=target, extra={})


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}" giving its current head'))
def move_branch_checked(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, branch: str, repo: str, target: str
) -> None:
    """``PUT .../branches/{branch}`` with the branch's current head as ``old_commit_id``."""
    _move(
        ctx,
        branch_notes,
        who,
        branch=branch,
        repo=repo,
        target=target,
        extra={"old_commit_id": branch_head(ctx, repo, branch)},
    )


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}" giving an outdated head'))
def move_branch_stale(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, branch: str, repo: str, target: str
) -> None:
    """``PUT .../branches/{branch}`` with an ``old_commit_id`` that is not the branch's head."""
    _move(
        ctx,
        branch_notes,
        who,
        branch=branch,
        repo=repo,
        target=target,
        extra={"old_commit_id": branch_head(ctx, repo, target)},
    )


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}" with force'))
def move_branch_forced(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, who: str, branch: str, repo: str, target: str
) -> None:
    """``PUT .../branches/{branch}`` with ``force: true``."""
    _move(ctx, branch_notes, who, branch=branch, repo=repo, target=target, extra={"force": True})


# ---------------------------------------------------------------- Then


@then(phrase('the branch "{branch}" of "{repo}" points at the head of "{target}"'))
def branch_points_at(ctx: ScenarioContext, branch: str, repo: str, target: str) -> None:
    """Both branches of the repository point at the same commit."""
    head, other = branch_head(ctx, repo, branch), branch_head(ctx, repo, target)
    assert head is not None, f"the branch {branch} of {repo} does not exist"
    assert head == other, f"{branch} points at {head}, {target} at {other}"


@then(phrase('the branch "{branch}" of "{repo}" points at its previous head'))
def branch_unchanged(ctx: ScenarioContext, branch_notes: BranchNotes, branch: str, repo: str) -> None:
    """The branch is where it was before the When step (it did not move, appear or disappear)."""
    before = branch_notes.head_before(repo, branch)
    now = branch_head(ctx, repo, branch)
    assert now == before, f"the branch {branch} of {repo} moved from {before} to {now}"


@then(phrase('the branch "{branch}" of "{repo}" points at the previous head of "{old}"'))
def branch_took_head(ctx: ScenarioContext, branch_notes: BranchNotes, branch: str, repo: str, old: str) -> None:
    """After a rename: the new branch holds the old branch's head."""
    before = branch_notes.head_before(repo, old)
    assert before, f"the branch {old} did not exist before the When step"
    assert branch_head(ctx, repo, branch) == before, f"{branch} does not hold the previous head of {old}"


@then(phrase('the branch "{branch}" of "{repo}" does not exist'))
def branch_missing(ctx: ScenarioContext, branch: str, repo: str) -> None:
    """Reading the branch answers 404."""
    assert branch_head(ctx, repo, branch) is None, f"the branch {branch} of {repo} still exists"


@then(phrase('the response lists the branches "{names}"'))
def lists_branches(ctx: ScenarioContext, names: str) -> None:
    """The branch list holds exactly these names, in this order."""
    expected = [name.strip() for name in names.split(",") if name.strip()]
    listed = [item.get("name") for item in response_json(ctx)]
    assert listed == expected, f"listed {listed}, expected {expected}"


@then(phrase('the response is the branch "{branch}" at the head of "{target}" of "{repo}"'))
def response_is_branch(ctx: ScenarioContext, branch: str, target: str, repo: str) -> None:
    """A ``Branch`` named ``branch`` whose commit is the head of ``target``."""
    body = response_json(ctx)
    assert body.get("name") == branch, f"branch name {body.get('name')!r}"
    assert body["commit"]["id"] == branch_head(ctx, repo, target), "the branch's commit is not the expected head"
