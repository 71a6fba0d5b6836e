"""Branch protection rules (with priority) and tag protection rules: options and state (shapes: :mod:`.presenters`).

Options are checked whole (types, users, teams) before anything is written, so a refused request
changes nothing. The reference enforces pushing, force pushing, deletion and protected/unprotected
file patterns on pushes, and the merge allowlist, approvals, status checks, rejected reviews, outdated
branches and stale approvals on merges (:mod:`.merging`, asked by the pulls family); the signed-commit
and bypass settings are stored and returned faithfully but not enforced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..orgs.models import find_team
from ..permissions import permission
from ..users.errors import UserNotFound
from ..users.models import find_account, get_user
from . import store, stored
from .errors import (
    BranchProtectionExists,
    BranchProtectionNotFound,
    InvalidProtectionOption,
    MissingRuleName,
    UnknownTeam,
    UnknownUser,
)
from .rules import BranchRule, order_key
from .stored import COLUMN_SETTINGS, BranchProtection

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "BranchProtection",
    "branch_rules",
    "create_branch_protection",
    "delete_branch_protection",
    "edit_branch_protection",
    "get_branch_protection",
    "list_branch_protections",
    "reorder_branch_protections",
]

MAX_PRIORITY = 2**63 - 1

USER_LISTS: dict[str, tuple[str, str]] = {
    "push_whitelist_usernames": ("push_user_ids", "write"),
    "force_push_allowlist_usernames": ("force_push_user_ids", "write"),
    "merge_whitelist_usernames": ("merge_user_ids", "write"),
    "approvals_whitelist_username": ("approvals_user_ids", "read"),
    "bypass_allowlist_usernames": ("bypass_user_ids", "write"),
}
"""API field -> (setting, the access a listed user needs to be kept, as Gitea drops the others)."""
TEAM_LISTS: dict[str, str] = {
    "push_whitelist_teams": "push_teams",
    "force_push_allowlist_teams": "force_push_teams",
    "merge_whitelist_teams": "merge_teams",
    "approvals_whitelist_teams": "approvals_teams",
    "bypass_allowlist_teams": "bypass_teams",
}
STORED_FLAGS = (
    "enable_merge_whitelist",
    "enable_status_check",
    "enable_approvals_whitelist",
    "block_on_rejected_reviews",
    "block_on_official_review_requests",
    "block_on_outdated_branch",
    "dismiss_stale_approvals",
    "ignore_stale_approvals",
    "require_signed_commits",
    "block_admin_merge_override",
    "enable_bypass_allowlist",
)
"""Settings kept in ``stored_options`` (the merge-related ones are read by :mod:`.merging`)."""


# -- option checking ------------------------------------------------------------------------------


def _bool(options: Mapping[str, Any], key: str) -> bool | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise InvalidProtectionOption(f"[{key}]: must be true or false")
    return value


def _int(options: Mapping[str, Any], key: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -MAX_PRIORITY - 1 <= value <= MAX_PRIORITY:
        raise InvalidProtectionOption(f"[{key}]: must be an integer")
    return value


def _text(options: Mapping[str, Any], key: str) -> str | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidProtectionOption(f"[{key}]: must be a string")
    return value


def names_of(options: Mapping[str, Any], key: str) -> list[str] | None:
    """A list of names (None when absent); 422 when it is not a list of strings."""
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidProtectionOption(f"[{key}]: must be a list of names")
    return list(dict.fromkeys(item for item in value if item.strip()))


def _principal_of(user_id: int) -> Principal | None:
    try:
        user = get_user(user_id)
    except UserNotFound:
        return None
    return Principal(user.id, user.name, user.is_admin, frozenset({"all"}))


def resolve_users(repo: Repo, names: Sequence[str], need: str | None) -> list[int]:
    """Account ids of ``names`` (422 for an unknown one); as Gitea, users without ``need`` access to the
    repository are dropped from the list (``None``: every named user is kept, as tag allowlists do)."""
    kept: list[int] = []
    for name in names:
        account = find_account(name)
        if account is None:
            raise UnknownUser(f"user does not exist [uid: 0, name: {name}]")
        if need is None:
            kept.append(account.id)
            continue
        principal = _principal_of(account.id)
        access = permission(principal, repo) if principal is not None else None
        if access is not None and (access.can_write if need == "write" else access.can_read):
            kept.append(account.id)
    return list(dict.fromkeys(kept))


def resolve_teams(repo: Repo, names: Sequence[str]) -> list[dict[str, Any]]:
    """``{"id", "name"}`` of each team of the owning organization (422 for an unknown one); team lists of a
    user's repository are ignored, as in Gitea."""
    if not repo.owner_is_org:
        return []
    teams: list[dict[str, Any]] = []
    for name in names:
        team = find_team(repo.owner_id, name)
        if team is None:
            raise UnknownTeam(f"team does not exist [org_id {repo.owner_id}, team_id 0, name: {name}]")
        teams.append({"id": int(team.id), "name": str(team.name)})
    return teams


