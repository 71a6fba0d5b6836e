"""Bring a pull request's head branch up to date with its base, by plumbing only (no work tree).

``merge``: one merge commit of the base into the head, its tree from ``git merge-tree --write-tree``.
``rebase``: the head's own commits replayed one by one on the base's tip. This Git has no ``git replay``
and its ``merge-tree`` no ``--merge-base``, so each commit is cherry-picked as a merge of a scratch commit
(the new tip's tree on the picked commit's parent) with the picked commit: their merge base is that
parent, which is exactly a cherry-pick's three-way merge. Either way the head branch moves with a
compare-and-swap and a ``PushEvent`` is published.
"""

from __future__ import annotations

from ..auth import Principal
from ..context import forge, now_seconds
from ..events import PushEvent
from ..gitcli import Git, Identity, RefUpdateRejectedError
from ..permissions import permission
from ..repos import models as repos
from ..repos.errors import ConcurrentChange, RepoPermissionDenied
from ..users import models as users
from .errors import InvalidPullOption, UpdateConflict
from .models import Pull, get_pull

__all__ = ["branch_tips", "doer_identity", "replay_commits", "update_pull_branch"]


def doer_identity(principal: Principal) -> Identity:
    """The caller as the committer of a commit the forge writes now."""
    name, email = users.doer_identity(principal)
    return Identity(name, email, now_seconds())


def _merge(git: Git, pull: Pull, base: str, head: str, doer: Identity) -> str:
    tree = git.merge_trees(head, base)
    if tree is None:
        raise UpdateConflict("merge failed because of conflict")
    message = f"Merge branch '{pull.base_branch}' into {pull.head_branch}\n"
    return git.commit_tree(tree, [head, base], message, author=doer, committer=doer)


def replay_commits(git: Git, base: str, head: str, doer: Identity) -> str:
    """The head's own commits (``base..head``, merges dropped) cherry-picked in order on ``base``; the new tip."""
    tip = base
    for sha in reversed(git.commits_between(base, head)):
        info = git.commit_info(sha)
        if len(info.parents) != 1:
            continue  # merge commits are dropped, as ``git rebase`` drops them
        scratch = git.commit_tree(git.tree_of(tip), [info.parents[0]], "rebase scratch\n", author=doer, committer=doer)
        tree = git.merge_trees(scratch, sha)
        if tree is None:
            raise UpdateConflict("rebase failed because of conflict")
        tip = git.commit_tree(tree, [tip], info.message, author=info.author, committer=doer)
    return tip


def branch_tips(git: Git, pull: Pull) -> tuple[str, str]:
    """The tips of the pull's base and head branches; 422 when either branch is gone."""
    base = git.rev_parse(f"refs/heads/{pull.base_branch}")
    head = git.rev_parse(f"refs/heads/{pull.head_branch}")
    if head is None or base is None:
        side = "head" if head is None else "base"
        raise InvalidPullOption(f"the {side} branch of the pull request no longer exists")
    return base, head


def update_pull_branch(repo: repos.Repo, index: int, style: str, principal: Principal) -> None:
    """Merge the base into the head (``style`` other than ``rebase``) or rebase the head on the base.

    422 for a merged or closed pull request, 403 without write access, 409 on a conflict (nothing moves);
    a head that already contains the base is left as it is.
    """
    pull = get_pull(repo, index)
    if pull.has_merged:
        raise InvalidPullOption("pull request is already merged")
    if pull.issue.is_closed:
        raise InvalidPullOption("pull request is closed")
    if not permission(principal, repo).can_write:
        raise RepoPermissionDenied("user should have a permission to write to the head branch")
    git = repo.git
    with repos.repo_lock(repo):
        base, head = branch_tips(git, pull)
        if git.is_ancestor(base, head):
            return
        doer = doer_identity(principal)
        new_head = replay_commits(git, base, head, doer) if style == "rebase" else _merge(git, pull, base, head, doer)
        try:
            git.update_ref(f"refs/heads/{pull.head_branch}", new_head, head)
        except RefUpdateRejectedError as exc:
            raise ConcurrentChange(f"the branch {pull.head_branch} moved during the update; retry") from exc
        repos.touch(repo)
    forge().events.publish(PushEvent(repo.id, f"refs/heads/{pull.head_branch}", head, new_head, principal.user_id))
