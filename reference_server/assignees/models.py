"""Who can be assigned to a repository's issues, and adding or removing an issue's assignees.

One rule decides assignability everywhere (the list, the two check routes, add, and the ``assignees`` of
issue creation and edit): Gitea's ``CanBeAssigned``, a user (never an organization) who can write the
repository's code, issues or pull requests. The list is built from the same rule over the owner, the
collaborators and the members of the owning organization's teams, so site administrators who hold no
access of their own are assignable but not listed, as in Gitea's ``GetRepoAssignees``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..issues import models as issues
from ..permissions import can_be_assigned, permission
from ..repos import models as repos
from ..repos.commit_gate import require_unarchived
from ..users import models as users
from ..users.errors import UserNotFound
from . import store
from .errors import AssigneeNotAllowed, AssigneeUnknown, AssignPermissionDenied, InvalidAssignees, NotAssignable

__all__ = [
    "add_assignees",
    "assignable_users",
    "check_assignable",
    "remove_assignees",
]


def assignable_users(repo: repos.Repo) -> list[users.User]:
    """Everyone who may be assigned, by name: the owner of a user's repository, collaborators and team
    members with write access (Gitea's ``GetRepoAssignees``; not paged, as in Gitea)."""
    ids = set(store.candidate_ids(repo.id, repo.owner_id if repo.owner_is_org else 0))
    if not repo.owner_is_org:
        ids.add(repo.owner_id)
    found = [users.get_user(user_id) for user_id in sorted(ids)]
    return sorted((user for user in found if can_be_assigned(user, repo)), key=lambda user: user.name.lower())


def check_assignable(repo: repos.Repo, name: str) -> None:
    """Nothing when the named user can be assigned; 404 when it cannot or does not exist (Gitea)."""
    try:
        user = users.get_user_by_name(name)
    except UserNotFound:
        raise NotAssignable(f"user does not exist [name: {name}]") from None
    if not can_be_assigned(user, repo):
        raise NotAssignable()


def _names(options: Mapping[str, Any]) -> list[str]:
    """``IssueAssigneesOption.assignees``: a list of user names (absent means none)."""
    names = options.get("assignees")
    if names is None:
        return []
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise InvalidAssignees()
    return names


def _users(names: list[str]) -> list[users.User]:
    """The named users, each once, in order; 422 for the first unknown name before anything changes."""
    found: list[users.User] = []
    for name in names:
        try:
            user = users.get_user_by_name(name)
        except UserNotFound:
            raise AssigneeUnknown(f"user does not exist [name: {name}]") from None
        if all(user.id != seen.id for seen in found):
            found.append(user)
    return found


def _require_writer(repo: repos.Repo, principal: Principal) -> None:
    """Only callers who can write the repository's issues and pulls change assignees (Gitea: 403)."""
    if not permission(principal, repo).can_write:
        raise AssignPermissionDenied()


def add_assignees(repo: repos.Repo, index: int, options: Mapping[str, Any], principal: Principal) -> issues.Issue:
    """Assign the named users to issue ``index``; those already assigned are skipped. Gitea's order of
    refusals: archived 423, unknown issue 404, not a writer 403; then every name is checked before anything
    changes (unknown 422, not assignable 403), so a refusal assigns nobody (Gitea keeps the earlier names)."""
    require_unarchived(repo)
    issue = issues.get_issue(repo, index)
    _require_writer(repo, principal)
    wanted = _users(_names(options))
    current = issues.assignee_ids(issue)
    for user in wanted:
        if user.id not in current and not can_be_assigned(user, repo):
            raise AssigneeNotAllowed(f"user doesn't have access to repo [user_id: {user.id}, repo_name: {repo.name}]")
    issues.assign(issue.id, [user.id for user in wanted], principal.user_id)
    return issues.get_issue_by_id(issue.id)


def remove_assignees(repo: repos.Repo, index: int, options: Mapping[str, Any], principal: Principal) -> issues.Issue:
    """Unassign the named users from issue ``index`` (refusals in the order of :func:`add_assignees`);
    names not assigned are skipped, an unknown name is 422 before any change."""
    require_unarchived(repo)
    issue = issues.get_issue(repo, index)
    _require_writer(repo, principal)
    wanted = _users(_names(options))
    issues.unassign(issue.id, [user.id for user in wanted], principal.user_id)
    return issues.get_issue_by_id(issue.id)
