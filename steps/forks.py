"""Steps of the forks area: forking, fork lists, fork sync (merge-upstream, Forgejo's sync_fork),
migrations and mirrors.

A fork or a migrated repository gets a short name like any other repository ("bob/copy"), is recorded in
the cleanup ledger before it is created, and joins the scenario's repositories once the target made it.
Migrations clone from the target's own Git URLs (``clone_url`` of a scenario repository).
"""

from __future__ import annotations

from typing import Any

import requests
from pytest_bdd import given, then, when

from conformance.api.commits import CommitsApi
from conformance.api.forks import ForksApi
from conformance.api.repos import ReposApi
from conformance.capabilities import register_probe
from conformance.client import HttpClient, json_of
from conformance.context import RepoRef, ScenarioContext
from conformance.identities import IdentityFactory
from steps.actors import acting
from steps.branches import BranchNotes, branch_head
from steps.common import response_json
from steps.parsing import phrase

SYNC_FORK_PATH = "/repos/{owner}/{repo}/sync_fork"


@register_probe("sync_fork")
def _sync_fork_probe(admin: HttpClient) -> bool:
    """The target's API description lists Forgejo's ``sync_fork`` route."""
    site = admin.base_url.rstrip("/").removesuffix("/api/v1")
    try:
        response = admin.get(f"{site}/swagger.v1.json")
    except requests.RequestException:
        return False
    if response.status_code != 200:
        return False
    paths = json_of(response).get("paths") if isinstance(json_of(response), dict) else None
    return isinstance(paths, dict) and SYNC_FORK_PATH in paths


def _new_repo(ctx: ScenarioContext, identities: IdentityFactory, short: str) -> RepoRef:
    """The real owner and name a fork or migration will get; recorded in the ledger beforehand."""
    owner_short, _, name_short = short.partition("/")
    owner = ctx.orgs[owner_short] if owner_short in ctx.orgs else identities.user(owner_short).username
    ref = RepoRef(short=short, owner=owner, name=ctx.real_name(name_short), default_branch="main")
    identities.ledger.record_repo(ref.owner, ref.name)
    return ref


def _adopt(ctx: ScenarioContext, ref: RepoRef, response: requests.Response, created: int) -> None:
    """Keep the response; the repository joins the scenario when the target created it."""
    ctx.response = response
    if response.status_code == created:
        body = json_of(response)
        branch = str(body.get("default_branch") or "main") if isinstance(body, dict) else "main"
        ctx.repos[ref.short] = RepoRef(ref.short, ref.owner, ref.name, branch)


def _fork(ctx: ScenarioContext, identities: IdentityFactory, who: str, repo: str, fork: str) -> None:
    source = ctx.repo(repo)
    ref = _new_repo(ctx, identities, fork)
    body: dict[str, Any] = {"name": ref.name}
    if fork.split("/", 1)[0] in ctx.orgs:
        body["organization"] = ref.owner
    _adopt(ctx, ref, acting(ctx, who, ForksApi).fork(source.owner, source.name, body), 202)


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" forked "{repo}" as "{fork}"'))
def given_fork(ctx: ScenarioContext, identities: IdentityFactory, who: str, repo: str, fork: str) -> None:
    """A fork made by ``who`` (its owner is the fork's owner part, a user or an organization)."""
    _fork(ctx, identities, who, repo, fork)
    response = ctx.last_response()
    assert response.status_code == 202, f"forking {repo}: {response.status_code} {response.text[:300]}"
    ctx.response = None


@given(phrase('"{who}" mirrored "{repo}" as "{target}" with her token'))
def given_mirror(ctx: ScenarioContext, identities: IdentityFactory, who: str, repo: str, target: str) -> None:
    """A pull mirror of ``repo`` made by ``who`` with its own token as the credential."""
    extra = {"clone_addr": _clone_url(ctx, repo), "mirror": True, "auth_token": ctx.user(who).token}
    _migrate(ctx, identities, who, target, extra)
    response = ctx.last_response()
    assert response.status_code == 201, f"mirroring {repo}: {response.status_code} {response.text[:300]}"
    ctx.response = None


# ---------------------------------------------------------------- When


@when(phrase('"{who}" forks "{repo}" as "{fork}"'))
def fork_repo(ctx: ScenarioContext, identities: IdentityFactory, who: str, repo: str, fork: str) -> None:
    """``POST .../forks`` with the fork's name (and organization when its owner is one)."""
    _fork(ctx, identities, who, repo, fork)


@when(phrase('"{who}" lists the forks of "{repo}"'))
def list_forks(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``GET .../forks``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ForksApi).list(ref.owner, ref.name)


@when(phrase('"{who}" merges upstream into the branch "{branch}" of "{fork}"'))
def merge_upstream(ctx: ScenarioContext, branch_notes: BranchNotes, who: str, branch: str, fork: str) -> None:
    """``POST .../merge-upstream`` with ``{"branch"}``."""
    ref = ctx.repo(fork)
    branch_notes.note_heads(ctx, fork, branch)
    ctx.response = acting(ctx, who, ForksApi).merge_upstream(ref.owner, ref.name, {"branch": branch})


