"""Steps of the branches area: list, get, create, delete, rename and move branches, and read their heads.

Given steps keep the history they made (``history:<repo>:<branch>``, oldest first) so commit and
compare scenarios can name the commits they expect. Every When that changes a branch first notes the
heads of the branches it touches (``before:<repo>:<branch>``), so a Then can show that a refused
request left the refs exactly as they were.
"""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, then, when

from conformance.api import ForgeApi
from conformance.api.branches import BranchesApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.identities import IdentityFactory
from steps.common import response_json
from steps.parsing import phrase

__all__ = ["acting_api", "branch_head", "history", "made_on", "owner_api", "record_commit"]


def acting_api(ctx: ScenarioContext, who: str) -> ForgeApi:
    """The facade of a scenario user, the admin or an anonymous client."""
    if who == "the admin":
        return ctx.admin
    if who == "an anonymous client":
        return ctx.anonymous()
    return ctx.user(who).api


def owner_api(ctx: ScenarioContext, repo: str) -> ForgeApi:
    """The facade that owns ``repo`` (its user, or the admin for an organization's repository)."""
    owner_short = repo.split("/", 1)[0]
    return ctx.users[owner_short].api if owner_short in ctx.users else ctx.admin


def branch_head(ctx: ScenarioContext, repo: str, branch: str) -> str | None:
    """The commit ``branch`` of ``repo`` points at now (read with the admin's token), None when missing."""
    ref = ctx.repo(repo)
    response = ctx.admin.area(BranchesApi).get(ref.owner, ref.name, branch)
    if response.status_code == 404:
        return None
    body = json_of(response)
    assert response.status_code == 200, f"reading the branch {branch} of {repo}: {response.status_code} {body}"
    return str(body["commit"]["id"])


def history(ctx: ScenarioContext, repo: str, branch: str) -> list[str]:
    """The commits of ``branch`` the scenario knows, oldest first (its head when the branch was noted first)."""
    key = f"history:{repo}:{branch}"
    if key not in ctx.values:
        head = branch_head(ctx, repo, branch)
        ctx.values[key] = [head] if head else []
        ctx.values[f"made:{repo}:{branch}"] = []
    known: list[str] = ctx.values[key]
    return known


def made_on(ctx: ScenarioContext, repo: str, branch: str) -> list[str]:
    """The commits Given steps made on ``branch``, oldest first."""
    history(ctx, repo, branch)
    made: list[str] = ctx.values[f"made:{repo}:{branch}"]
    return made


def record_commit(ctx: ScenarioContext, repo: str, branch: str, sha: str) -> None:
    """Append a commit a Given step made on ``branch``."""
    history(ctx, repo, branch).append(sha)
    made_on(ctx, repo, branch).append(sha)


def _note_heads(ctx: ScenarioContext, repo: str, *branches: str) -> None:
    for branch in branches:
        ctx.values[f"before:{repo}:{branch}"] = branch_head(ctx, repo, branch)


def _api(ctx: ScenarioContext, who: str) -> BranchesApi:
    return acting_api(ctx, who).area(BranchesApi)


# ---------------------------------------------------------------- Given


@given(phrase('the repository "{repo}" has a branch "{branch}"'))
def given_branch(ctx: ScenarioContext, identities: IdentityFactory, repo: str, branch: str) -> None:
    """A branch made from the default branch by the repository's owner."""
    ref = identities.repo(repo)
    start = history(ctx, repo, ref.default_branch)[-1]
    response = owner_api(ctx, repo).area(BranchesApi).create(ref.owner, ref.name, {"new_branch_name": branch})
    assert response.status_code == 201, f"creating the branch {branch}: {response.status_code} {response.text[:300]}"
    ctx.values[f"history:{repo}:{branch}"] = [start]
    ctx.values[f"made:{repo}:{branch}"] = []


@given(phrase('the branch "{branch}" of "{repo}" has the file "{path}" with content "{content}"'))
def given_branch_file(ctx: ScenarioContext, branch: str, repo: str, path: str, content: str) -> None:
    """A commit on ``branch`` adding one file, through the contents API."""
    ref = ctx.repo(repo)
    history(ctx, repo, branch)
    response = owner_api(ctx, repo).contents.create(ref.owner, ref.name, path, content, branch=branch)
    assert response.status_code == 201, f'adding "{path}" on {branch}: {response.status_code} {response.text[:300]}'
    record_commit(ctx, repo, branch, str(json_of(response)["commit"]["sha"]))


@given(phrase('the branch "{branch}" of "{repo}" has {count:d} more commits'))
def given_more_commits(ctx: ScenarioContext, branch: str, repo: str, count: int) -> None:
    """``count`` commits on ``branch``, each adding a file named after the branch and its number."""
    start = len(made_on(ctx, repo, branch))
    for number in range(start + 1, start + count + 1):
        given_branch_file(ctx, branch, repo, f"{branch}-{number}.txt", f"change {number} on {branch}")


# ---------------------------------------------------------------- When


