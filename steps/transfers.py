"""Steps of the transfers area: handing a repository to another user or organization, and the new owner
accepting or rejecting it. When a repository moves, the scenario's name for it (``"alice/app"``) follows it
to its new owner, the cleanup ledger with it, and :class:`TransferNotes` keeps where it was."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest
from pytest_bdd import given, then, when

from conformance.api.transfers import TransfersApi
from conformance.client import json_of
from conformance.context import ScenarioContext
from conformance.ledger import CleanupLedger, LedgerEntry
from steps.actors import acting, acting_api, repo_owner
from steps.common import comma_list, expect_status, user_name
from steps.orgs import OrgNotes
from steps.parsing import phrase

__all__ = ["TransferNotes"]


@dataclass
class TransferNotes:
    """Where each moved repository was (its old owner's real name and its name)."""

    old_places: dict[str, tuple[str, str]] = field(default_factory=dict)


@pytest.fixture
def transfer_notes() -> TransferNotes:
    """The scenario's moved repositories."""
    return TransferNotes()


def _owner(ctx: ScenarioContext, short: str) -> str:
    return ctx.orgs[short] if short in ctx.orgs else user_name(ctx, short)


def _follow(ctx: ScenarioContext, notes: TransferNotes, ledger: CleanupLedger, repo: str) -> None:
    """The repository moved: the scenario's name and the ledger follow its new owner (from the answer)."""
    ref = ctx.repo(repo)
    new_owner = str(json_of(ctx.last_response())["owner"]["login"])
    notes.old_places[repo] = (ref.owner, ref.name)
    ctx.repos[repo] = dataclasses.replace(ref, owner=new_owner)
    ledger.record_repo(new_owner, ref.name)
    stale = LedgerEntry("repository", f"{ref.owner}/{ref.name}")
    if stale in ledger.entries:  # the old place only redirects now
        ledger.entries.remove(stale)


def _transfer(
    ctx: ScenarioContext, notes: TransferNotes, ledger: CleanupLedger, who: str, *, repo: str, body: dict[str, Any]
) -> None:
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TransfersApi).transfer(ref.owner, ref.name, body)
    if ctx.response.status_code == 202:
        _follow(ctx, notes, ledger, repo)


# ---------------------------------------------------------------- Given


@given(phrase('"{who}" offered "{repo}" to "{recipient}"'))
def given_pending(ctx: ScenarioContext, who: str, repo: str, recipient: str) -> None:
    """A transfer that waits for the recipient (201)."""
    ref = ctx.repo(repo)
    body = {"new_owner": _owner(ctx, recipient)}
    expect_status(acting(ctx, who, TransfersApi).transfer(ref.owner, ref.name, body), 201, f'offer "{repo}"')


@given(phrase('the owner of "{repo}" transferred it to "{recipient}"'))
def given_moved(
    ctx: ScenarioContext, transfer_notes: TransferNotes, ledger: CleanupLedger, repo: str, recipient: str
) -> None:
    """A transfer that moved the repository at once (202), started by its owner."""
    ref = ctx.repo(repo)
    body = {"new_owner": _owner(ctx, recipient)}
    ctx.response = repo_owner(ctx, repo).area(TransfersApi).transfer(ref.owner, ref.name, body)
    expect_status(ctx.response, 202, f'transfer "{repo}"')
    _follow(ctx, transfer_notes, ledger, repo)


