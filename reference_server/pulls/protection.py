"""The protected-branch rules a merge must satisfy, and what a push to a pull's head does to its reviews.

Gitea's ``CheckPullMergeable`` and ``CheckPullBranchProtections``, in their order: who may merge (the
merge allowlist, else write access), then the rule of the base branch: required status checks on the
head commit, enough official approvals, no official rejection, the head not behind the base, no
protected file changed. Each refusal is 405 with Gitea's sentence. A repository administrator's
``force_merge`` passes the rule's checks unless the rule blocks admin overrides.

A push that changes a pull's head marks its reviews stale (those of the new head excepted) and, when
the base branch's rule dismisses stale approvals, dismisses its approvals (Gitea's ``AddTestPullRequestTask``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..events import PushEvent
from ..gitcli import ZERO_SHA, GitError
from ..issues.comments import CommentType, add_event
from ..permissions import permission
from ..protections.merging import can_merge, governing_protection, required_contexts
from ..protections.models import BranchProtection
from ..protections.rules import protected_changes
from ..repos import models as repos
from ..statuses.models import latest_statuses, required_contexts_state
from . import store
from .errors import MergeNotAllowed
from .models import Pull, changed_paths, get_pull, head_commit

__all__ = ["check_mergeable", "dismiss_stale_reviews", "on_head_push", "protection_refusal"]

APPROVE, REJECT, REQUEST = 1, 3, 4
"""Gitea's review type numbers of an approval, a rejection and a review request (``reviews.ReviewType``)."""


def protection_refusal(repo: repos.Repo, pull: Pull, protection: BranchProtection) -> str | None:
    """Why the base branch's rule keeps the pull from merging now (Gitea's sentence), or None."""
    head = head_commit(repo, pull)
    if protection.flag("enable_status_check"):
        state = required_contexts_state(latest_statuses(repo.id, head), required_contexts(protection))
        if state != "success":
            return "Not all required status checks successful"
    required = int(protection.settings.get("required_approvals", 0) or 0)
    fresh_only = protection.flag("ignore_stale_approvals")
    if required and store.count_official(pull.issue.id, APPROVE, fresh_only=fresh_only) < required:
        return "Does not have enough approvals"
    if protection.flag("block_on_rejected_reviews") and store.count_official(pull.issue.id, REJECT, fresh_only=False):
        return "There are requested changes"
    if protection.flag("block_on_official_review_requests") and store.count_official(
        pull.issue.id, REQUEST, fresh_only=False
    ):
        return "There are official review requests"
    base = repo.git.rev_parse(f"refs/heads/{pull.base_branch}")
    if protection.flag("block_on_outdated_branch") and base is not None and not repo.git.is_ancestor(base, head):
        return "The head branch is behind the base branch"
    rule = protection.to_rule()
    if rule.protected_file_patterns.strip():
        paths = [path for change in changed_paths(repo, pull) for path in {change.path, change.old_path} if path]
        if protected_changes(rule, paths):
            return "Changed protected files"
    return None


def check_mergeable(
    repo: repos.Repo, pull: Pull, principal: Principal, options: Mapping[str, Any], *, scheduling: bool = False
) -> None:
    """405 when the caller may not merge into the base branch, or when its rule is not satisfied (not
    asked when ``scheduling`` a merge for when the checks succeed, as Gitea's ``MergeCheckTypeAuto``)."""
    allowed = permission(principal, repo)
    protection = governing_protection(repo, pull.base_branch)
    if not can_merge(protection, principal.user_id, can_write=allowed.can_write):
        raise MergeNotAllowed("User not allowed to merge PR")
    if protection is None or scheduling:
        return
    reason = protection_refusal(repo, pull, protection)
    if reason is None:
        return
    overrides = options.get("force_merge") is True and allowed.is_admin
    if overrides and not protection.flag("block_admin_merge_override"):
        return
    raise MergeNotAllowed(reason)


def dismiss_stale_reviews(repo: repos.Repo, pull: Pull, old_head: str, new_head: str, doer_id: int) -> None:
    """After the head moved from ``old_head`` to ``new_head``: reviews become stale when the change's
    content moved; approvals are dismissed when the rule says so. Call inside a transaction."""
    git = repo.git
    changed = old_head == ZERO_SHA or git.commit_info(old_head).tree != git.commit_info(new_head).tree
    if changed:
        store.mark_stale(pull.issue.id)
        protection = governing_protection(repo, pull.base_branch)
        if protection is not None and protection.flag("dismiss_stale_approvals"):
            now = now_seconds()
            for row in store.undismissed_of_type(pull.issue.id, APPROVE):
                store.set_dismissed(int(row["id"]), True, now)
                add_event(pull.issue.id, CommentType.DISMISS_REVIEW, doer_id, review_id=int(row["id"]))
    store.mark_fresh(pull.issue.id, new_head)


def on_head_push(event: PushEvent) -> None:
    """A branch moved: the open pulls it is the head of get their reviews aged (not on a deletion)."""
    if not event.ref.startswith("refs/heads/") or event.after in (ZERO_SHA, event.before):
        return
    rows = store.pulls_with_head(event.repo_id, event.ref.removeprefix("refs/heads/"))
    if not rows:
        return
    repo = repos.get_repo_by_id(event.repo_id)
    for row in rows:
        pull = get_pull(repo, int(row["issue_index"]))
        try:
            with forge().db.transaction():
                dismiss_stale_reviews(repo, pull, event.before, event.after, event.pusher_id)
        except GitError:
            continue
