"""Pull requests between two branches of one repository: creation (Gitea's checks and messages), listing,
editing and where their head and base stand in Git; Gitea's ``PullRequest`` is :mod:`.presenters`.

A pull request is an ``issue`` row (``is_pull``, sharing the repository's index with issues) plus a
``pull_request`` row. Its head commit is also kept at ``refs/pull/<index>/head``, as Gitea keeps it, so
its commits stay readable when the head branch is deleted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..auth import Principal
from ..context import forge
from ..db import Row
from ..events import PushEvent
from ..gitcli import ZERO_SHA, ChangedPath, GitError
from ..issues import models as issues
from ..issues.comments import CommentType, add_event
from ..issues.errors import IssueNotFound, IssuePermissionDenied
from ..permissions import permission
from ..repos import models as repos
from ..timefmt import iso
from . import store
from .errors import InvalidPullOption, PullAlreadyExists, PullAlreadyMerged, PullBranchNotFound, PullNotFound

__all__ = [
    "Pull",
    "base_commit",
    "changed_paths",
    "create_pull",
    "edit_pull",
    "get_pull",
    "head_commit",
    "list_pulls",
    "pull_by_branches",
    "pull_by_merge_commit",
    "pull_meta",
]


@dataclass(frozen=True)
class Pull:
    """The ``pull_request`` row of a pull request, with its issue."""

    id: int
    issue: issues.Issue
    base_branch: str
    head_branch: str
    merge_base: str
    has_merged: bool
    merged_commit: str
    merger_id: int
    merged: int

    @classmethod
    def from_row(cls, row: Row, issue: issues.Issue) -> Pull:
        return cls(
            id=row["id"],
            issue=issue,
            base_branch=row["base_branch"],
            head_branch=row["head_branch"],
            merge_base=row["merge_base"],
            has_merged=bool(row["has_merged"]),
            merged_commit=row["merged_commit"],
            merger_id=row["merger_id"],
            merged=row["merged"],
        )

    @property
    def index(self) -> int:
        return self.issue.index

    @property
    def head_ref(self) -> str:
        """Where the forge keeps the pull's head commit (Gitea's ``refs/pull/<index>/head``)."""
        return f"refs/pull/{self.issue.index}/head"


def _pull_of(issue: issues.Issue) -> Pull:
    row = store.pull_by_issue(issue.id)
    if row is None:
        raise PullNotFound(f"pull request does not exist [index: {issue.index}]")
    return Pull.from_row(row, issue)


def get_pull(repo: repos.Repo, index: int) -> Pull:
    """The pull request number ``index``; 404 for an unknown index or a plain issue."""
    try:
        issue = issues.get_issue(repo, index)
    except IssueNotFound:
        raise PullNotFound(f"pull request does not exist [repo_id: {repo.id}, index: {index}]") from None
    if not issue.is_pull:
        raise PullNotFound(f"pull request does not exist [repo_id: {repo.id}, index: {index}]")
    return _pull_of(issue)


def pull_by_branches(repo: repos.Repo, base: str, head: str) -> Pull:
    """The pull request of ``head`` (a branch, or ``owner:branch`` of this repository's owner) into
    ``base``, in any state; 404 when there is none (Gitea's ``GetPullRequestByBaseHeadInfo``)."""
    owner, _, branch = head.rpartition(":") if ":" in head else ("", "", head)
    if owner and owner.lower() != repo.owner_name.lower():
        raise PullNotFound(f"repository does not exist [owner: {owner}, name: {repo.name}]")
    row = store.pull_for_branches(repo.id, repo.id, base, branch)
    if row is None:
        raise PullNotFound(f"pull request does not exist [base: {base}, head: {head}]")
    return get_pull(repo, int(row["issue_index"]))


def pull_by_merge_commit(repo: repos.Repo, sha: str) -> Pull | None:
    """The merged pull request whose merge made the commit ``sha``, if any."""
    row = store.pull_for_merge_commit(repo.id, sha)
    return get_pull(repo, int(row["issue_index"])) if row is not None else None


def list_pulls(repo: repos.Repo, *, state: str, limit: int, offset: int) -> tuple[list[Pull], int]:
    """A page of the repository's pull requests, newest first (``state`` open, closed or all)."""
    found, total = issues.list_issues(repo, state=state, kind="pulls", keyword="", limit=limit, offset=offset)
    return [_pull_of(issue) for issue in found], total


# -- where the branches stand ----------------------------------------------------------------------


def head_commit(repo: repos.Repo, pull: Pull) -> str:
    """The head branch's tip, or the kept ``refs/pull/<index>/head`` when the branch is gone or merged."""
    if not pull.has_merged:
        tip = repo.git.rev_parse(f"refs/heads/{pull.head_branch}")
        if tip is not None:
            return tip
    return repo.git.rev_parse(pull.head_ref) or ZERO_SHA


def base_commit(repo: repos.Repo, pull: Pull) -> str:
    """What the pull is compared with: the merge base once merged, else the base branch's tip."""
    if pull.has_merged and pull.merge_base:
        return pull.merge_base
    return repo.git.rev_parse(f"refs/heads/{pull.base_branch}") or pull.merge_base


def diff_base(repo: repos.Repo, pull: Pull) -> str:
    """Where the pull's changes start: the merge base of base and head (Gitea's three-dot diff)."""
    head = head_commit(repo, pull)
    base = base_commit(repo, pull)
    return repo.git.merge_base(base, head) or pull.merge_base or base


def changed_paths(repo: repos.Repo, pull: Pull) -> list[ChangedPath]:
    return repo.git.changed_paths(diff_base(repo, pull), head_commit(repo, pull))


def _keep_head(repo: repos.Repo, index: int, sha: str) -> None:
    old = repo.git.rev_parse(f"refs/pull/{index}/head") or ZERO_SHA
    repo.git.update_ref(f"refs/pull/{index}/head", sha, old)


# -- creation and editing --------------------------------------------------------------------------


def _branch_name(options: Mapping[str, Any], key: str) -> str:
    value = options.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InvalidPullOption(f"[{key.capitalize()}]: Required")
    return value.strip()


def _head_branch(repo: repos.Repo, head: str) -> str:
    """``branch`` or ``owner:branch``; only branches of this repository can be the head here."""
    if ":" not in head:
        return head
    owner, _, branch = head.partition(":")
    if owner.lower() != repo.owner_name.lower():
        raise PullBranchNotFound(f"head repository does not exist [owner: {owner}, name: {repo.name}]")
    return branch


def _require_branch(repo: repos.Repo, branch: str, side: str) -> str:
    """The branch's tip; 422 for a tag or commit (Gitea wants branches), 404 when it names nothing."""
    tip = repo.git.rev_parse(f"refs/heads/{branch}") if branch and not branch.startswith("-") else None
    if tip is not None:
        return tip
    if repo.git.resolve_ref(branch) is not None:
        raise InvalidPullOption("Invalid PullRequest: base and head must be branches")
    raise PullBranchNotFound(f"{side} branch does not exist [name: {branch}]")


def _refuse_duplicate(repo: repos.Repo, head: str, base: str) -> None:
    existing = store.open_pull_for(repo.id, head, base)
    if existing is not None:
        raise PullAlreadyExists(
            f"pull request already exists for these targets [id: {existing['id']}, issue_id: "
            f"{existing['issue_index']}, head_repo_id: {repo.id}, base_repo_id: {repo.id}, "
            f"head_branch: {head}, base_branch: {base}]"
        )


def create_pull(repo: repos.Repo, options: Mapping[str, Any], principal: Principal) -> Pull:
    """Open a pull request of ``head`` into ``base`` (Gitea's order of checks: same branch 422, unknown
    branch 404, an open pull of the same branches 409); title, body and assignees as for an issue."""
    head_option = _branch_name(options, "head")
    base = _branch_name(options, "base")
    if head_option == base:
        raise InvalidPullOption("Invalid PullRequest: There are no changes between the head and the base")
    head = _head_branch(repo, head_option)
    if head == base:
        raise InvalidPullOption("Invalid PullRequest: There are no changes between the head and the base")
    base_tip = _require_branch(repo, base, "base")
    head_tip = _require_branch(repo, head, "head")
    with repos.repo_lock(repo), forge().db.transaction():
        _refuse_duplicate(repo, head, base)
        issue = issues.create_issue(repo, options, principal, is_pull=True)
        merge_base = repo.git.merge_base(base_tip, head_tip) or ""
        store.insert_pull(issue_id=issue.id, repo_id=repo.id, base_branch=base, head_branch=head, merge_base=merge_base)
        _keep_head(repo, issue.index, head_tip)
    return get_pull(repo, issue.index)


def edit_pull(repo: repos.Repo, pull: Pull, options: Mapping[str, Any], principal: Principal) -> Pull:
    """Apply an ``EditPullRequestOption``: title, body, state and assignees as for an issue (a state change
    of a merged pull is 412), and a new ``base`` for an unmerged pull (a writer's change: 404 for an unknown
    branch, 409 when an open pull of the same branches exists), in Gitea's order."""
    if options.get("state") is not None and pull.has_merged:
        raise PullAlreadyMerged("cannot change state of this pull request, it was already merged")
    if options.get("state") == "open" and pull.issue.is_closed:
        _refuse_duplicate(repo, pull.head_branch, pull.base_branch)
    new_base = options.get("base")
    changes_base = not pull.has_merged and isinstance(new_base, str) and new_base and new_base != pull.base_branch
    if new_base is not None and not isinstance(new_base, str):
        raise InvalidPullOption("[Base]: must be a branch name")
    if changes_base and not permission(principal, repo).can_write:
        raise IssuePermissionDenied("user should have permission to change the base branch")
    with forge().db.transaction():
        issues.edit_issue(repo, pull.issue, options, principal)
        if changes_base:
            assert isinstance(new_base, str)
            base_tip = repo.git.rev_parse(f"refs/heads/{new_base}") if not new_base.startswith("-") else None
            if base_tip is None:
                raise PullBranchNotFound(f"new base '{new_base}' not exist")
            _refuse_duplicate(repo, pull.head_branch, new_base)
            merge_base = repo.git.merge_base(base_tip, head_commit(repo, pull)) or ""
            store.update_pull(pull.id, {"base_branch": new_base, "merge_base": merge_base})
            add_event(
                pull.issue.id,
                CommentType.CHANGE_TARGET_BRANCH,
                principal.user_id,
                old_ref=pull.base_branch,
                new_ref=new_base,
            )
    return get_pull(repo, pull.index)


def on_push(event: PushEvent) -> None:
    """Keep ``refs/pull/<index>/head`` at the head branch's tip when that branch moves (not when deleted)."""
    if not event.ref.startswith("refs/heads/") or event.after == ZERO_SHA:
        return
    branch = event.ref.removeprefix("refs/heads/")
    rows = store.pulls_with_head(event.repo_id, branch)
    if not rows:
        return
    repo = repos.get_repo_by_id(event.repo_id)
    for row in rows:
        try:
            _keep_head(repo, row["issue_index"], event.after)
        except GitError:
            continue


# -- the pull request inside an issue -------------------------------------------------------------


def pull_meta(repo: repos.Repo, issue: issues.Issue) -> dict[str, Any]:
    """Gitea's ``PullRequestMeta`` inside an ``Issue``: here, below the issues family's presentation that
    embeds it, because ``PullRequest`` (:mod:`.presenters`) embeds that ``Issue`` in turn."""
    pull = _pull_of(issue)
    return {
        "merged": pull.has_merged,
        "merged_at": iso(pull.merged) if pull.has_merged else None,
        "draft": False,
        "html_url": forge().url(issues.issue_web_path(repo, issue)),
    }
