"""Gitea's ``BranchProtection`` as the API shows it; above the models, which never render."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..timefmt import iso
from .models import STORED_FLAGS, BranchProtection, user_names
from .rules import is_plain_rule_name

__all__ = ["branch_protection_to_api"]


def _team_names(teams: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(team["name"]) for team in teams]


def branch_protection_to_api(rule: BranchProtection) -> dict[str, Any]:
    """Gitea 1.27's ``BranchProtection``, plus the rule's ``id`` (which Gitea does not expose) so a client
    can call the priority route."""
    settings = rule.settings
    flags = {flag: bool(settings.get(flag, False)) for flag in STORED_FLAGS}
    return {
        "id": rule.id,
        "branch_name": rule.rule_name if is_plain_rule_name(rule.rule_name) else "",
        "rule_name": rule.rule_name,
        "priority": rule.priority,
        "enable_push": rule.flag("enable_push"),
        "enable_push_whitelist": rule.flag("enable_push_whitelist"),
        "push_whitelist_usernames": user_names(settings["push_user_ids"]),
        "push_whitelist_teams": _team_names(settings["push_teams"]),
        "push_whitelist_deploy_keys": rule.flag("push_deploy_keys"),
        "enable_force_push": rule.flag("enable_force_push"),
        "enable_force_push_allowlist": rule.flag("enable_force_push_allowlist"),
        "force_push_allowlist_usernames": user_names(settings["force_push_user_ids"]),
        "force_push_allowlist_teams": _team_names(settings["force_push_teams"]),
        "force_push_allowlist_deploy_keys": rule.flag("force_push_deploy_keys"),
        "enable_merge_whitelist": flags["enable_merge_whitelist"],
        "merge_whitelist_usernames": user_names(settings.get("merge_user_ids", [])),
        "merge_whitelist_teams": _team_names(settings.get("merge_teams", [])),
        "enable_status_check": flags["enable_status_check"],
        "status_check_contexts": list(settings.get("status_check_contexts", [])),
        "required_approvals": int(settings.get("required_approvals", 0)),
        "enable_approvals_whitelist": flags["enable_approvals_whitelist"],
        "approvals_whitelist_username": user_names(settings.get("approvals_user_ids", [])),
        "approvals_whitelist_teams": _team_names(settings.get("approvals_teams", [])),
        "block_on_rejected_reviews": flags["block_on_rejected_reviews"],
        "block_on_official_review_requests": flags["block_on_official_review_requests"],
        "block_on_outdated_branch": flags["block_on_outdated_branch"],
        "dismiss_stale_approvals": flags["dismiss_stale_approvals"],
        "ignore_stale_approvals": flags["ignore_stale_approvals"],
        "require_signed_commits": flags["require_signed_commits"],
        "protected_file_patterns": str(settings["protected_file_patterns"]),
        "unprotected_file_patterns": str(settings["unprotected_file_patterns"]),
        "block_admin_merge_override": flags["block_admin_merge_override"],
        "enable_bypass_allowlist": flags["enable_bypass_allowlist"],
        "bypass_allowlist_usernames": user_names(settings.get("bypass_user_ids", [])),
        "bypass_allowlist_teams": _team_names(settings.get("bypass_teams", [])),
        "created_at": iso(rule.created),
        "updated_at": iso(rule.updated),
    }
