"""Branch rules; every branch change goes through :func:`move_refs` (Gitea's ``Branch`` is :mod:`.presenters`).

:func:`move_refs` is the ref-update choke point: under the repository's lock it asks
:func:`authorize_ref_update` about each ``(ref, old, new)`` (where branch protection plugs in), moves
all the refs in one Git transaction with compare-and-swap, then publishes one ``PushEvent`` per ref
(40 zeros for a created or deleted side) so workflows, webhooks and license detection follow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..context import forge
from ..errors import Forbidden
from ..events import DefaultBranchChangedEvent, PushEvent
from ..gitcli import ZERO_SHA, RefUpdateRejectedError, valid_branch_name
from ..permissions import permission
from ..protections import models as protections
from ..protections.guard import check_ref_update
from ..protections.rules import first_matching_rule
from ..repos import models as repos
from .errors import (
    BranchExists,
    BranchMissing,
    BranchMoved,
    BranchRefused,
    InvalidBranchName,
    NotFastForward,
    OldCommitMismatch,
    RenameTargetExists,
    SourceRefMissing,
)

__all__ = [
    "RefUpdate",
    "authorize_ref_update",
    "create_branch",
    "delete_branch",
    "get_branch",
    "list_branches",
    "move_refs",
    "rename_branch",
    "update_branch",
]

MAX_BRANCH_NAME = 100
_COMMIT_ID = re.compile(r"[0-9a-fA-F]{4,40}")
EMPTY_REPOSITORY = "Git Repository is empty."


@dataclass(frozen=True)
class RefUpdate:
    """One ref move: ``old`` or ``new`` is 40 zeros when the ref is created or deleted."""

    ref: str
    old: str
    new: str


def authorize_ref_update(repo: repos.Repo, principal: Principal, ref: str, old: str, new: str) -> None:
    """Refuse (403) a ref move the repository does not allow; called for every ref before any moves."""
    if repo.is_mirror:
        raise BranchRefused("Git Repository is a mirror.")
    check_ref_update(repo, principal, ref, old, new)


def move_refs(repo: repos.Repo, principal: Principal, updates: Sequence[RefUpdate]) -> None:
    """The choke point of every branch change: check, move atomically (409 when a ref moved meanwhile),
    then announce each move as a push by ``principal``."""
    with repos.repo_lock(repo):
        for update in updates:
            authorize_ref_update(repo, principal, update.ref, update.old, update.new)
        try:
            repo.git.update_refs([(update.ref, update.new, update.old) for update in updates])
        except RefUpdateRejectedError as exc:
            raise BranchMoved("the branch moved while it was being changed; retry") from exc
        repos.touch(repo)
    for update in updates:
        forge().events.publish(PushEvent(repo.id, update.ref, update.old, update.new, principal.user_id))


def _branch_ref(name: str) -> str:
    return f"refs/heads/{name}"


def _require_content(repo: repos.Repo) -> dict[str, str]:
    branches = repo.git.branches()
    if not branches:
        raise BranchMissing(EMPTY_REPOSITORY)
    return branches


def _valid_name(name: object, field: str) -> str:
    if not isinstance(name, str) or not name:
        raise InvalidBranchName(f"[{field}]: Required")
    if len(name) > MAX_BRANCH_NAME:
        raise InvalidBranchName(f"[{field}]: MaxSize({MAX_BRANCH_NAME})")
    if not valid_branch_name(name):
        raise InvalidBranchName(f"[{field}]: GitRefName")
    return name


def _is_protected(repo: repos.Repo, name: str) -> bool:
    return first_matching_rule(protections.branch_rules(repo.id), name) is not None


def list_branches(repo: repos.Repo, keyword: str, offset: int, limit: int) -> tuple[list[tuple[str, str]], int]:
    """One page of ``(name, head)`` by name, filtered by a case-insensitive keyword, and the total."""
    needle = keyword.casefold()
    names = sorted(name for name in repo.git.branches().items() if needle in name[0].casefold())
    return names[offset : offset + limit], len(names)


def get_branch(repo: repos.Repo, name: str) -> str:
    """The head of ``name``; 404 when the repository is empty or has no such branch."""
    branches = _require_content(repo)
    if name not in branches:
        raise BranchMissing(f"branch does not exist [name: {name}]")
    return branches[name]


def create_branch(repo: repos.Repo, principal: Principal, options: Mapping[str, Any]) -> tuple[str, str]:
    """``CreateBranchRepoOption``: ``new_branch_name`` from ``old_ref_name`` (branch, tag or commit), else
    ``old_branch_name``, else the default branch; 409 when the name is taken, 404 when the source is missing."""
    name = _valid_name(options.get("new_branch_name"), "NewBranchName")
    branches = _require_content(repo)
    old_ref = options.get("old_ref_name") or ""
    old_branch = options.get("old_branch_name") or ""
    if not isinstance(old_ref, str) or not isinstance(old_branch, str):
        raise InvalidBranchName("[OldRefName]: must be a string")
    if old_ref:
        if old_ref.startswith(("refs/heads/", "refs/tags/")):
            sha = repo.git.rev_parse(old_ref)
        else:
            found = repo.git.resolve_ref(old_ref)
            sha = found[1] if found is not None else None
        if sha is None:
            raise SourceRefMissing(f"The old ref does not exist [name: {old_ref}]")
        start = sha
    else:
        source = old_branch or repo.default_branch
        if source not in branches:
            raise SourceRefMissing(f"The old branch does not exist [name: {source}]")
        start = branches[source]
    if name in branches:
        raise BranchExists(f"The branch already exists. [name: {name}]")
    if name in repo.git.tags():
        raise BranchExists(f"The branch with the same tag already exists. [name: {name}]")
    conflict = next((other for other in branches if name.startswith(f"{other}/") or other.startswith(f"{name}/")), "")
    if conflict:
        raise BranchExists(f"The branch name conflicts with the existing branch {conflict}.")
    move_refs(repo, principal, [RefUpdate(_branch_ref(name), ZERO_SHA, start)])
    return name, start


def delete_branch(repo: repos.Repo, principal: Principal, name: str) -> None:
    """Delete a branch; 403 for the default branch and for a branch any rule covers (Gitea's
    ``CanDeleteBranch``, before any push, so its message is not the pre-receive hook's), 404 when it does
    not exist."""
    head = get_branch(repo, name)
    if name == repo.default_branch:
        raise Forbidden("can not delete default branch")
    if not repo.is_mirror and _is_protected(repo, name):
        raise BranchRefused("branch protected")
    move_refs(repo, principal, [RefUpdate(_branch_ref(name), head, ZERO_SHA)])


def rename_branch(repo: repos.Repo, principal: Principal, name: str, options: Mapping[str, Any]) -> None:
    """Rename ``name`` (``RenameBranchRepoOption``) in one ref transaction; the default branch follows."""
    new_name = _valid_name(options.get("name"), "Name")
    if repo.is_mirror:
        raise BranchRefused("Git Repository is a mirror.")
    branches = _require_content(repo)
    if name not in branches:
        raise BranchMissing("Branch doesn't exist.")
    if new_name == name or new_name in branches:
        raise RenameTargetExists()
    if (name == repo.default_branch or _is_protected(repo, name)) and not permission(principal, repo).is_admin:
        raise BranchRefused("User must be a repo or site admin to rename default or protected branches.")
    head = branches[name]
    move_refs(
        repo,
        principal,
        [RefUpdate(_branch_ref(new_name), ZERO_SHA, head), RefUpdate(_branch_ref(name), head, ZERO_SHA)],
    )
    if name == repo.default_branch:
        repos.set_default_branch(repo, new_name)
        forge().events.publish(DefaultBranchChangedEvent(repo.id, name, new_name))


def update_branch(repo: repos.Repo, principal: Principal, name: str, options: Mapping[str, Any]) -> None:
    """Move ``name`` to ``new_commit_id`` (``UpdateBranchRepoOption``): 422 when ``old_commit_id`` is not the
    head or the move is not a fast-forward without ``force``; 404 for a missing branch or commit."""
    new_id = options.get("new_commit_id")
    old_id = options.get("old_commit_id") or ""
    force = options.get("force") is True
    if not isinstance(new_id, str) or not new_id:
        raise InvalidBranchName("[NewCommitID]: Required")
    if not isinstance(old_id, str):
        raise InvalidBranchName("[OldCommitID]: must be a string")
    if repo.is_mirror:
        raise BranchRefused("Git Repository is a mirror.")
    head = get_branch(repo, name)
    new = repo.git.rev_parse(new_id) if _COMMIT_ID.fullmatch(new_id) else None
    if new is None:
        raise BranchMissing(f"commit does not exist [id: {new_id}]")
    if old_id and old_id.lower() != head:
        raise OldCommitMismatch(f"branch commit does not match [expected: {head}, given: {old_id}]")
    if new == head:
        return
    if not force and not repo.git.is_ancestor(head, new):
        raise NotFastForward("the new commit is not a fast-forward of the branch; force is needed")
    move_refs(repo, principal, [RefUpdate(_branch_ref(name), head, new)])
