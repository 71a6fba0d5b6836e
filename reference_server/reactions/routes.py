"""Routes of reactions to issues and comments (Gitea's issueGetIssueReactions, issuePostIssueReaction,
issueDeleteIssueReaction and the three of comments): readers list and react; a new reaction answers 201,
the same one again 200; a removal answers 200 without a body even when there was nothing to remove
(Gitea's handler sends 200 although its API description documents 204)."""

from __future__ import annotations

from flask import Flask, Response

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import CommentDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from ..issues import models as issues
from ..permissions import current_repo, permission
from ..rest import empty, json_body, json_response, page_params, paged_response
from . import models
from .presenters import reaction_to_api

__all__ = ["ENDPOINTS", "register"]

ISSUE_REACTIONS = API + "/repos/<owner>/<repo>/issues/<int:index>/reactions"
COMMENT_REACTIONS = API + "/repos/<owner>/<repo>/issues/comments/<int:comment_id>/reactions"


def _target(index: int | None, comment_id: int | None) -> tuple[issues.Issue, int]:
    """The issue and the comment id (0 for the issue itself) the path names."""
    found = current_repo()
    if comment_id is not None:
        comment, issue = issues.get_comment(found, comment_id)
        return issue, comment.id
    return issues.get_issue(found, index or 0), 0


def _changeable(index: int | None, comment_id: int | None) -> tuple[issues.Issue, int]:
    """The target of a change, after Gitea's locked-issue rule."""
    principal = current_principal()
    issue, target_comment = _target(index, comment_id)
    models.check_may_react(is_locked=issue.is_locked, can_write=permission(principal, current_repo()).can_write)
    return issue, target_comment


def _post(index: int | None, comment_id: int | None) -> Response:
    issue, target_comment = _changeable(index, comment_id)
    reaction, created = models.add_reaction(
        issue.repo_id, issue.id, target_comment, current_principal().user_id, json_body().get("content")
    )
    return json_response(reaction_to_api(reaction), status=201 if created else 200)


def _delete(index: int | None, comment_id: int | None) -> Response:
    issue, target_comment = _changeable(index, comment_id)
    models.remove_reaction(issue.id, target_comment, current_principal().user_id, json_body().get("content"))
    return empty(200)


def issue_reactions(owner: str, repo: str, index: int) -> Response:
    """The issue's reactions, oldest first, paged."""
    issue, _ = _target(index, None)
    page = page_params()
    items, total = models.list_reactions(issue.id, 0, page.limit, page.offset)
    return paged_response([reaction_to_api(item) for item in items], page, total)


def post_issue_reaction(owner: str, repo: str, index: int) -> Response:
    return _post(index, None)


def delete_issue_reaction(owner: str, repo: str, index: int) -> Response:
    return _delete(index, None)


def comment_reactions(owner: str, repo: str, comment_id: int) -> Response:
    """The comment's reactions, oldest first (Gitea does not page them)."""
    issue, target_comment = _target(None, comment_id)
    items, _total = models.list_reactions(issue.id, target_comment)
    return json_response([reaction_to_api(item) for item in items])


def post_comment_reaction(owner: str, repo: str, comment_id: int) -> Response:
    return _post(None, comment_id)


def delete_comment_reaction(owner: str, repo: str, comment_id: int) -> Response:
    return _delete(None, comment_id)


def register(app: Flask) -> None:
    """Reactions go with their issue, comment or repository."""
    bus = forge().events
    bus.subscribe(IssueDeletedEvent, models.on_issue_deleted)
    bus.subscribe(CommentDeletedEvent, models.on_comment_deleted)
    bus.subscribe(RepoDeletedEvent, models.on_repo_deleted)


READ = token("issue", anonymous_read=True, repo="read")
REACT = token("issue", repo="read")

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        ISSUE_REACTIONS,
        "issueGetIssueReactions",
        issue_reactions,
        "issue",
        READ,
        returns="[reaction]",
        errors=(403, 404),
    ),
    Endpoint(
        "POST",
        ISSUE_REACTIONS,
        "issuePostIssueReaction",
        post_issue_reaction,
        "issue",
        REACT,
        body="EditReactionOption",
        status=201,
        returns="reaction",
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        ISSUE_REACTIONS,
        "issueDeleteIssueReaction",
        delete_issue_reaction,
        "issue",
        REACT,
        body="EditReactionOption",
        status=200,
        returns=EMPTY,
        errors=(403, 404),
    ),
    Endpoint(
        "GET",
        COMMENT_REACTIONS,
        "issueGetCommentReactions",
        comment_reactions,
        "issue",
        READ,
        returns="[reaction]",
        errors=(403, 404),
    ),
    Endpoint(
        "POST",
        COMMENT_REACTIONS,
        "issuePostCommentReaction",
        post_comment_reaction,
        "issue",
        REACT,
        body="EditReactionOption",
        status=201,
        returns="reaction",
        errors=(403, 404),
    ),
    Endpoint(
        "DELETE",
        COMMENT_REACTIONS,
        "issueDeleteCommentReaction",
        delete_comment_reaction,
        "issue",
        REACT,
        body="EditReactionOption",
        status=200,
        returns=EMPTY,
        errors=(403, 404),
    ),
)
