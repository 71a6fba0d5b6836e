"""Named error conditions of the releases family (Gitea's statuses and messages)."""

from __future__ import annotations

from ..errors import BadRequest, Conflict, NotFound, PayloadTooLarge, Unprocessable

__all__ = [
    "AttachmentNameMissing",
    "AttachmentNotFound",
    "AttachmentTooLarge",
    "NotAnnotatedTag",
    "ProtectedTagRefused",
    "ReleaseExists",
    "ReleaseNotFound",
    "TagAttachedToRelease",
    "TagExists",
    "TagNotFound",
    "TargetNotFound",
]


class ReleaseNotFound(NotFound):
    default_message = "The target couldn't be found."


class AttachmentNotFound(NotFound):
    default_message = "The target couldn't be found."


class TagNotFound(NotFound):
    default_message = "tag doesn't exist"


class TargetNotFound(NotFound):
    default_message = "target not found"


class ReleaseExists(Conflict):
    default_message = "Release is has no Tag"


class TagExists(Conflict):
    default_message = "tag already exists"


class TagAttachedToRelease(Conflict):
    default_message = "a tag attached to a release cannot be deleted directly"


class ProtectedTagRefused(Unprocessable):
    """A tag protection rule forbids the caller to create or delete the tag (Gitea answers 422, not 403)."""

    default_message = "user not allowed to create protected tag"


class NotAnnotatedTag(BadRequest):
    default_message = "object is not an annotated tag"


class AttachmentNameMissing(BadRequest):
    default_message = "Could not determine name of attachment."


class AttachmentTooLarge(PayloadTooLarge):
    default_message = "attachment size exceeds the limit"
