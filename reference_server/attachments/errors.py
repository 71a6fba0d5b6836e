"""Named error conditions of issue and comment attachments (Gitea's messages)."""

from __future__ import annotations

from ..errors import BadRequest, Forbidden, NotFound, PayloadTooLarge, Unprocessable

__all__ = [
    "AttachmentFileMissing",
    "AttachmentTypeForbidden",
    "IssueAttachmentNotFound",
    "IssueAttachmentTooLarge",
    "IssueAttachmentWriteDenied",
]


class IssueAttachmentNotFound(NotFound):
    default_message = "no such attachment in issue"


class IssueAttachmentWriteDenied(Forbidden):
    default_message = "user should have permission to write issue"


class AttachmentTypeForbidden(Unprocessable):
    default_message = "This file cannot be uploaded or modified due to a forbidden file extension or type."


class IssueAttachmentTooLarge(PayloadTooLarge):
    default_message = "attachment size exceeds the limit"


class AttachmentFileMissing(BadRequest):
    default_message = "the attachment field is missing"