@when(phrase('"{who}" lists the branches of "{repo}"'))
def list_branches(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../branches``."""
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).list(ref.owner, ref.name)


@when(phrase('"{who}" lists the branches of "{repo}" with limit {limit:d} and page {page:d}'))
def list_branches_page(ctx: ScenarioContext, who: str, repo: str, limit: int, page: int) -> None:
    """``GET .../branches?limit=&page=``."""
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).list(ref.owner, ref.name, limit=limit, page=page)


@when(phrase('"{who}" gets the branch "{branch}" of "{repo}"'))
def get_branch(ctx: ScenarioContext, who: str, branch: str, repo: str) -> None:
    """``GET .../branches/{branch}``."""
    ref = ctx.repo(repo)
    ctx.response = _api(ctx, who).get(ref.owner, ref.name, branch)


@when(phrase('"{who}" creates the branch "{name}" in "{repo}" from "{source}"'))
def create_branch_from(ctx: ScenarioContext, who: str, name: str, repo: str, source: str) -> None:
    """``POST .../branches`` with ``old_ref_name`` (a branch, tag or commit)."""
    ref = ctx.repo(repo)
    _note_heads(ctx, repo, name)
    body = {"new_branch_name": name, "old_ref_name": source}
    ctx.response = _api(ctx, who).create(ref.owner, ref.name, body)


@when(phrase('"{who}" creates the branch "{name}" in "{repo}" from the first commit of "{branch}"'))
def create_branch_from_commit(ctx: ScenarioContext, who: str, name: str, repo: str, branch: str) -> None:
    """``POST .../branches`` with a commit SHA as ``old_ref_name``."""
    ref = ctx.repo(repo)
    _note_heads(ctx, repo, name)
    body = {"new_branch_name": name, "old_ref_name": history(ctx, repo, branch)[0]}
    ctx.response = _api(ctx, who).create(ref.owner, ref.name, body)


@when(phrase('"{who}" deletes the branch "{branch}" of "{repo}"'))
def delete_branch(ctx: ScenarioContext, who: str, branch: str, repo: str) -> None:
    """``DELETE .../branches/{branch}``."""
    ref = ctx.repo(repo)
    _note_heads(ctx, repo, branch)
    ctx.response = _api(ctx, who).delete(ref.owner, ref.name, branch)


@when(phrase('"{who}" renames the branch "{branch}" of "{repo}" to "{name}"'))
def rename_branch(ctx: ScenarioContext, who: str, branch: str, repo: str, name: str) -> None:
    """``PATCH .../branches/{branch}`` with ``{"name"}``."""
    ref = ctx.repo(repo)
    _note_heads(ctx, repo, branch, name)
    ctx.response = _api(ctx, who).rename(ref.owner, ref.name, branch, name)


def _move(ctx: ScenarioContext, who: str, branch: str, repo: str, target: str, *, extra: dict[str, Any]) -> None:
    ref = ctx.repo(repo)
    _note_heads(ctx, repo, branch)
    new = branch_head(ctx, repo, target)
    assert new is not None, f"the branch {target} of {repo} does not exist"
    ctx.response = _api(ctx, who).update(ref.owner, ref.name, branch, {"new_commit_id": new, **extra})


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}"'))
def move_branch(ctx: ScenarioContext, who: str, branch: str, repo: str, target: str) -> None:
    """``PUT .../branches/{branch}`` with ``new_commit_id`` only."""
    _move(ctx, who, branch, repo, target, extra={})


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}" giving its current head'))
def move_branch_checked(ctx: ScenarioContext, who: str, branch: str, repo: str, target: str) -> None:
    """``PUT .../branches/{branch}`` with the branch's current head as ``old_commit_id``."""
    _move(ctx, who, branch, repo, target, extra={"old_commit_id": branch_head(ctx, repo, branch)})


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}" giving an outdated head'))
def move_branch_stale(ctx: ScenarioContext, who: str, branch: str, repo: str, target: str) -> None:
    """``PUT .../branches/{branch}`` with an ``old_commit_id`` that is not the branch's head."""
    _move(ctx, who, branch, repo, target, extra={"old_commit_id": branch_head(ctx, repo, target)})


@when(phrase('"{who}" moves the branch "{branch}" of "{repo}" to the head of "{target}" with force'))
def move_branch_forced(ctx: ScenarioContext, who: str, branch: str, repo: str, target: str) -> None:
    """``PUT .../branches/{branch}`` with ``force: true``."""
    _move(ctx, who, branch, repo, target, extra={"force": True})


# ---------------------------------------------------------------- Then


@then(phrase('the branch "{branch}" of "{repo}" points at the head of "{target}"'))
def branch_points_at(ctx: ScenarioContext, branch: str, repo: str, target: str) -> None:
    """Both branches of the repository point at the same commit."""
    head, other = branch_head(ctx, repo, branch), branch_head(ctx, repo, target)
    assert head is not None, f"the branch {branch} of {repo} does not exist"
    assert head == other, f"{branch} points at {head}, {target} at {other}"


@then(phrase('the branch "{branch}" of "{repo}" points at its previous head'))
def branch_unchanged(ctx: ScenarioContext, branch: str, repo: str) -> None:
    """The branch is where it was before the When step (it did not move, appear or disappear)."""
    before = ctx.values.get(f"before:{repo}:{branch}", "not noted")
    assert before != "not noted", f"the When step did not note the head of {branch}"
    now = branch_head(ctx, repo, branch)
    assert now == before, f"the branch {branch} of {repo} moved from {before} to {now}"


@then(phrase('the branch "{branch}" of "{repo}" points at the previous head of "{old}"'))
def branch_took_head(ctx: ScenarioContext, branch: str, repo: str, old: str) -> None:
    """After a rename: the new branch holds the old branch's head."""
    before = ctx.values.get(f"before:{repo}:{old}")
    assert before, f"the When step did not note the head of {old}"
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