def _lists(repo: Repo, options: Mapping[str, Any]) -> dict[str, Any]:
    """The user and team lists given in ``options``, resolved (absent lists are left out)."""
    settings: dict[str, Any] = {}
    for field, (setting, need) in USER_LISTS.items():
        names = names_of(options, field)
        if names is not None:
            settings[setting] = resolve_users(repo, names, need)
    for field, setting in TEAM_LISTS.items():
        names = names_of(options, field)
        if names is not None:
            settings[setting] = resolve_teams(repo, names)
    return settings


def _stored_values(options: Mapping[str, Any]) -> dict[str, Any]:
    """The stored-only scalar settings given in ``options``."""
    settings: dict[str, Any] = {}
    for flag in STORED_FLAGS:
        value = _bool(options, flag)
        if value is not None:
            settings[flag] = value
    contexts = names_of(options, "status_check_contexts")
    if contexts is not None:
        settings["status_check_contexts"] = contexts
    approvals = _int(options, "required_approvals")
    if approvals is not None and approvals >= 0:
        settings["required_approvals"] = approvals
    for patterns in ("protected_file_patterns", "unprotected_file_patterns"):
        text = _text(options, patterns)
        if text is not None:
            settings[patterns] = text
    return settings


def _push_settings(options: Mapping[str, Any], current: Mapping[str, Any]) -> dict[str, bool]:
    """The push and force-push switches, each allowlist only effective under its switch (Gitea's rules)."""
    settings: dict[str, bool] = {}
    enable_push = _bool(options, "enable_push")
    whitelist = _bool(options, "enable_push_whitelist")
    deploy = _bool(options, "push_whitelist_deploy_keys")
    if enable_push is False:
        settings.update(enable_push=False, enable_push_whitelist=False, push_deploy_keys=False)
    elif enable_push:
        settings["enable_push"] = True
        if whitelist is False:
            settings.update(enable_push_whitelist=False, push_deploy_keys=False)
        elif whitelist:
            settings["enable_push_whitelist"] = True
            if deploy is not None:
                settings["push_deploy_keys"] = deploy
    force = _bool(options, "enable_force_push")
    allowlist = _bool(options, "enable_force_push_allowlist")
    force_deploy = _bool(options, "force_push_allowlist_deploy_keys")
    push_on = settings.get("enable_push", bool(current.get("enable_push", False)))
    if force is False or (force and not push_on):
        settings.update(enable_force_push=False, enable_force_push_allowlist=False, force_push_deploy_keys=False)
    elif force:
        settings["enable_force_push"] = True
        if allowlist is False:
            settings.update(enable_force_push_allowlist=False, force_push_deploy_keys=False)
        elif allowlist:
            settings["enable_force_push_allowlist"] = True
            if force_deploy is not None:
                settings["force_push_deploy_keys"] = force_deploy
    return settings


DEFAULTS: dict[str, Any] = {
    **{flag: False for flag in STORED_FLAGS},
    **{setting: [] for setting, _ in USER_LISTS.values()},
    **{setting: [] for setting in TEAM_LISTS.values()},
    "enable_push": False,
    "enable_push_whitelist": False,
    "push_deploy_keys": False,
    "enable_force_push": False,
    "enable_force_push_allowlist": False,
    "force_push_deploy_keys": False,
    "status_check_contexts": [],
    "required_approvals": 0,
    "protected_file_patterns": "",
    "unprotected_file_patterns": "",
}


