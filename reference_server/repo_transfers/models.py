"""Transferring a repository, as Gitea's ``repo.Transfer`` and ``services/repository/transfer.go`` do.

A site admin, a transfer to the caller's own account, or a transfer into an organization where the caller
may create repositories moves the repository at once (the API answers 202); otherwise the transfer waits
for the new owner (201), who is made a read collaborator when it could not see the repository, and whom
(or, for an organization, whoever may create repositories there, or a site admin) accepts it (202) or
rejects it (200). Moving: the row and the Git directory change owner together, the old place redirects
to the new one, the repository leaves the old organization's teams and joins the new one's Owners and
all-repository teams and the teams asked for, and collaborators who are the new owner or members of the
new organization are dropped as redundant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import gitcache
from ..auth import Principal
from ..collaborators import store as collaborators_store
from ..context import forge, now_seconds
from ..orgs import store as orgs_store
from ..permissions import is_org_member, permission
from ..repos import store as repos_store
from ..repos.models import Repo, get_repo_by_id, git_path_for, repo_lock
from ..users import models as users
from ..users.relations import refuse_if_blocked
from . import store
from .errors import (
    NewOwnerNotFound,
    NoPendingTransfer,
    NotTransferRecipient,
    RepoExistsAtNewOwner,
    TeamOfAnotherOrg,
    TeamsNeedAnOrganization,
    TransferInProgress,
    UnknownTeam,
)

__all__ = ["accept_transfer", "redirected_repo", "reject_transfer", "start_transfer"]


def _new_owner(name: object, principal: Principal) -> users.User:
    """The account named ``new_owner``; a private organization is unknown to a caller outside it."""
    owner = users.find_account(name) if isinstance(name, str) else None
    if owner is None:
        raise NewOwnerNotFound()
    hidden = owner.is_org and owner.visibility == "private" and not is_org_member(principal.user_id, owner.id)
    if hidden and not principal.is_admin:
        raise NewOwnerNotFound()
    return owner


def _team_ids(owner: users.User, raw: object) -> list[int]:
    """The ``team_ids`` asked for: only for an organization, each one of its teams."""
    if raw is None:
        return []
    if not owner.is_org:
        raise TeamsNeedAnOrganization()
    ids: list[int] = []
    for team_id in raw if isinstance(raw, list) else []:
        row = orgs_store.team_by_id(int(team_id))
        if row is None:
            raise UnknownTeam(f"team {team_id} not found")
        if row["org_id"] != owner.id:
            raise TeamOfAnotherOrg(f"team {team_id} belongs not to org {owner.id}")
        ids.append(int(team_id))
    return ids


def _may_create_in(owner: users.User, principal: Principal) -> bool:
    return owner.is_org and orgs_store.can_create_repo(owner.id, principal.user_id)


def _move(repo: Repo, new_owner: users.User, team_ids: Sequence[int]) -> Repo:
    """Change the owner of the row and the Git directory together, with the redirect, teams and collaborators."""
    if repos_store.repo_by_name(new_owner.name, repo.name) is not None:
        raise RepoExistsAtNewOwner(f"repository already exists [uname: {new_owner.name}, name: {repo.name}]")
    target = git_path_for(new_owner.name, repo.name)
    with repo_lock(repo), forge().db.transaction():
        if target.exists():
            raise RepoExistsAtNewOwner(f"repository already exists [uname: {new_owner.name}, name: {repo.name}]")
        repos_store.update_repo_columns(repo.id, {"owner_id": new_owner.id}, now_seconds())
        store.drop_pending(repo.id)
        store.drop_redirect(new_owner.id, repo.name)
        store.put_redirect(repo.owner_id, repo.name, repo.id)
        orgs_store.remove_repo_from_teams(repo.id)
        for team_id in team_ids:
            orgs_store.add_team_repo(team_id, repo.id)
        _drop_redundant_collaborators(repo, new_owner)
        gitcache.forget(repo.git_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        repo.git_path.rename(target)
    return get_repo_by_id(repo.id)


def _drop_redundant_collaborators(repo: Repo, new_owner: users.User) -> None:
    user_ids, _total = collaborators_store.page(repo.id, 1_000_000, 0)
    for user_id in user_ids:
        if user_id == new_owner.id or (new_owner.is_org and orgs_store.is_member(new_owner.id, user_id)):
            collaborators_store.delete(repo.id, user_id)


def start_transfer(repo: Repo, body: Mapping[str, Any], principal: Principal) -> tuple[Repo, bool]:
    """Transfer the repository, or record a pending transfer; the repository and whether it moved."""
    new_owner = _new_owner(body.get("new_owner"), principal)
    refuse_if_blocked(principal.user_id, new_owner.id)
    team_ids = _team_ids(new_owner, body.get("team_ids"))
    if store.pending(repo.id) is not None:
        raise TransferInProgress()
    if principal.is_admin or principal.user_id == new_owner.id or _may_create_in(new_owner, principal):
        return _move(repo, new_owner, team_ids), True
    if repos_store.repo_by_name(new_owner.name, repo.name) is not None:
        raise RepoExistsAtNewOwner(f"repository already exists [uname: {new_owner.name}, name: {repo.name}]")
    with forge().db.transaction():
        if not new_owner.is_org and not permission(_as_principal(new_owner), repo).can_read:
            collaborators_store.put(repo.id, new_owner.id, "read", now_seconds())
        store.put_pending(repo.id, principal.user_id, new_owner.id, team_ids, now_seconds())
    return get_repo_by_id(repo.id), False


def _as_principal(user: users.User) -> Principal:
    return Principal(user.id, user.name, user.is_admin, frozenset({"all"}))


def _pending_for(repo: Repo, principal: Principal) -> tuple[users.User, list[int]]:
    """The pending transfer's recipient and teams, if the caller may decide on it (404 none, 403 not theirs)."""
    row = store.pending(repo.id)
    if row is None:
        raise NoPendingTransfer()
    recipient = users.get_user(int(row["recipient_id"]))
    allowed = principal.is_admin or principal.user_id == recipient.id or _may_create_in(recipient, principal)
    if not allowed:
        raise NotTransferRecipient()
    return recipient, store.team_ids_of(row)


def accept_transfer(repo: Repo, principal: Principal) -> Repo:
    """The recipient accepts: the repository moves."""
    recipient, team_ids = _pending_for(repo, principal)
    return _move(repo, recipient, team_ids)


def reject_transfer(repo: Repo, principal: Principal) -> Repo:
    """The recipient rejects: the pending transfer goes, the repository stays."""
    _pending_for(repo, principal)
    with forge().db.transaction():
        store.drop_pending(repo.id)
    return get_repo_by_id(repo.id)


def redirected_repo(owner_name: str, name: str) -> Repo | None:
    """The repository that ``owner/name`` named before a transfer, when no repository holds that name now."""
    owner = users.find_account(owner_name)
    if owner is None or repos_store.repo_by_name(owner_name, name) is not None:
        return None
    repo_id = store.redirect_target(owner.id, name)
    return None if repo_id is None else get_repo_by_id(repo_id)
