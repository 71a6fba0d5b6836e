"""Gitea's ``Activity`` as the API shows it, with the repository and comment it names; above the models."""

from __future__ import annotations

from typing import Any

from ..issues.errors import CommentNotFound, IssueNotFound
from ..issues.models import get_comment
from ..issues.presenters import comment_to_api, poster_to_api
from ..repos import models as repos
from ..repos.presenters import repo_to_api
from ..timefmt import iso
from .models import Action

__all__ = ["action_to_api"]


def _comment_to_api(repo: repos.Repo, comment_id: int) -> dict[str, Any] | None:
    if not comment_id:
        return None
    try:
        comment, issue = get_comment(repo, comment_id)
    except (CommentNotFound, IssueNotFound):
        return None
    return comment_to_api(repo, issue, comment)


def action_to_api(action: Action, receiver_id: int) -> dict[str, Any]:
    """Gitea's ``Activity``; ``user_id`` is the account whose feed is read (Gitea's receiver row)."""
    repo = repos.get_repo_by_id(action.repo_id)
    comment = _comment_to_api(repo, action.comment_id)
    return {
        "id": action.id,
        "user_id": receiver_id,
        "op_type": action.op_type,
        "act_user_id": action.act_user_id,
        "act_user": poster_to_api(action.act_user_id),
        "repo_id": action.repo_id,
        "repo": repo_to_api(repo),
        "comment_id": action.comment_id if comment is not None else 0,
        "comment": comment,
        "ref_name": action.ref_name,
        "is_private": action.is_private,
        "content": action.content,
        "created": iso(action.created),
    }
