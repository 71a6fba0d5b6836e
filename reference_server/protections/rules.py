"""The meaning of protection rules, without Flask or storage: name matching and the push decision.

Both the in-process guard (contents API, branch API) and the Git pre-receive hook program decide
with these functions, so a ref is protected the same way whichever path moves it. Matching follows
Gitea: a branch rule without glob characters is a plain name compared case-insensitively; otherwise
``*`` stops at ``/``, ``**`` crosses it, ``?`` is one character, ``[...]`` a class, ``{a,b}``
alternatives. A tag pattern is a glob where ``*`` crosses ``/``, or a regular expression between
slashes (``/^v[0-9]+$/``) searched anywhere in the name. File patterns are ``;``-separated globs
compared in lower case, where ``*`` stops at ``/`` and ``.``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = [
    "GLOB_SPECIAL",
    "BranchRule",
    "Pusher",
    "TagRule",
    "branch_refusal",
    "commit_refusal",
    "compile_glob",
    "first_matching_rule",
    "is_plain_rule_name",
    "order_key",
    "protected_changes",
    "sort_branch_rules",
    "tag_pattern_error",
    "tag_refusal",
]

GLOB_SPECIAL = frozenset("*?[]{}\\")
"""Characters that make a branch rule name a glob rather than a plain branch name (Gitea's set)."""


class GlobSyntaxError(ValueError):
    """A glob that does not parse (an unclosed class or alternative)."""


def is_plain_rule_name(name: str) -> bool:
    return not any(char in GLOB_SPECIAL for char in name)


def _class(pattern: str, start: int) -> tuple[str, int]:
    """The regular expression of the ``[...]`` class opening at ``start`` and the index after it."""
    end = pattern.find("]", start + 2 if pattern[start + 1 : start + 2] in ("!", "^") else start + 1)
    if end < 0:
        raise GlobSyntaxError(f"unclosed character class in {pattern!r}")
    body = pattern[start + 1 : end]
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    escaped = "".join("\\" + char if char in "\\^[]" else char for char in body)
    return ("[^" if negate else "[") + escaped + "]", end + 1


def _translate(pattern: str, separators: str, start: int = 0, *, in_braces: bool = False) -> tuple[str, int]:
    """Translate ``pattern`` from ``start`` up to the end (or the closing ``}`` / ``,`` of an alternative)."""
    not_separator = f"[^{re.escape(separators)}]" if separators else "."
    out: list[str] = []
    index = start
    while index < len(pattern):
        char = pattern[index]
        if in_braces and char in ",}":
            return "".join(out), index
        if char == "\\":
            if index + 1 >= len(pattern):
                raise GlobSyntaxError(f"dangling escape in {pattern!r}")
            out.append(re.escape(pattern[index + 1]))
            index += 2
        elif char == "*":
            if pattern.startswith("**", index):
                out.append(".*")
                index += 2
            else:
                out.append(not_separator + "*")
                index += 1
        elif char == "?":
            out.append(not_separator)
            index += 1
        elif char == "[":
            regex, index = _class(pattern, index)
            out.append(regex)
        elif char == "{":
            alternatives: list[str] = []
            index += 1
            while True:
                regex, index = _translate(pattern, separators, index, in_braces=True)
                alternatives.append(regex)
                if index >= len(pattern):
                    raise GlobSyntaxError(f"unclosed alternative in {pattern!r}")
                index += 1
                if pattern[index - 1] == "}":
                    break
            out.append("(?:" + "|".join(alternatives) + ")")
        else:
            out.append(re.escape(char))
            index += 1
    if in_braces:
        raise GlobSyntaxError(f"unclosed alternative in {pattern!r}")
    return "".join(out), index


@lru_cache(maxsize=512)
def compile_glob(pattern: str, separators: str = "") -> re.Pattern[str]:
    """A glob as an anchored regular expression; a glob that does not parse matches itself literally
    (as Gitea falls back to the quoted rule name)."""
    try:
        regex, _ = _translate(pattern, separators)
    except GlobSyntaxError:
        regex = re.escape(pattern)
    return re.compile(r"\A(?:" + regex + r")\Z", re.DOTALL)


@dataclass(frozen=True)
class Pusher:
    """Who moves a ref: a user (``user_id``), or a deploy token (``deploy_token_id``; ``user_id`` is then
    the repository owner's, as Gitea's deploy keys act for the owner), with the ids of the teams the
    user belongs to in the owning organization."""

    user_id: int
    deploy_token_id: int | None = None
    team_ids: frozenset[int] = field(default_factory=frozenset)

    @property
    def is_deploy_token(self) -> bool:
        return self.deploy_token_id is not None


@dataclass(frozen=True)
class BranchRule:
    """What the enforcement of one branch protection rule needs (the other fields are only stored)."""

    id: int
    rule_name: str
    priority: int
    created: int
    enable_push: bool
    enable_push_whitelist: bool
    push_user_ids: frozenset[int]
    push_team_ids: frozenset[int]
    push_deploy_keys: bool
    enable_force_push: bool
    enable_force_push_allowlist: bool
    force_push_user_ids: frozenset[int]
    force_push_team_ids: frozenset[int]
    force_push_deploy_keys: bool
    protected_file_patterns: str
    unprotected_file_patterns: str

    @property
    def is_plain(self) -> bool:
        return is_plain_rule_name(self.rule_name)

    def matches(self, branch: str) -> bool:
        if self.is_plain:
            return self.rule_name.casefold() == branch.casefold()
        return compile_glob(self.rule_name, "/").match(branch) is not None

    def _listed(self, pusher: Pusher, users: frozenset[int], teams: frozenset[int]) -> bool:
        return pusher.user_id in users or bool(teams & pusher.team_ids)

    def can_push(self, pusher: Pusher) -> bool:
        """Gitea's ``CanUserPush`` (write access was checked before the rule is consulted)."""
        if not self.enable_push:
            return False
        if pusher.is_deploy_token:
            return not self.enable_push_whitelist or self.push_deploy_keys
        return not self.enable_push_whitelist or self._listed(pusher, self.push_user_ids, self.push_team_ids)

    def can_force_push(self, pusher: Pusher) -> bool:
        """Gitea's ``CanUserForcePush``: a force push is a push, further limited by its own allowlist."""
        if not self.enable_force_push or not self.can_push(pusher):
            return False
        if not self.enable_force_push_allowlist:
            return True
        if pusher.is_deploy_token:
            return self.force_push_deploy_keys
        return self._listed(pusher, self.force_push_user_ids, self.force_push_team_ids)


def order_key(priority: int, rule_name: str, created: int, rule_id: int) -> tuple[int, int, int, int]:
    """Where a rule sorts: by priority, then plain names before globs, then oldest first (Gitea's order)."""
    return (priority, 0 if is_plain_rule_name(rule_name) else 1, created, rule_id)


def sort_branch_rules(rules: Iterable[BranchRule]) -> list[BranchRule]:
    return sorted(rules, key=lambda rule: order_key(rule.priority, rule.rule_name, rule.created, rule.id))


def first_matching_rule(rules: Iterable[BranchRule], branch: str) -> BranchRule | None:
    """The rule that governs ``branch``: the first match in priority order."""
    return next((rule for rule in sort_branch_rules(rules) if rule.matches(branch)), None)


def _file_patterns(patterns: str) -> list[re.Pattern[str]]:
    return [compile_glob(part.strip(), "./") for part in patterns.lower().split(";") if part.strip()]


def _first_protected(rule: BranchRule, changed_paths: Sequence[str]) -> str | None:
    patterns = _file_patterns(rule.protected_file_patterns)
    for path in changed_paths:
        lowered = path.strip().lower()
        if any(pattern.match(lowered) for pattern in patterns):
            return path
    return None


def protected_changes(rule: BranchRule, changed_paths: Sequence[str]) -> list[str]:
    """The changed files the rule's protected file patterns match (what blocks a merge, as Gitea's
    ``ChangedProtectedFiles``)."""
    patterns = _file_patterns(rule.protected_file_patterns)
    return [path for path in changed_paths if any(pattern.match(path.strip().lower()) for pattern in patterns)]


def _only_unprotected(rule: BranchRule, changed_paths: Sequence[str]) -> bool:
    patterns = _file_patterns(rule.unprotected_file_patterns)
    if not patterns or not changed_paths:
        return False
    return all(any(pattern.match(path.strip().lower()) for pattern in patterns) for path in changed_paths)


def commit_refusal(rule: BranchRule, pusher: Pusher, user_name: str, changed_paths: Sequence[str]) -> str | None:
    """Why Gitea's contents API refuses a commit to a branch ``rule`` covers before anything is pushed
    (``VerifyBranchProtection``, with its own wording, not the pre-receive hook's), or None.

    File by file: a caller who may not push is refused unless the file matches an unprotected pattern
    (``ErrUserCannotCommit``), then a file matching a protected pattern is refused (``ErrFilePathProtected``).
    """
    unprotected = _file_patterns(rule.unprotected_file_patterns)
    protected = _file_patterns(rule.protected_file_patterns)
    can_push = rule.can_push(pusher)
    for path in changed_paths:
        lowered = path.strip().lower()
        if not can_push and not any(pattern.match(lowered) for pattern in unprotected):
            return f"user cannot commit to repo [user: {user_name.lower()}]"
        if any(pattern.match(lowered) for pattern in protected):
            return f"path is protected and can not be changed [path: {path}]"
    return None


def branch_refusal(
    rule: BranchRule,
    pusher: Pusher,
    branch: str,
    *,
    deleting: bool,
    forced: bool,
    changed_paths: Sequence[str],
) -> str | None:
    """Why ``rule`` refuses this update of ``branch`` (Gitea's pre-receive wording), or None to allow it.

    ``forced`` is a non-fast-forward update; ``changed_paths`` the files the update changes.
    """
    if deleting:
        return f"branch {branch} is protected from deletion"
    if forced and not rule.enable_force_push:
        return f"branch {branch} is protected from force push"
    protected_path = _first_protected(rule, changed_paths)
    allowed = rule.can_force_push(pusher) if forced else rule.can_push(pusher)
    if allowed and protected_path is None:
        return None
    if protected_path is not None:
        return f"branch {branch} is protected from changing file {protected_path}"
    if _only_unprotected(rule, changed_paths):
        return None
    return f"Not allowed to push to protected branch {branch}"


@dataclass(frozen=True)
class TagRule:
    """One tag protection rule: who may create, move or delete the tags its pattern matches."""

    id: int
    name_pattern: str
    user_ids: frozenset[int]
    team_ids: frozenset[int]

    def matches(self, tag: str) -> bool:
        pattern = self.name_pattern
        if len(pattern) >= 2 and pattern.startswith("/") and pattern.endswith("/"):
            try:
                return re.search(pattern[1:-1], tag) is not None
            except re.error:
                return False
        return compile_glob(pattern).match(tag) is not None

    def allows(self, pusher: Pusher) -> bool:
        return pusher.user_id in self.user_ids or bool(self.team_ids & pusher.team_ids)


def tag_pattern_error(pattern: str) -> str | None:
    """Why a tag pattern is unusable (a regular expression that does not compile), or None."""
    if len(pattern) >= 2 and pattern.startswith("/") and pattern.endswith("/"):
        try:
            re.compile(pattern[1:-1])
        except re.error as error:
            return f"invalid regular expression {pattern!r}: {error}"
    return None


def tag_refusal(rules: Iterable[TagRule], pusher: Pusher, tag: str) -> str | None:
    """Gitea's ``IsUserAllowedToControlTag``: a tag some rule matches may only be changed by a user one
    matching rule allows (deploy tokens are never in an allowlist)."""
    matching = [rule for rule in rules if rule.matches(tag)]
    if not matching:
        return None
    if not pusher.is_deploy_token and any(rule.allows(pusher) for rule in matching):
        return None
    return f"Tag {tag} is protected"