def _columns(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Split settings into table columns and the ``stored_options`` object."""
    fields = {name: value for name, value in settings.items() if name in COLUMN_SETTINGS}
    fields["stored_options"] = {name: value for name, value in settings.items() if name not in COLUMN_SETTINGS}
    return fields


# -- branch protections ---------------------------------------------------------------------------


def list_branch_protections(repo: Repo) -> list[BranchProtection]:
    """The rules of a repository by priority, then plain names before globs, then creation (Gitea's order)."""
    found = [BranchProtection.from_row(row) for row in store.branch_rule_rows(repo.id)]
    return sorted(found, key=lambda rule: order_key(rule.priority, rule.rule_name, rule.created, rule.id))


def branch_rules(repo_id: int) -> list[BranchRule]:
    """The enforcement view of a repository's rules."""
    return stored.branch_rules(forge().db, repo_id)


def get_branch_protection(repo: Repo, name: str) -> BranchProtection:
    row = store.branch_rule_by_name(repo.id, name)
    if row is None:
        raise BranchProtectionNotFound(f"branch protection {name!r} not found")
    return BranchProtection.from_row(row)


def create_branch_protection(repo: Repo, options: Mapping[str, Any]) -> BranchProtection:
    """Store a rule from a ``CreateBranchProtectionOption``; priority 0 or absent puts it last."""
    rule_name = _text(options, "rule_name") or _text(options, "branch_name") or ""
    if not rule_name:
        raise MissingRuleName()
    priority = _int(options, "priority") or 0
    settings = {**DEFAULTS, **_stored_values(options), **_push_settings(options, {}), **_lists(repo, options)}
    db = forge().db
    with db.transaction():
        if store.branch_rule_by_name(repo.id, rule_name) is not None:
            raise BranchProtectionExists()
        if priority == 0:
            priority = store.max_branch_priority(repo.id) + 1
        rule_id = store.insert_branch_rule(
            repo.id, {"rule_name": rule_name, "priority": priority, **_columns(settings)}, now_seconds()
        )
    return _reload(repo, rule_id)


def _reload(repo: Repo, rule_id: int) -> BranchProtection:
    for row in store.branch_rule_rows(repo.id):
        if int(row["id"]) == rule_id:
            return BranchProtection.from_row(row)
    raise BranchProtectionNotFound(f"branch protection {rule_id} vanished")


def edit_branch_protection(repo: Repo, name: str, options: Mapping[str, Any]) -> BranchProtection:
    """Apply an ``EditBranchProtectionOption``: only the given fields change (the rule name never does)."""
    rule = get_branch_protection(repo, name)
    changes: dict[str, Any] = {**_stored_values(options), **_push_settings(options, rule.settings)}
    changes.update(_lists(repo, options))
    priority = _int(options, "priority")
    settings = {**DEFAULTS, **rule.settings, **changes}
    fields = _columns(settings)
    if priority is not None:
        fields["priority"] = priority
    with forge().db.transaction():
        store.update_branch_rule(rule.id, fields, now_seconds())
    return _reload(repo, rule.id)


def delete_branch_protection(repo: Repo, name: str) -> None:
    rule = get_branch_protection(repo, name)
    with forge().db.transaction():
        store.delete_branch_rule(rule.id)


def reorder_branch_protections(repo: Repo, options: Mapping[str, Any]) -> None:
    """``UpdateBranchProtectionPriories``: the listed rules get priorities 1, 2, 3... in that order, in
    place. Unlike Gitea, which skips ids it does not know, an id that is not a rule of this repository
    (or a repeated one) is refused with 422 and nothing changes."""
    raw = options.get("ids")
    if raw is None:
        return
    if not isinstance(raw, list) or not all(isinstance(item, int) and not isinstance(item, bool) for item in raw):
        raise InvalidProtectionOption("[IDs]: must be a list of rule ids")
    if len(set(raw)) != len(raw):
        raise InvalidProtectionOption("[IDs]: a rule id is listed twice")
    with forge().db.transaction():
        known = store.branch_rule_ids(repo.id)
        strangers = [rule_id for rule_id in raw if rule_id not in known]
        if strangers:
            raise InvalidProtectionOption(
                f"[IDs]: {', '.join(map(str, strangers))} are not branch protection rules of {repo.full_name}"
            )
        for position, rule_id in enumerate(raw, start=1):
            store.set_branch_priority(repo.id, rule_id, position)


def user_names(user_ids: Sequence[int]) -> list[str]:
    """Names of the listed accounts that still exist."""
    names: list[str] = []
    for user_id in user_ids:
        try:
            names.append(get_user(int(user_id)).name)
        except UserNotFound:
            continue
    return names


def copy_branch_rules(from_repo_id: int, to_repo_id: int) -> None:
    """Give a repository generated from a template the template's branch protection rules."""
    store.copy_branch_rules(from_repo_id, to_repo_id, now_seconds())
