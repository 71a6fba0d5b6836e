"""Gitea's ``Attachment`` of an issue or comment file."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..context import forge
from ..timefmt import iso
from .models import IssueAttachment, attachments_of_comment, attachments_of_issue

__all__ = ["comment_assets", "issue_assets", "issue_attachment_to_api"]


def issue_attachment_to_api(attachment: IssueAttachment) -> dict[str, Any]:
    """``browser_download_url`` is the ``/attachments/<uuid>`` route that serves the bytes."""
    return {
        "id": attachment.id,
        "name": attachment.name,
        "size": attachment.size,
        "download_count": attachment.download_count,
        "created_at": iso(attachment.created),
        "uuid": attachment.uuid,
        "browser_download_url": forge().url(f"attachments/{quote(attachment.uuid)}"),
    }


def issue_assets(issue_id: int) -> list[dict[str, Any]]:
    """The ``assets`` of an ``Issue``: its own files, not its comments'."""
    return [issue_attachment_to_api(item) for item in attachments_of_issue(issue_id)]


def comment_assets(comment_id: int) -> list[dict[str, Any]]:
    """The ``assets`` of a ``Comment``."""
    return [issue_attachment_to_api(item) for item in attachments_of_comment(comment_id)]
