"""Merging a pull request into its base branch, by plumbing only (no work tree).

Styles as Gitea's ``MergePullRequestOption.Do``: ``merge`` (a merge commit, the default), ``squash`` (one
commit with the head's tree changes on the base), ``rebase`` (the head's commits replayed on the base,
the base fast-forwarded to them) and ``fast-forward-only``. The base moves with a compare-and-swap and a
``PushEvent`` is published; the pull request is marked merged and its issue closed with a ``merge_pull``
timeline entry, in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..events import PushEvent
from ..gitcli import ZERO_SHA, Git, Identity, RefUpdateRejectedError
from ..issues import models as issues
from ..repos import models as repos
from ..repos.errors import ConcurrentChange
from . import store
from .errors import InvalidPullOption, MergeNotAllowed, PullNotFound, UpdateConflict
from .models import Pull, get_pull
from .protection import check_mergeable
from .update import branch_tips, doer_identity, replay_commits

__all__ = ["MERGE_STYLES", "merge_pull", "merge_style"]

MERGE_STYLES = ("merge", "squash", "rebase", "fast-forward-only")
GITEA_STYLES = (*MERGE_STYLES, "rebase-merge", "manually-merged")


def _message(pull: Pull, style: str, options: Mapping[str, Any]) -> str:
    """``merge_title_field`` (and ``merge_message_field``), else Gitea's default message for the style."""
    title = options.get("merge_title_field")
    body = options.get("merge_message_field")
    if (title is not None and not isinstance(title, str)) or (body is not None and not isinstance(body, str)):
        raise InvalidPullOption("[MergeTitleField]: merge_title_field and merge_message_field must be strings")
    message = (title or "").strip()
    if not message:
        if style == "squash":
            message = f"{pull.issue.title} (#{pull.index})"
        else:
            message = f"Merge pull request '{pull.issue.title}' (#{pull.index})"
            message += f" from {pull.head_branch} into {pull.base_branch}"
    if body and body.strip():
        message += "\n\n" + body.strip()
    return message + "\n"


def _new_base(git: Git, style: str, *, base: str, head: str, message: str, doer: Identity) -> str:
    """The commit the base branch moves to; 409 on a conflict, or when a fast-forward is impossible."""
    if style == "fast-forward-only":
        if not git.is_ancestor(base, head):
            raise UpdateConflict("the base branch has moved on: a fast-forward merge is not possible")
        return head
    if style == "rebase":
        return replay_commits(git, base, head, doer)
    tree = git.merge_trees(base, head)
    if tree is None:
        raise UpdateConflict("merge failed because of conflict")
    parents = [base] if style == "squash" else [base, head]
    if style == "squash":
        author = git.commit_info(head).author
        return git.commit_tree(tree, parents, message, author=author, committer=doer)
    return git.commit_tree(tree, parents, message, author=doer, committer=doer)


def merge_style(options: Mapping[str, Any]) -> str:
    """``Do``: 422 when missing or unknown, 405 for a style the reference does not offer."""
    style = options.get("Do", options.get("do"))
    if not style:
        raise InvalidPullOption("[Do]: Required")
    if style not in GITEA_STYLES:
        raise InvalidPullOption(f"[Do]: must be one of {', '.join(GITEA_STYLES)}")
    if style not in MERGE_STYLES:
        raise MergeNotAllowed(f"{style} is not allowed an allowed merge style for this repository")
    return str(style)


def merge_pull(repo: repos.Repo, index: int, options: Mapping[str, Any], principal: Principal) -> None:
    """Merge the pull request ``index`` with the style ``options["Do"]`` (required, as Gitea's binding has it).

    422 for a missing or unknown style; 404 for a closed pull; 405 when already merged, for a caller
    who may not merge into the base branch, while its protection rule is not satisfied
    (:mod:`.protection`), or for a style the reference does not offer (``rebase-merge``, ``manually-merged``);
    409 on a conflict or when ``head_commit_id`` is not the head any more. Nothing moves on a refusal.
    """
    pull = get_pull(repo, index)
    if pull.has_merged:
        raise MergeNotAllowed("the pull request has already been merged")
    if pull.issue.is_closed:
        raise PullNotFound("the pull request is closed")
    check_mergeable(repo, pull, principal, options)
    style = merge_style(options)
    message = _message(pull, str(style), options)
    expected_head = options.get("head_commit_id") or ""
    git = repo.git
    with repos.repo_lock(repo):
        base, head = branch_tips(git, pull)
        if expected_head and expected_head != head:
            raise UpdateConflict("head out of date")
        new_base = _new_base(git, str(style), base=base, head=head, message=message, doer=doer_identity(principal))
        merge_base = git.merge_base(base, head) or pull.merge_base
        with forge().db.transaction():
            store.update_pull(
                pull.id,
                {
                    "has_merged": 1,
                    "merged_commit": new_base,
                    "merger_id": principal.user_id,
                    "merged": now_seconds(),
                    "merge_base": merge_base,
                },
            )
            issues.close_merged(pull.issue, principal.user_id, new_base)
            try:
                git.update_ref(f"refs/heads/{pull.base_branch}", new_base, base)
            except RefUpdateRejectedError as exc:
                raise ConcurrentChange(f"the branch {pull.base_branch} moved during the merge; retry") from exc
        git.update_ref(pull.head_ref, head, git.rev_parse(pull.head_ref) or ZERO_SHA)
        repos.touch(repo)
    forge().events.publish(PushEvent(repo.id, f"refs/heads/{pull.base_branch}", base, new_base, principal.user_id))