@given(phrase('"{who}" accepted the transfer of "{repo}"'))
def given_accepted(
    ctx: ScenarioContext, transfer_notes: TransferNotes, ledger: CleanupLedger, *, who: str, repo: str
) -> None:
    """The recipient accepted a waiting transfer (202); the repository is followed."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TransfersApi).accept(ref.owner, ref.name)
    expect_status(ctx.response, 202, f'accept the transfer of "{repo}"')
    _follow(ctx, transfer_notes, ledger, repo)


# ---------------------------------------------------------------- When


@when(phrase('"{who}" transfers "{repo}" to "{recipient}"'))
def transfer(
    ctx: ScenarioContext, transfer_notes: TransferNotes, ledger: CleanupLedger, *, who: str, repo: str, recipient: str
) -> None:
    """``POST .../transfer`` with ``new_owner``; a repository that moved (202) is followed."""
    _transfer(ctx, transfer_notes, ledger, who, repo=repo, body={"new_owner": _owner(ctx, recipient)})


@when(phrase('"{who}" transfers "{repo}" to "{recipient}" with the teams "{teams}"'))
def transfer_with_teams(
    ctx: ScenarioContext,
    transfer_notes: TransferNotes,
    org_notes: OrgNotes,
    ledger: CleanupLedger,
    *,
    who: str,
    repo: str,
    recipient: str,
    teams: str,
) -> None:
    """``POST .../transfer`` with ``team_ids`` (teams named ``"readers of acme"``)."""
    team_ids = []
    for item in comma_list(teams):
        team, _, org = item.partition(" of ")
        team_ids.append(org_notes.team_id(ctx, org.strip(), team.strip()))
    body = {"new_owner": _owner(ctx, recipient), "team_ids": team_ids}
    _transfer(ctx, transfer_notes, ledger, who, repo=repo, body=body)


@when(phrase('"{who}" transfers "{repo}" to a user that does not exist'))
def transfer_to_nobody(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``POST .../transfer`` naming nobody."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TransfersApi).transfer(ref.owner, ref.name, {"new_owner": ctx.real_name("nobody")})


@when(phrase('"{who}" accepts the transfer of "{repo}"'))
def accept(ctx: ScenarioContext, transfer_notes: TransferNotes, ledger: CleanupLedger, *, who: str, repo: str) -> None:
    """``POST .../transfer/accept``; a repository that moved (202) is followed."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TransfersApi).accept(ref.owner, ref.name)
    if ctx.response.status_code == 202:
        _follow(ctx, transfer_notes, ledger, repo)


@when(phrase('"{who}" rejects the transfer of "{repo}"'))
def reject(ctx: ScenarioContext, who: str, repo: str) -> None:
    """``POST .../transfer/reject``."""
    ref = ctx.repo(repo)
    ctx.response = acting(ctx, who, TransfersApi).reject(ref.owner, ref.name)


@when(phrase('"{who}" fetches "{repo}" at its place before the transfer'))
def fetch_old_place(ctx: ScenarioContext, transfer_notes: TransferNotes, who: str, repo: str) -> None:
    """``GET /repos/{old owner}/{name}`` without following redirects."""
    assert repo in transfer_notes.old_places, f'"{repo}" was not transferred in this scenario'
    owner, name = transfer_notes.old_places[repo]
    ctx.response = acting_api(ctx, who).repos.get(owner, name)


# ---------------------------------------------------------------- Then


@then(phrase('the repository "{repo}" belongs to "{owner}"'))
def then_belongs_to(ctx: ScenarioContext, repo: str, owner: str) -> None:
    """The admin reads the repository under the owner's name, and it names that owner."""
    name = ctx.repo(repo).name
    body = expect_status(ctx.admin.repos.get(_owner(ctx, owner), name), 200, f'read "{repo}" under "{owner}"')
    assert body["owner"]["login"] == _owner(ctx, owner), f"the owner is {body['owner']['login']!r}"


@then(phrase('the repository "{repo}" waits for no transfer'))
def then_no_pending(ctx: ScenarioContext, repo: str) -> None:
    """Its ``repo_transfer`` is null."""
    ref = ctx.repo(repo)
    body = expect_status(ctx.admin.repos.get(ref.owner, ref.name), 200, f'read "{repo}"')
    assert body.get("repo_transfer") is None, f"repo_transfer is {body.get('repo_transfer')!r}"


@then(phrase('the transfer in the response is offered by "{doer}" to "{recipient}"'))
def then_offer(ctx: ScenarioContext, doer: str, recipient: str) -> None:
    """The answer's ``repo_transfer`` names who started it and who receives it."""
    offer = json_of(ctx.last_response()).get("repo_transfer")
    assert isinstance(offer, dict), f"repo_transfer is {offer!r}"
    found = (offer["doer"]["login"], offer["recipient"]["login"])
    assert found == (_owner(ctx, doer), _owner(ctx, recipient)), f"(doer, recipient) is {found}"
