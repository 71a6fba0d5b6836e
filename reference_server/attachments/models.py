"""Issue and comment attachments: Gitea's rules (the issue's poster or a writer of its issues changes them,
the instance's allowed types and size hold for every upload and rename); the bytes are blobs written
before their row and removed after it, so no row ever points at a missing file."""

from __future__ import annotations

import uuid as uuids
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO, Any, BinaryIO

from ..context import forge, now_seconds
from ..db import Row
from ..events import CommentDeletedEvent, IssueDeletedEvent, RepoDeletedEvent
from ..misc.models import MEBIBYTE, attachment_settings
from . import store
from .errors import AttachmentTypeForbidden, IssueAttachmentNotFound, IssueAttachmentTooLarge

__all__ = [
    "IssueAttachment",
    "add_attachment",
    "attachment_for_download",
    "attachments_of_comment",
    "attachments_of_issue",
    "delete_attachment",
    "get_attachment",
    "on_comment_deleted",
    "on_issue_deleted",
    "on_repo_deleted",
    "open_attachment",
    "rename_attachment",
]

CHUNK = 1024 * 1024


@dataclass(frozen=True)
class IssueAttachment:
    """A file of an issue (``comment_id`` 0) or of one of its comments."""

    id: int
    uuid: str
    repo_id: int
    issue_id: int
    comment_id: int
    uploader_id: int
    name: str
    size: int
    download_count: int
    created: int


def _attachment(row: Row) -> IssueAttachment:
    return IssueAttachment(
        id=row["id"],
        uuid=row["uuid"],
        repo_id=row["repo_id"],
        issue_id=row["issue_id"],
        comment_id=row["comment_id"],
        uploader_id=row["uploader_id"],
        name=row["name"],
        size=row["size"],
        download_count=row["download_count"],
        created=row["created"],
    )


def blob_key(uuid: str) -> str:
    """Gitea's ``attachments/<u>/<u>/<uuid>`` layout (the UUIDs never clash with release assets')."""
    return f"attachments/{uuid[0]}/{uuid[1]}/{uuid}"


def _check_type(name: str) -> None:
    """Gitea's ``upload.Verify`` with the instance's ``ALLOWED_TYPES`` (file extensions): 422 otherwise."""
    allowed = [entry.strip().lower() for entry in str(attachment_settings()["allowed_types"]).split(",")]
    if "*/*" in allowed or not [entry for entry in allowed if entry]:
        return
    if PurePosixPath(name).suffix.lower() not in allowed:
        raise AttachmentTypeForbidden()


def _limited(stream: IO[bytes], limit: int) -> Iterator[bytes]:
    size = 0
    while piece := stream.read(CHUNK):
        size += len(piece)
        if size > limit:
            raise IssueAttachmentTooLarge(f"attachment size exceeds the limit of {limit} bytes")
        yield piece


def attachments_of_issue(issue_id: int) -> list[IssueAttachment]:
    return [_attachment(row) for row in store.attachments_of_issue(issue_id)]


def attachments_of_comment(comment_id: int) -> list[IssueAttachment]:
    return [_attachment(row) for row in store.attachments_of_comment(comment_id)]


def get_attachment(
    repo_id: int, issue_id: int, attachment_id: int, *, comment_id: int | None = None
) -> IssueAttachment:
    """The attachment of the issue (or, with ``comment_id``, of that comment); 404 for any other."""
    row = store.attachment_by_id(attachment_id)
    if row is None or row["repo_id"] != repo_id or row["issue_id"] != issue_id:
        raise IssueAttachmentNotFound()
    if comment_id is not None and row["comment_id"] != comment_id:
        raise IssueAttachmentNotFound("no such attachment in comment")
    return _attachment(row)


def add_attachment(
    *, repo_id: int, issue_id: int, comment_id: int, uploader_id: int, name: str, stream: IO[bytes]
) -> IssueAttachment:
    """Store an upload (422 for a type the instance does not allow, 413 over its size limit)."""
    _check_type(name)
    limit = int(attachment_settings()["max_size"]) * MEBIBYTE
    uuid = str(uuids.uuid4())
    written = forge().blobs.write(blob_key(uuid), _limited(stream, limit))
    try:
        with forge().db.transaction():
            attachment_id = store.insert_attachment(
                {
                    "uuid": uuid,
                    "repo_id": repo_id,
                    "issue_id": issue_id,
                    "comment_id": comment_id,
                    "uploader_id": uploader_id,
                    "name": name,
                    "size": written.size,
                    "created": now_seconds(),
                }
            )
    except BaseException:
        forge().blobs.delete(blob_key(uuid))
        raise
    return get_attachment(repo_id, issue_id, attachment_id)


def rename_attachment(attachment: IssueAttachment, options: Mapping[str, Any]) -> IssueAttachment:
    """``EditAttachmentOptions``: a non-empty ``name`` renames, held to the allowed types as an upload is."""
    name = options.get("name")
    if isinstance(name, str) and name:
        _check_type(name)
        with forge().db.transaction():
            store.rename_attachment(attachment.id, name)
    return get_attachment(attachment.repo_id, attachment.issue_id, attachment.id)


def _drop(column: str, value: int) -> None:
    with forge().db.transaction():
        gone = store.delete_where(column, value)
    for uuid in gone:
        forge().blobs.delete(blob_key(uuid))


def delete_attachment(attachment: IssueAttachment) -> None:
    _drop("id", attachment.id)


def attachment_for_download(uuid: str) -> IssueAttachment | None:
    row = store.attachment_by_uuid(uuid)
    return None if row is None else _attachment(row)


def open_attachment(attachment: IssueAttachment) -> BinaryIO:
    """The file's bytes, counting the download as Gitea does."""
    with forge().db.transaction():
        store.count_download(attachment.id)
    return forge().blobs.path(blob_key(attachment.uuid)).open("rb")


def on_issue_deleted(event: IssueDeletedEvent) -> None:
    """A deleted issue's files (its comments' too) go with it."""
    _drop("issue_id", event.issue_id)


def on_comment_deleted(event: CommentDeletedEvent) -> None:
    _drop("comment_id", event.comment_id)


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    _drop("repo_id", event.repo_id)
