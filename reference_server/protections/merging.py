"""What a branch protection rule says about merging pull requests into the branches it protects: who may
merge (Gitea's ``IsUserMergeWhitelisted``), whose reviews are official (``IsUserOfficialReviewer``), and
the rule's approval, status-check and review settings. The pulls family asks these questions when it
merges and when a review is submitted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..orgs import store as orgs_store
from .models import BranchProtection, list_branch_protections

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = ["can_merge", "governing_protection", "is_official_reviewer", "required_contexts"]


def governing_protection(repo: Repo, branch: str) -> BranchProtection | None:
    """The rule that governs ``branch``: the first one, in Gitea's order, whose name or glob matches."""
    for protection in list_branch_protections(repo):
        if protection.to_rule().matches(branch):
            return protection
    return None


def _listed(protection: BranchProtection, users: str, teams: str, user_id: int) -> bool:
    """Whether the user is in the rule's user list ``users`` or in one of the teams of ``teams``."""
    if user_id in {int(item) for item in protection.settings.get(users, [])}:
        return True
    return any(orgs_store.is_team_member(team_id, user_id) for team_id in protection.team_ids(teams))


def can_merge(protection: BranchProtection | None, user_id: int, *, can_write: bool) -> bool:
    """Gitea's ``IsUserAllowedToMerge``: writers merge into unprotected branches and into protected ones
    without a merge allowlist; with the allowlist on, only its users and its teams' members."""
    if protection is None or not protection.flag("enable_merge_whitelist"):
        return can_write
    return _listed(protection, "merge_user_ids", "merge_teams", user_id)


def is_official_reviewer(protection: BranchProtection | None, user_id: int, *, can_write: bool) -> bool:
    """Gitea's ``IsOfficialReviewer``: writers, or only the approvals allowlist (users and teams) when on."""
    if protection is None or not protection.flag("enable_approvals_whitelist"):
        return can_write
    return _listed(protection, "approvals_user_ids", "approvals_teams", user_id)


def required_contexts(protection: BranchProtection) -> Sequence[str]:
    """The status-check contexts (globs) the rule requires, when status checks are on."""
    return [str(item) for item in protection.settings.get("status_check_contexts", [])]
