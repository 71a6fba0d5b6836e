"""Dependency rules: a link "target depends on dependency" (the same as "dependency blocks target") needs
write access to the target's repository and read access to the dependency's, may cross repositories, and
is refused when it exists already or would close a cycle (an issue depending on itself, directly or
through other issues). Adding or removing a link records ``add_dependency``/``remove_dependency``
(comment types 19/20) on both issues, each entry pointing at the other issue, as Gitea does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..context import forge, now_seconds
from ..issues.comments import CommentType, add_event
from ..issues.models import Issue, get_issue, get_issue_by_id
from ..permissions import permission
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from . import store
from .errors import CircularDependency, DependencyExists, DependencyNotFound, InvalidIssueMeta, LinkNotAllowed

__all__ = [
    "Linked",
    "add_link",
    "blocks_page",
    "dependencies_page",
    "remove_link",
    "resolve_issue_meta",
]


@dataclass(frozen=True)
class Linked:
    """One end of a link: an issue (or pull request) with its repository."""

    repo: repos.Repo
    issue: Issue

    @property
    def label(self) -> str:
        return f"{self.repo.full_name}#{self.issue.index}"


def _text(options: Mapping[str, Any], key: str, default: str) -> str:
    value = options.get(key)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise InvalidIssueMeta(f"[{key.capitalize()}]: must be a string")
    return value


def resolve_issue_meta(path_repo: repos.Repo, options: Mapping[str, Any], principal: Principal) -> Linked:
    """The issue an ``IssueMeta {owner, repo, index}`` names: ``owner``/``repo`` default to the path's
    repository; 422 for a malformed body, 404 for a repository the caller cannot see or an unknown index."""
    index = options.get("index")
    if index is None:
        raise InvalidIssueMeta("[Index]: Required")
    if isinstance(index, bool) or not isinstance(index, int):
        raise InvalidIssueMeta("[Index]: must be an integer")
    if not -(2**63) <= index < 2**63:  # Gitea's int64: a larger number fails to decode (found by the fuzzer)
        raise InvalidIssueMeta("[Index]: must be a 64-bit integer")
    owner = _text(options, "owner", path_repo.owner_name)
    name = _text(options, "repo", path_repo.name)
    try:
        repo = repos.get_repo(owner, name)
    except RepoNotFound:
        repo = None
    if repo is None or not permission(principal, repo).can_read:
        raise RepoNotFound(f"repository does not exist [owner: {owner}, name: {name}]")
    return Linked(repo, get_issue(repo, index))


def _reaches(start: int, goal: int) -> bool:
    """Whether ``start`` depends on ``goal``, directly or through other issues."""
    seen = {start}
    pending = [start]
    while pending:
        for blocker in store.dependency_ids(pending.pop()):
            if blocker == goal:
                return True
            if blocker not in seen:
                seen.add(blocker)
                pending.append(blocker)
    return False


def _check_allowed(target: Linked, principal: Principal) -> None:
    """Gitea's rules: the target's repository is not archived and the caller writes to it (404 otherwise);
    that the caller reads the dependency is ensured when it is looked up."""
    if target.repo.archived:
        raise LinkNotAllowed(f"cannot change the dependencies of {target.label}: its repository is archived")
    if not permission(principal, target.repo).can_write:
        raise LinkNotAllowed(f"cannot change the dependencies of {target.label} without write access")


def _record(target: Issue, dependency: Issue, kind: CommentType, doer_id: int) -> None:
    add_event(target.id, kind, doer_id, dependent_issue_id=dependency.id)
    add_event(dependency.id, kind, doer_id, dependent_issue_id=target.id)


def add_link(target: Linked, dependency: Linked, principal: Principal) -> None:
    """Make ``target`` depend on ``dependency``: 422 for itself or a cycle, 409 when already so."""
    _check_allowed(target, principal)
    if target.issue.id == dependency.issue.id:
        raise CircularDependency(f"{target.label} cannot depend on itself")
    with forge().db.transaction():
        if store.link_exists(target.issue.id, dependency.issue.id):
            raise DependencyExists(f"{target.label} already depends on {dependency.label}")
        if _reaches(dependency.issue.id, target.issue.id):
            raise CircularDependency(
                f"{target.label} cannot depend on {dependency.label}: {dependency.label} already depends on it"
            )
        store.insert_link(target.issue.id, dependency.issue.id, principal.user_id, now_seconds())
        _record(target.issue, dependency.issue, CommentType.ADD_DEPENDENCY, principal.user_id)


def remove_link(target: Linked, dependency: Linked, principal: Principal) -> None:
    """Remove the link "target depends on dependency"; 404 when there is none."""
    _check_allowed(target, principal)
    with forge().db.transaction():
        if not store.delete_link(target.issue.id, dependency.issue.id):
            raise DependencyNotFound(f"{target.label} does not depend on {dependency.label}")
        _record(target.issue, dependency.issue, CommentType.REMOVE_DEPENDENCY, principal.user_id)


def _readable(issue_ids: list[int], principal: Principal | None) -> list[Linked]:
    """The linked issues the caller may read (the others are left out), in link order."""
    allowed: dict[int, repos.Repo | None] = {}
    found: list[Linked] = []
    for issue_id in issue_ids:
        issue = get_issue_by_id(issue_id)
        if issue.repo_id not in allowed:
            repo = repos.get_repo_by_id(issue.repo_id)
            allowed[issue.repo_id] = repo if permission(principal, repo).can_read else None
        repo_or_none = allowed[issue.repo_id]
        if repo_or_none is not None:
            found.append(Linked(repo_or_none, issue))
    return found


def _page(
    ids_of: Callable[[int], list[int]], issue: Issue, principal: Principal | None, limit: int, offset: int
) -> tuple[list[Linked], int]:
    visible = _readable(ids_of(issue.id), principal)
    return visible[offset : offset + limit], len(visible)


def dependencies_page(issue: Issue, principal: Principal | None, limit: int, offset: int) -> tuple[list[Linked], int]:
    """A page of the issues ``issue`` depends on that the caller may read, and how many there are."""
    return _page(store.dependency_ids, issue, principal, limit, offset)


def blocks_page(issue: Issue, principal: Principal | None, limit: int, offset: int) -> tuple[list[Linked], int]:
    """A page of the issues ``issue`` blocks that the caller may read, and how many there are."""
    return _page(store.blocked_ids, issue, principal, limit, offset)