@when(phrase('"{who}" merges upstream into the branch "{branch}" of "{fork}" fast-forward only'))
def merge_upstream_ff(ctx: ScenarioContext, branch_notes: BranchNotes, who: str, branch: str, fork: str) -> None:
    """``POST .../merge-upstream`` with ``ff_only: true``."""
    ref = ctx.repo(fork)
    branch_notes.note_heads(ctx, fork, branch)
    ctx.response = acting(ctx, who, ForksApi).merge_upstream(ref.owner, ref.name, {"branch": branch, "ff_only": True})


@when(phrase('"{who}" reads the sync state of the branch "{branch}" of "{fork}"'))
def sync_state(ctx: ScenarioContext, who: str, branch: str, fork: str) -> None:
    """Forgejo's ``GET .../sync_fork/{branch}``."""
    ref = ctx.repo(fork)
    ctx.response = acting(ctx, who, ForksApi).sync_info(ref.owner, ref.name, branch)


@when(phrase('"{who}" syncs the branch "{branch}" of the fork "{fork}"'))
def sync_fork(ctx: ScenarioContext, branch_notes: BranchNotes, who: str, branch: str, fork: str) -> None:
    """Forgejo's ``POST .../sync_fork/{branch}``."""
    ref = ctx.repo(fork)
    branch_notes.note_heads(ctx, fork, branch)
    ctx.response = acting(ctx, who, ForksApi).sync(ref.owner, ref.name, branch)


def _clone_url(ctx: ScenarioContext, repo: str) -> str:
    ref = ctx.repo(repo)
    body = json_of(ctx.admin.area(ReposApi).get(ref.owner, ref.name))
    assert isinstance(body, dict) and body.get("clone_url"), f"no clone_url for {repo}"
    return str(body["clone_url"])


def _migrate(ctx: ScenarioContext, identities: IdentityFactory, who: str, target: str, extra: dict[str, Any]) -> None:
    ref = _new_repo(ctx, identities, target)
    body = {"repo_name": ref.name, "repo_owner": ref.owner, **extra}
    _adopt(ctx, ref, acting(ctx, who, ForksApi).migrate(body), 201)


@when(phrase('"{who}" migrates "{repo}" as "{target}"'))
def migrate(ctx: ScenarioContext, identities: IdentityFactory, who: str, repo: str, target: str) -> None:
    """``POST /repos/migrate`` from the repository's clone URL on the same forge."""
    _migrate(ctx, identities, who, target, {"clone_addr": _clone_url(ctx, repo)})


@when(phrase('"{who}" migrates from "{address}" as "{target}"'))
def migrate_address(ctx: ScenarioContext, identities: IdentityFactory, who: str, address: str, target: str) -> None:
    """``POST /repos/migrate`` from a literal clone address."""
    _migrate(ctx, identities, who, target, {"clone_addr": address})


@when(phrase('"{who}" syncs the mirror "{repo}"'))
def sync_mirror(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``POST .../mirror-sync``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, ForksApi).mirror_sync(ref.owner, ref.name)


# ---------------------------------------------------------------- Then


@then(phrase('the response is a fork of "{repo}"'))
def is_fork_of(ctx: ScenarioContext, repo: str) -> None:
    """``fork`` is true and ``parent`` is the repository."""
    body = response_json(ctx)
    assert body.get("fork") is True, f"fork is {body.get('fork')!r}"
    parent = body.get("parent") or {}
    assert parent.get("full_name") == ctx.repo(repo).full_name, f"parent is {parent.get('full_name')!r}"


@then(phrase('the response lists the repository "{repo}"'))
def lists_repository(ctx: ScenarioContext, repo: str) -> None:
    """A repository list names the repository."""
    names = [item.get("full_name") for item in response_json(ctx)]
    assert ctx.repo(repo).full_name in names, f"{ctx.repo(repo).full_name} not in {names}"


@then(phrase('the branch "{branch}" of "{repo}" points at the head of the branch "{other}" of "{source}"'))
def points_at_other(ctx: ScenarioContext, branch: str, repo: str, other: str, source: str) -> None:
    """The two repositories' branches point at the same commit."""
    head, expected = branch_head(ctx, repo, branch), branch_head(ctx, source, other)
    assert head is not None and head == expected, f"{repo} {branch} is at {head}, {source} {other} at {expected}"


@then(
    phrase('the branch "{branch}" of "{repo}" is a merge of its previous head and the branch "{other}" of "{source}"')
)
def is_merge(
    ctx: ScenarioContext, branch_notes: BranchNotes, *, branch: str, repo: str, other: str, source: str
) -> None:
    """The new head is a commit whose parents are the old head and the other branch's head, in that order."""
    ref = ctx.repo(repo)
    head = branch_head(ctx, repo, branch)
    body = json_of(ctx.admin.area(CommitsApi).get(ref.owner, ref.name, head or branch))
    parents = [parent.get("sha") for parent in body.get("parents", [])]
    expected = [branch_notes.head_before(repo, branch), branch_head(ctx, source, other)]
    assert parents == expected, f"the head {head} has the parents {parents}, expected {expected}"
