"""Gitea's ``PullRequest``, ``PullReview`` and ``PullReviewComment`` as the API shows them; above the models
and the issues family's presentation, whose ``Issue`` a pull request extends."""

from __future__ import annotations

from typing import Any

from ..context import forge
from ..gitcli import ZERO_SHA
from ..issues.comments import Comment, review_comments, review_entry
from ..issues.models import issue_web_path
from ..issues.presenters import issue_to_api, poster_to_api
from ..repos import models as repos
from ..repos.presenters import repo_to_api
from ..timefmt import iso
from . import store
from .models import Pull, base_commit, head_commit
from .reviews import API_STATE, Review, count_code_comments

__all__ = ["pull_to_api", "review_comment_to_api", "review_to_api"]


def _branch_info(repo: repos.Repo, branch: str, sha: str) -> dict[str, Any]:
    return {
        "label": branch,
        "ref": branch,
        "sha": sha,
        "repo_id": repo.id,
        "repo": repo_to_api(repo),
    }


def pull_to_api(repo: repos.Repo, pull: Pull) -> dict[str, Any]:
    """Gitea's ``PullRequest``: line counts and changed files from Git, ``mergeable`` from a trial merge."""
    issue_body = issue_to_api(repo, pull.issue)
    head = head_commit(repo, pull)
    base = base_commit(repo, pull)
    merge_base = repo.git.merge_base(base, head) or pull.merge_base
    changes = repo.git.changed_paths(merge_base or base, head) if head != ZERO_SHA else []
    open_unmerged = not pull.issue.is_closed and not pull.has_merged
    mergeable = open_unmerged and head != ZERO_SHA and repo.git.merge_trees(base, head) is not None
    web = forge().url(issue_web_path(repo, pull.issue))
    return {
        "id": pull.id,
        "url": web,
        "number": pull.index,
        "user": issue_body["user"],
        "title": pull.issue.title,
        "body": pull.issue.body,
        "labels": issue_body["labels"],
        "milestone": issue_body["milestone"],
        "assignee": issue_body["assignee"],
        "assignees": issue_body["assignees"],
        "requested_reviewers": [poster_to_api(user_id) for user_id in store.requested_reviewer_ids(pull.issue.id)],
        "requested_reviewers_teams": [],
        "state": pull.issue.state,
        "draft": False,
        "is_locked": pull.issue.is_locked,
        "comments": pull.issue.num_comments,
        "review_comments": count_code_comments(pull.issue.id),
        "additions": sum(change.additions for change in changes),
        "deletions": sum(change.deletions for change in changes),
        "changed_files": len(changes),
        "html_url": web,
        "diff_url": f"{web}.diff",
        "patch_url": f"{web}.patch",
        "mergeable": mergeable,
        "merged": pull.has_merged,
        "merged_at": iso(pull.merged) if pull.has_merged else None,
        "merge_commit_sha": pull.merged_commit or None,
        "merged_by": poster_to_api(pull.merger_id) if pull.has_merged else None,
        "allow_maintainer_edit": False,
        "base": _branch_info(repo, pull.base_branch, base),
        "head": _branch_info(repo, pull.head_branch, head),
        "merge_base": merge_base,
        "due_date": issue_body["due_date"],
        "created_at": issue_body["created_at"],
        "updated_at": issue_body["updated_at"],
        "closed_at": issue_body["closed_at"],
        "pin_order": pull.issue.pin_order,
        "content_version": pull.issue.content_version,
    }


def _pull_web(repo: repos.Repo, pull: Pull) -> str:
    return forge().url(issue_web_path(repo, pull.issue))


def review_to_api(repo: repos.Repo, pull: Pull, review: Review) -> dict[str, Any]:
    """Gitea's ``PullReview``."""
    web = _pull_web(repo, pull)
    entry = review_entry(review.id)
    return {
        "id": review.id,
        "user": poster_to_api(review.reviewer_id),
        "team": None,
        "state": API_STATE[review.type],
        "body": review.content,
        "commit_id": review.commit_id,
        "stale": review.stale,
        "official": review.official,
        "dismissed": review.dismissed,
        "comments_count": len(review_comments(review.id)),
        "submitted_at": iso(review.created),
        "updated_at": iso(review.updated),
        "html_url": f"{web}#issuecomment-{entry.id}" if entry is not None else web,
        "pull_request_url": web,
    }


def review_comment_to_api(repo: repos.Repo, pull: Pull, comment: Comment) -> dict[str, Any]:
    """Gitea's ``PullReviewComment``: ``position`` is the new-side line, ``original_position`` the old side's."""
    web = _pull_web(repo, pull)
    return {
        "id": comment.id,
        "body": comment.content,
        "user": poster_to_api(comment.poster_id),
        "resolver": poster_to_api(resolver) if (resolver := store.resolver_of(comment.id)) else None,
        "pull_request_review_id": comment.review_id,
        "created_at": iso(comment.created),
        "updated_at": iso(comment.updated),
        "path": comment.tree_path,
        "commit_id": comment.commit_sha,
        "original_commit_id": "",
        "diff_hunk": comment.patch,
        "position": comment.line if comment.line > 0 else 0,
        "original_position": -comment.line if comment.line < 0 else 0,
        "html_url": f"{web}#issuecomment-{comment.id}",
        "pull_request_url": web,
    }
