"""Routes of issue and comment attachments (Gitea's issue*IssueAttachment and issue*IssueCommentAttachment):
readers list and read; an issue's files are changed by its poster or a writer of its issues, a comment's by
its poster or a repository administrator who can also write issues, as Gitea checks them."""

from __future__ import annotations

from typing import IO

from flask import Flask, Response, request

from ..access import token
from ..auth import current_principal
from ..context import forge
from ..endpoints import API, EMPTY, Endpoint
from ..events import CommentDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from ..issues import models as issues
from ..issues.comments import Comment
from ..permissions import current_repo, permission
from ..rest import empty, json_body, json_response
from . import models
from .errors import AttachmentFileMissing, IssueAttachmentWriteDenied
from .presenters import comment_assets, issue_assets, issue_attachment_to_api

__all__ = ["ENDPOINTS", "register"]

ISSUE_ASSETS = API + "/repos/<owner>/<repo>/issues/<int:index>/assets"
COMMENT_ASSETS = API + "/repos/<owner>/<repo>/issues/comments/<int:comment_id>/assets"


def _upload() -> tuple[str, IO[bytes]]:
    """The ``attachment`` file of the multipart form and its name (the ``name`` query wins); 400 without it."""
    upload = request.files.get("attachment") if request.mimetype == "multipart/form-data" else None
    if upload is None:
        raise AttachmentFileMissing()
    return request.args.get("name", "") or (upload.filename or ""), upload.stream


def _writable_issue(index: int) -> issues.Issue:
    """The issue, for its poster or a writer of the repository's issues (403 otherwise)."""
    found, principal = current_repo(), current_principal()
    issue = issues.get_issue(found, index)
    if issue.poster_id != principal.user_id and not permission(principal, found).can_write:
        raise IssueAttachmentWriteDenied()
    return issue


def _writable_comment(comment_id: int) -> tuple[Comment, issues.Issue]:
    """The comment, for its poster or a repository administrator, who must also write issues (403 otherwise)."""
    found, principal = current_repo(), current_principal()
    comment, issue = issues.get_comment(found, comment_id)
    access = permission(principal, found)
    if not access.can_write or (comment.poster_id != principal.user_id and not access.is_admin):
        raise IssueAttachmentWriteDenied("user should have permission to edit comment")
    return comment, issue


def list_issue_attachments(owner: str, repo: str, index: int) -> Response:
    issue = issues.get_issue(current_repo(), index)
    return json_response(issue_assets(issue.id))


def create_issue_attachment(owner: str, repo: str, index: int) -> Response:
    issue = _writable_issue(index)
    name, stream = _upload()
    attachment = models.add_attachment(
        repo_id=issue.repo_id,
        issue_id=issue.id,
        comment_id=0,
        uploader_id=current_principal().user_id,
        name=name,
        stream=stream,
    )
    return json_response(issue_attachment_to_api(attachment), status=201)


def get_issue_attachment(owner: str, repo: str, index: int, attachment_id: int) -> Response:
    issue = issues.get_issue(current_repo(), index)
    return json_response(issue_attachment_to_api(models.get_attachment(issue.repo_id, issue.id, attachment_id)))


def edit_issue_attachment(owner: str, repo: str, index: int, attachment_id: int) -> Response:
    """Rename; Gitea answers 201."""
    issue = _writable_issue(index)
    attachment = models.get_attachment(issue.repo_id, issue.id, attachment_id)
    return json_response(issue_attachment_to_api(models.rename_attachment(attachment, json_body())), status=201)


def delete_issue_attachment(owner: str, repo: str, index: int, attachment_id: int) -> Response:
    issue = _writable_issue(index)
    models.delete_attachment(models.get_attachment(issue.repo_id, issue.id, attachment_id))
    return empty()


def list_comment_attachments(owner: str, repo: str, comment_id: int) -> Response:
    comment, _issue = issues.get_comment(current_repo(), comment_id)
    return json_response(comment_assets(comment.id))


def create_comment_attachment(owner: str, repo: str, comment_id: int) -> Response:
    comment, issue = _writable_comment(comment_id)
    name, stream = _upload()
    attachment = models.add_attachment(
        repo_id=issue.repo_id,
        issue_id=issue.id,
        comment_id=comment.id,
        uploader_id=current_principal().user_id,
        name=name,
        stream=stream,
    )
    return json_response(issue_attachment_to_api(attachment), status=201)


