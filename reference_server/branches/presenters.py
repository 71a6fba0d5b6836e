"""Gitea's ``Branch``: its head, its protection and what the caller may do with it; above the models."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from ..auth import Principal
from ..context import forge
from ..permissions import permission
from ..protections import guard
from ..protections import models as protections
from ..protections.merging import can_merge
from ..protections.rules import first_matching_rule
from ..repos import models as repos
from ..repos.contents import NOT_SIGNED
from ..timefmt import iso
from ..users import models as users

__all__ = ["branch_to_api"]


def _person(name: str, email: str) -> dict[str, str]:
    account = users.find_user_by_email(email)
    return {"name": name, "email": email, "username": account.name if account is not None else ""}


def _protection_fields(repo: repos.Repo, name: str, principal: Principal | None, can_write: bool) -> dict[str, Any]:
    """What the branch's effective protection rule (the first matching one by priority) says, as Gitea
    shows it on a ``Branch``; a caller may push only when the rule lets them, and merge into it only when its
    merge allow-list (if on) names them."""
    rule = first_matching_rule(protections.branch_rules(repo.id), name)
    if rule is None:
        return {
            "protected": False,
            "required_approvals": 0,
            "enable_status_check": False,
            "status_check_contexts": [],
            "user_can_push": can_write,
            "user_can_merge": can_write,
            "effective_branch_protection_name": "",
        }
    stored = next((item for item in protections.list_branch_protections(repo) if item.id == rule.id), None)
    settings: Mapping[str, Any] = stored.settings if stored is not None else {}
    can_push = can_write and principal is not None and rule.can_push(guard.pusher_for(principal, repo))
    return {
        "protected": True,
        "required_approvals": int(settings.get("required_approvals", 0)),
        "enable_status_check": bool(settings.get("enable_status_check", False)),
        "status_check_contexts": list(settings.get("status_check_contexts", [])),
        "user_can_push": can_push,
        "user_can_merge": principal is not None and can_merge(stored, principal.user_id, can_write=can_write),
        "effective_branch_protection_name": rule.rule_name,
    }


def branch_to_api(repo: repos.Repo, name: str, sha: str, principal: Principal | None) -> dict[str, Any]:
    """Gitea's ``Branch``: its head as a ``PayloadCommit``, its protection and what the caller may do with it."""
    info = repo.git.commit_info(sha)
    can_write = permission(principal, repo).can_write and not repo.is_mirror
    base = f"{quote(repo.owner_name)}/{quote(repo.name)}"
    return {
        "name": name,
        "commit": {
            "id": sha,
            "message": info.message,
            "url": forge().url(f"{base}/commit/{sha}"),
            "author": _person(info.author.name, info.author.email),
            "committer": _person(info.committer.name, info.committer.email),
            "verification": NOT_SIGNED,
            "timestamp": iso(info.author.time),
            "added": None,
            "removed": None,
            "modified": None,
        },
        **_protection_fields(repo, name, principal, can_write),
    }
