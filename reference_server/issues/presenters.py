"""Gitea's ``Issue``, ``Comment`` and ``TimelineComment`` as the API shows them: above the models (and the
pulls family's, for a pull request's ``PullRequestMeta``), which never render."""

from __future__ import annotations

from typing import Any

from ..attachments.presenters import comment_assets, issue_assets
from ..context import forge
from ..errors import NotFound
from ..labels.models import labels_of_issue
from ..labels.presenters import label_to_api
from ..milestones.models import milestone_by_id, milestone_of_issue
from ..milestones.presenters import milestone_to_api
from ..projects.presenters import issue_projects_to_api
from ..pulls import models as pulls
from ..repos import models as repos
from ..timefmt import iso
from ..users.presenters import poster_to_api
from . import store
from .comments import Comment, CommentType
from .deadlines import deadline_of
from .models import Issue, get_issue_by_id, issue_api_path, issue_web_path, repo_permission

__all__ = ["comment_to_api", "issue_api", "issue_milestone", "issue_to_api", "poster_to_api", "timeline_to_api"]


def issue_milestone(issue_id: int) -> dict[str, Any] | None:
    """The ``Milestone`` an issue or pull request belongs to, or null."""
    milestone = milestone_of_issue(issue_id)
    return None if milestone is None else milestone_to_api(milestone)


def _milestone(milestone_id: int) -> dict[str, Any] | None:
    """A timeline entry's milestone, null when there is none or it was deleted since."""
    milestone = milestone_by_id(milestone_id)
    return None if milestone is None else milestone_to_api(milestone)


def issue_to_api(repo: repos.Repo, issue: Issue, pull_meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """Gitea's ``Issue``; ``pull_meta`` is the ``PullRequestMeta`` of a pull request (from the pulls family)."""
    assignees = [poster_to_api(user_id) for user_id in store.assignee_ids(issue.id)]
    return {
        "id": issue.id,
        "url": forge().api_url(issue_api_path(repo, issue)),
        "html_url": forge().url(issue_web_path(repo, issue)),
        "number": issue.index,
        "user": poster_to_api(issue.poster_id),
        "original_author": "",
        "original_author_id": 0,
        "title": issue.title,
        "body": issue.body,
        "ref": "",
        "assets": issue_assets(issue.id),
        "labels": [label_to_api(label, repo) for label in labels_of_issue(issue.id)],
        "milestone": issue_milestone(issue.id),
        "assignee": assignees[0] if assignees else None,
        "assignees": assignees or None,
        "state": issue.state,
        "is_locked": issue.is_locked,
        "comments": issue.num_comments,
        "created_at": iso(issue.created),
        "updated_at": iso(issue.updated),
        "closed_at": iso(issue.closed) if issue.is_closed else None,
        "due_date": iso(deadline) if (deadline := deadline_of(issue.id)) else None,
        "time_estimate": 0,
        "pull_request": pull_meta if issue.is_pull else None,
        "repository": {"id": repo.id, "name": repo.name, "owner": repo.owner_name, "full_name": repo.full_name},
        "pin_order": issue.pin_order,
        "content_version": issue.content_version,
        "projects": issue_projects_to_api(issue.id),
    }


def issue_api(repo: repos.Repo, issue: Issue) -> dict[str, Any]:
    """Gitea's ``Issue``, with the ``PullRequestMeta`` of a pull request from the pulls family."""
    meta = None
    if issue.is_pull:
        meta = pulls.pull_meta(repo, issue)
    return issue_to_api(repo, issue, meta)


def _urls(repo: repos.Repo, issue: Issue, comment: Comment) -> dict[str, str]:
    page = forge().url(issue_web_path(repo, issue))
    return {
        "html_url": f"{page}#issuecomment-{comment.id}",
        "pull_request_url": page if issue.is_pull else "",
        "issue_url": "" if issue.is_pull else page,
    }


def comment_to_api(repo: repos.Repo, issue: Issue, comment: Comment) -> dict[str, Any]:
    """Gitea's ``Comment``."""
    return {
        "id": comment.id,
        **_urls(repo, issue, comment),
        "user": poster_to_api(comment.poster_id),
        "original_author": "",
        "original_author_id": 0,
        "body": comment.content,
        "assets": comment_assets(comment.id),
        "created_at": iso(comment.created),
        "updated_at": iso(comment.updated),
    }


def _dependent_issue(comment: Comment) -> dict[str, Any] | None:
    """The other issue of an ``add_dependency``/``remove_dependency`` entry, when it still exists and the
    caller may read its repository (null otherwise)."""
    if not comment.dependent_issue_id:
        return None
    try:
        other = get_issue_by_id(comment.dependent_issue_id)
        other_repo = repos.get_repo_by_id(other.repo_id)
    except NotFound:
        return None
    return issue_api(other_repo, other) if repo_permission(other_repo).can_read else None


def timeline_to_api(repo: repos.Repo, issue: Issue, comment: Comment) -> dict[str, Any]:
    """Gitea's ``TimelineComment``: ``type`` is the comment type's name."""
    return {
        "id": comment.id,
        "type": comment.type.api_name,
        **_urls(repo, issue, comment),
        "user": poster_to_api(comment.poster_id),
        "body": comment.content,
        "created_at": iso(comment.created),
        "updated_at": iso(comment.updated),
        "old_project_id": 0,
        "project_id": 0,
        "old_milestone": _milestone(comment.old_milestone_id),
        "milestone": _milestone(comment.milestone_id),
        "tracked_time": None,
        "old_title": comment.old_title,
        "new_title": comment.new_title,
        "old_ref": comment.old_ref,
        "new_ref": comment.new_ref,
        "ref_issue": None,
        "ref_comment": None,
        "ref_action": "",
        "ref_commit_sha": comment.commit_sha if comment.type == CommentType.COMMIT_REF else "",
        "review_id": comment.review_id,
        "label": None,
        "assignee": poster_to_api(comment.assignee_id) if comment.assignee_id else None,
        "assignee_team": None,
        "removed_assignee": comment.removed_assignee,
        "resolve_doer": None,
        "dependent_issue": _dependent_issue(comment),
    }
