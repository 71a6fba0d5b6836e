"""Bringing a fork's branch up to date with its base: Gitea's ``merge-upstream`` (fast-forward, else a real
merge commit made by plumbing with ``git merge-tree --write-tree``) and Forgejo's ``sync_fork``
(fast-forward only, with the information of how far behind the fork is).

The base branch is the fork's branch name in the base repository, or the base's default branch when
the base has no such branch (Gitea's rule). The fork branch moves through the branches family's
choke point, so protection applies and a ``PushEvent`` follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..branches.models import RefUpdate, move_refs
from ..context import now_seconds
from ..gitcli import Identity
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..users import models as users
from .errors import MergeConflict, NotAFork, SyncNotPossible, UpstreamBranchMissing

__all__ = ["SyncInfo", "merge_upstream", "sync_fork", "sync_info"]


@dataclass(frozen=True)
class SyncInfo:
    """Where a fork branch and its base branch stand (the objects of the base already fetched)."""

    fork: repos.Repo
    branch: str
    fork_commit: str
    base_branch: str
    base_commit: str

    @property
    def up_to_date(self) -> bool:
        return self.fork.git.is_ancestor(self.base_commit, self.fork_commit)

    @property
    def fast_forward(self) -> bool:
        return self.fork.git.is_ancestor(self.fork_commit, self.base_commit)

    def commits_behind(self) -> int:
        out = self.fork.git.run("rev-list", "--count", f"{self.fork_commit}..{self.base_commit}").stdout
        return int(out.decode().strip() or 0)

    def to_api(self) -> dict[str, Any]:
        """Forgejo's ``SyncForkInfo``."""
        return {
            "allowed": not self.up_to_date and self.fast_forward,
            "fork_commit": self.fork_commit,
            "base_commit": self.base_commit,
            "commits_behind": self.commits_behind(),
        }


def sync_info(fork: repos.Repo, branch: str) -> SyncInfo:
    """Resolve both branches and copy the base branch's objects into the fork (no ref moves);
    400 when the repository is not a fork, 404 when the fork has no such branch."""
    if fork.fork_of is None:
        raise NotAFork("repository is not a fork")
    try:
        base = repos.get_repo_by_id(fork.fork_of)
    except RepoNotFound as exc:
        raise NotAFork("the base repository of the fork no longer exists") from exc
    name = branch or fork.default_branch
    fork_commit = fork.git.branches().get(name)
    if fork_commit is None:
        raise UpstreamBranchMissing(f"branch does not exist [name: {name}]")
    base_branches = base.git.branches()
    base_branch = name if name in base_branches else base.default_branch
    base_commit = base_branches.get(base_branch)
    if base_commit is None:
        raise UpstreamBranchMissing(f"the base repository has no branch {base_branch}")
    fork.git.fetch_objects(base.git_path, f"refs/heads/{base_branch}")
    return SyncInfo(fork, name, fork_commit, base_branch, base_commit)


def merge_upstream(fork: repos.Repo, principal: Principal, options: Mapping[str, Any]) -> str:
    """``MergeUpstreamRequest``: ``up-to-date``, ``fast-forward`` or ``merge`` (a merge commit by the caller);
    400 when ``ff_only`` and a fast-forward is impossible, 409 when the merge has conflicts."""
    branch = options.get("branch") or ""
    if not isinstance(branch, str):
        raise SyncNotPossible("[Branch]: must be a string")
    info = sync_info(fork, branch)
    if info.up_to_date:
        return "up-to-date"
    if info.fast_forward:
        move_refs(fork, principal, [RefUpdate(f"refs/heads/{info.branch}", info.fork_commit, info.base_commit)])
        return "fast-forward"
    if options.get("ff_only") is True:
        raise SyncNotPossible(f"cannot fast-forward {info.branch}: it has commits the base branch lacks")
    tree = fork.git.merge_trees(info.fork_commit, info.base_commit)
    if tree is None:
        raise MergeConflict("merge failed because of conflict")
    base = repos.get_repo_by_id(fork.fork_of or 0)
    name, email = users.doer_identity(principal)
    who = Identity(name, email, now_seconds())
    message = f"Merge branch '{info.base_branch}' of {base.full_name} into {info.branch}\n"
    merge = fork.git.commit_tree(tree, [info.fork_commit, info.base_commit], message, author=who, committer=who)
    move_refs(fork, principal, [RefUpdate(f"refs/heads/{info.branch}", info.fork_commit, merge)])
    return "merge"


def sync_fork(fork: repos.Repo, principal: Principal, branch: str) -> None:
    """Forgejo's sync: fast-forward the fork branch to its base branch; 400 when that is not possible."""
    info = sync_info(fork, branch)
    if info.up_to_date or not info.fast_forward:
        raise SyncNotPossible("the fork branch cannot be fast-forwarded to its base branch")
    move_refs(fork, principal, [RefUpdate(f"refs/heads/{info.branch}", info.fork_commit, info.base_commit)])