def get_comment_attachment(owner: str, repo: str, comment_id: int, attachment_id: int) -> Response:
    comment, issue = issues.get_comment(current_repo(), comment_id)
    found = models.get_attachment(issue.repo_id, issue.id, attachment_id, comment_id=comment.id)
    return json_response(issue_attachment_to_api(found))


def edit_comment_attachment(owner: str, repo: str, comment_id: int, attachment_id: int) -> Response:
    """Rename; Gitea answers 201."""
    comment, issue = _writable_comment(comment_id)
    attachment = models.get_attachment(issue.repo_id, issue.id, attachment_id, comment_id=comment.id)
    return json_response(issue_attachment_to_api(models.rename_attachment(attachment, json_body())), status=201)


def delete_comment_attachment(owner: str, repo: str, comment_id: int, attachment_id: int) -> Response:
    comment, issue = _writable_comment(comment_id)
    models.delete_attachment(models.get_attachment(issue.repo_id, issue.id, attachment_id, comment_id=comment.id))
    return empty()


def register(app: Flask) -> None:
    """Files go with their issue, comment or repository."""
    bus = forge().events
    bus.subscribe(IssueDeletedEvent, models.on_issue_deleted)
    bus.subscribe(CommentDeletedEvent, models.on_comment_deleted)
    bus.subscribe(RepoDeletedEvent, models.on_repo_deleted)


READ = token("issue", anonymous_read=True, repo="read")
WRITE = token("issue", repo="read")


def _e(method: str, path: str, operation: str, view: object, **extra: object) -> Endpoint:
    """An endpoint of the ``issue`` tag: reads for readers (anonymous on public repositories)."""
    rule = extra.pop("access", READ)
    return Endpoint(method, path, operation, view, "issue", rule, **extra)  # type: ignore[arg-type]


ENDPOINTS: tuple[Endpoint, ...] = (
    _e("GET", ISSUE_ASSETS, "issueListIssueAttachments", list_issue_attachments, returns="[attachment]", errors=(404,)),
    _e(
        "POST",
        ISSUE_ASSETS,
        "issueCreateIssueAttachment",
        create_issue_attachment,
        access=WRITE,
        status=201,
        returns="attachment",
        errors=(400, 403, 404, 413, 422),
    ),
    _e(
        "GET",
        ISSUE_ASSETS + "/<int:attachment_id>",
        "issueGetIssueAttachment",
        get_issue_attachment,
        returns="attachment",
        errors=(404,),
    ),
    _e(
        "PATCH",
        ISSUE_ASSETS + "/<int:attachment_id>",
        "issueEditIssueAttachment",
        edit_issue_attachment,
        access=WRITE,
        body="EditAttachmentOptions",
        status=201,
        returns="attachment",
        errors=(403, 404, 422),
    ),
    _e(
        "DELETE",
        ISSUE_ASSETS + "/<int:attachment_id>",
        "issueDeleteIssueAttachment",
        delete_issue_attachment,
        access=WRITE,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
    _e(
        "GET",
        COMMENT_ASSETS,
        "issueListIssueCommentAttachments",
        list_comment_attachments,
        returns="[attachment]",
        errors=(404,),
    ),
    _e(
        "POST",
        COMMENT_ASSETS,
        "issueCreateIssueCommentAttachment",
        create_comment_attachment,
        access=WRITE,
        status=201,
        returns="attachment",
        errors=(400, 403, 404, 413, 422),
    ),
    _e(
        "GET",
        COMMENT_ASSETS + "/<int:attachment_id>",
        "issueGetIssueCommentAttachment",
        get_comment_attachment,
        returns="attachment",
        errors=(404,),
    ),
    _e(
        "PATCH",
        COMMENT_ASSETS + "/<int:attachment_id>",
        "issueEditIssueCommentAttachment",
        edit_comment_attachment,
        access=WRITE,
        body="EditAttachmentOptions",
        status=201,
        returns="attachment",
        errors=(403, 404, 422),
    ),
    _e(
        "DELETE",
        COMMENT_ASSETS + "/<int:attachment_id>",
        "issueDeleteIssueCommentAttachment",
        delete_comment_attachment,
        access=WRITE,
        status=204,
        returns=EMPTY,
        errors=(403, 404),
    ),
)
