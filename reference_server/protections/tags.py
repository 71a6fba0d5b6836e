"""Tag protection rules: who may create, move or delete the tags a pattern matches (Gitea's shapes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..context import forge, now_seconds
from ..timefmt import iso
from . import store, stored
from .errors import InvalidProtectionOption, TagProtectionExists, TagProtectionNotFound
from .models import names_of, resolve_teams, resolve_users, user_names
from .rules import TagRule, tag_pattern_error
from .stored import TagProtection

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "TagProtection",
    "create_tag_protection",
    "delete_tag_protection",
    "edit_tag_protection",
    "get_tag_protection",
    "list_tag_protections",
    "tag_protection_to_api",
    "tag_rules",
]

MAX_ID = 2**63 - 1


def tag_rules(repo_id: int) -> list[TagRule]:
    """The enforcement view of a repository's tag rules."""
    return stored.tag_rules(forge().db, repo_id)


def list_tag_protections(repo: Repo) -> list[TagProtection]:
    return [TagProtection.from_row(row) for row in store.tag_rule_rows(repo.id)]


def get_tag_protection(repo: Repo, raw_id: str) -> TagProtection:
    """A rule of this repository by id; 404 for another repository's rule or a malformed id."""
    if not raw_id.isdigit() or not 0 < int(raw_id) <= MAX_ID:
        raise TagProtectionNotFound(f"tag protection {raw_id!r} not found")
    row = store.tag_rule_row(repo.id, int(raw_id))
    if row is None:
        raise TagProtectionNotFound(f"tag protection {raw_id} not found")
    return TagProtection.from_row(row)


def _pattern(options: Mapping[str, Any]) -> str | None:
    value = options.get("name_pattern")
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidProtectionOption("[NamePattern]: must be a string")
    pattern = value.strip()
    if not pattern:
        raise InvalidProtectionOption("name_pattern are empty", status=400)
    problem = tag_pattern_error(pattern)
    if problem is not None:
        raise InvalidProtectionOption(problem)
    return pattern


def _allowlists(repo: Repo, options: Mapping[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    users = names_of(options, "whitelist_usernames")
    if users is not None:
        fields["user_ids"] = resolve_users(repo, users, None)
    teams = names_of(options, "whitelist_teams")
    if teams is not None:
        fields["teams"] = resolve_teams(repo, teams)
    return fields


def create_tag_protection(repo: Repo, options: Mapping[str, Any]) -> TagProtection:
    """Store a rule from a ``CreateTagProtectionOption`` (400 without a pattern or without any allowlist)."""
    pattern = _pattern(options)
    if pattern is None:
        raise InvalidProtectionOption("name_pattern are empty", status=400)
    if not names_of(options, "whitelist_usernames") and not names_of(options, "whitelist_teams"):
        raise InvalidProtectionOption("both whitelist_usernames and whitelist_teams are empty", status=400)
    fields = {"name_pattern": pattern, "user_ids": [], "teams": [], **_allowlists(repo, options)}
    with forge().db.transaction():
        if store.tag_rule_by_pattern(repo.id, pattern) is not None:
            raise TagProtectionExists()
        rule_id = store.insert_tag_rule(repo.id, fields, now_seconds())
    return get_tag_protection(repo, str(rule_id))


def edit_tag_protection(repo: Repo, raw_id: str, options: Mapping[str, Any]) -> TagProtection:
    """Apply an ``EditTagProtectionOption``: only the given fields change."""
    rule = get_tag_protection(repo, raw_id)
    fields: dict[str, Any] = _allowlists(repo, options)
    pattern = _pattern(options)
    with forge().db.transaction():
        if pattern is not None and pattern != rule.name_pattern:
            if store.tag_rule_by_pattern(repo.id, pattern) is not None:
                raise TagProtectionExists()
            fields["name_pattern"] = pattern
        store.update_tag_rule(rule.id, fields, now_seconds())
    return get_tag_protection(repo, raw_id)


def delete_tag_protection(repo: Repo, raw_id: str) -> None:
    rule = get_tag_protection(repo, raw_id)
    with forge().db.transaction():
        store.delete_tag_rule(rule.id)


def tag_protection_to_api(rule: TagProtection) -> dict[str, Any]:
    """Gitea's ``TagProtection``."""
    return {
        "id": rule.id,
        "name_pattern": rule.name_pattern,
        "whitelist_usernames": user_names(rule.user_ids),
        "whitelist_teams": [str(team["name"]) for team in rule.teams],
        "created_at": iso(rule.created),
        "updated_at": iso(rule.updated),
    }
