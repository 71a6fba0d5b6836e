"""Releases and their assets: Gitea's rules (a draft has no tag yet, publishing creates it from the target,
deleting a release keeps its tag); the ``Release`` and ``Attachment`` shapes are :mod:`.presenters`."""

from __future__ import annotations

import sqlite3
import uuid as uuids
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any, BinaryIO

from ..auth import Principal
from ..bodies import optional_flag
from ..context import forge, now_seconds
from ..db import Row
from ..errors import Unprocessable
from ..events import ReleasePublishedEvent, RepoDeletedEvent
from ..repos import models as repos
from . import store, tags
from .errors import (
    AttachmentNameMissing,
    AttachmentNotFound,
    AttachmentTooLarge,
    ReleaseExists,
    ReleaseNotFound,
)

__all__ = [
    "Attachment",
    "Release",
    "add_attachment",
    "attachment_by_tag_and_name",
    "attachment_for_download",
    "attachments_of",
    "create_release",
    "delete_attachment",
    "delete_release",
    "edit_attachment",
    "edit_release",
    "get_attachment",
    "get_release",
    "latest_release",
    "list_releases",
    "on_repo_deleted",
    "open_attachment",
    "release_by_tag",
]

CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Release:
    """A release of a repository (a draft's tag may not exist yet)."""

    id: int
    repo_id: int
    publisher_id: int
    tag_name: str
    target: str
    title: str
    note: str
    is_draft: bool
    is_prerelease: bool
    created: int
    published: int
    """When the release was published (0 while it is a draft)."""


@dataclass(frozen=True)
class Attachment:
    """A file attached to a release, stored as a blob under its UUID."""

    id: int
    uuid: str
    repo_id: int
    release_id: int
    name: str
    size: int
    download_count: int
    created: int


def _release(row: Row) -> Release:
    return Release(
        id=row["id"],
        repo_id=row["repo_id"],
        publisher_id=row["publisher_id"],
        tag_name=row["tag_name"],
        target=row["target"],
        title=row["title"],
        note=row["note"],
        is_draft=bool(row["is_draft"]),
        is_prerelease=bool(row["is_prerelease"]),
        created=row["created"],
        published=row["published"],
    )


def _attachment(row: Row) -> Attachment:
    return Attachment(
        id=row["id"],
        uuid=row["uuid"],
        repo_id=row["repo_id"],
        release_id=row["release_id"],
        name=row["name"],
        size=row["size"],
        download_count=row["download_count"],
        created=row["created"],
    )


def blob_key(uuid: str) -> str:
    """Where an attachment's bytes live (Gitea's ``attachments/<u>/<u>/<uuid>`` layout)."""
    return f"attachments/{uuid[0]}/{uuid[1]}/{uuid}"


def _text(options: Mapping[str, Any], key: str) -> str:
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"[{key}]: must be a string")
    return value


def get_release(repo: repos.Repo, release_id: int) -> Release:
    """A release of this repository; 404 otherwise."""
    row = store.release_in_repo(repo.id, release_id)
    if row is None:
        raise ReleaseNotFound()
    return _release(row)


def release_by_tag(repo: repos.Repo, tag: str) -> Release:
    """The release of ``tag`` (case-insensitively, as Gitea's ``lower_tag_name``); 404 otherwise."""
    row = store.release_by_tag(repo.id, tag)
    if row is None:
        raise ReleaseNotFound()
    return _release(row)


def list_releases(
    repo: repos.Repo, *, include_drafts: bool, draft: bool | None, prerelease: bool | None, limit: int, offset: int
) -> tuple[list[Release], int]:
    """One page of releases, newest first; drafts only for writers, then the ``draft``/``pre-release`` filters."""
    rows, total = store.releases_of_repo(
        repo.id,
        include_drafts=include_drafts,
        filters={"draft": draft, "prerelease": prerelease},
        limit=limit,
        offset=offset,
    )
    return [_release(row) for row in rows], total


def latest_release(repo: repos.Repo) -> Release:
    """The newest release that is neither a draft nor a pre-release; 404 when there is none."""
    row = store.latest_release(repo.id)
    if row is None:
        raise ReleaseNotFound()
    return _release(row)


def create_release(repo: repos.Repo, principal: Principal, options: Mapping[str, Any]) -> Release:
    """``CreateReleaseOption``: 422 on an empty repository or without ``tag_name``, 409 when the tag already has
    a release; a published release's missing tag is created from ``target_commitish`` (default branch)."""
    if repo.git.is_empty():
        raise Unprocessable("repo is empty")
    tag_name = _text(options, "tag_name")
    if not tag_name:
        raise Unprocessable("[TagName]: Required")
    if store.release_by_tag(repo.id, tag_name) is not None:
        raise ReleaseExists()
    target = _text(options, "target_commitish") or repo.default_branch
    draft = optional_flag(options, "draft")
    if not draft:
        tags.ensure_tag(repo, principal, tag_name, target, _text(options, "tag_message"))
    fields = {
        "repo_id": repo.id,
        "publisher_id": principal.user_id,
        "tag_name": tag_name,
        "lower_tag_name": tag_name.lower(),
        "target": target,
        "title": _text(options, "name"),
        "note": _text(options, "body"),
        "is_draft": int(draft),
        "is_prerelease": int(optional_flag(options, "prerelease")),
        "created": now_seconds(),
        "published": 0 if draft else now_seconds(),
    }
    try:
        with forge().db.transaction():
            release_id = store.insert_release(fields)
    except sqlite3.IntegrityError as exc:
        raise ReleaseExists() from exc
    if not draft:
        forge().events.publish(ReleasePublishedEvent(repo.id, release_id, principal.user_id))
    return get_release(repo, release_id)


def edit_release(repo: repos.Repo, principal: Principal, release_id: int, options: Mapping[str, Any]) -> Release:
    """``EditReleaseOption``: non-empty texts and given flags change; a release that is (or becomes) published
    gets its tag created from its target when the tag is missing."""
    release = get_release(repo, release_id)
    fields: dict[str, Any] = {}
    for key, column in (("tag_name", "tag_name"), ("target_commitish", "target"), ("name", "title"), ("body", "note")):
        value = _text(options, key)
        if value:
            fields[column] = value
    if "tag_name" in fields:
        fields["lower_tag_name"] = fields["tag_name"].lower()
        other = store.release_by_tag(repo.id, fields["tag_name"])
        if other is not None and other["id"] != release.id:
            raise ReleaseExists(f"release tag already exists [name: {fields['tag_name']}]")
    for key, column in (("draft", "is_draft"), ("prerelease", "is_prerelease")):
        if options.get(key) is not None:
            fields[column] = int(optional_flag(options, key))
    draft = bool(fields.get("is_draft", release.is_draft))
    if not draft:
        tags.ensure_tag(repo, principal, fields.get("tag_name", release.tag_name), fields.get("target", release.target))
        if release.is_draft:
            fields["published"] = now_seconds()
    if fields:
        try:
            with forge().db.transaction():
                store.update_release(release.id, fields)
        except sqlite3.IntegrityError as exc:
            raise ReleaseExists() from exc
    if release.is_draft and not draft:
        forge().events.publish(ReleasePublishedEvent(repo.id, release.id, principal.user_id))
    return get_release(repo, release.id)


def delete_release(repo: repos.Repo, release: Release) -> None:
    """Delete the release and its assets; its Git tag stays (Gitea's ``delTag = false``)."""
    uuids_gone = [row["uuid"] for row in store.attachments_of([release.id])]
    with forge().db.transaction():
        store.delete_release(release.id)
    for uuid in uuids_gone:
        forge().blobs.delete(blob_key(uuid))


def attachments_of(releases: list[Release]) -> dict[int, list[Attachment]]:
    """The assets of several releases in one query, by release id."""
    found: dict[int, list[Attachment]] = {release.id: [] for release in releases}
    for row in store.attachments_of([release.id for release in releases]):
        found[row["release_id"]].append(_attachment(row))
    return found


def get_attachment(release: Release, attachment_id: int) -> Attachment:
    """An asset of this release; 404 otherwise."""
    row = store.attachment_of_release(release.id, attachment_id)
    if row is None:
        raise AttachmentNotFound()
    return _attachment(row)


def _limited(stream: IO[bytes], limit: int) -> Iterator[bytes]:
    size = 0
    while piece := stream.read(CHUNK):
        size += len(piece)
        if size > limit:
            raise AttachmentTooLarge(f"attachment size exceeds the limit of {limit} bytes")
        yield piece


def add_attachment(
    repo: repos.Repo, principal: Principal, release: Release, name: str, stream: IO[bytes]
) -> Attachment:
    """Store an uploaded asset (400 without a name, 413 over the configured size)."""
    if not name:
        raise AttachmentNameMissing()
    uuid = str(uuids.uuid4())
    written = forge().blobs.write(blob_key(uuid), _limited(stream, forge().config.limits.release_attachment_max_bytes))
    try:
        with forge().db.transaction():
            attachment_id = store.insert_attachment(
                {
                    "uuid": uuid,
                    "repo_id": repo.id,
                    "release_id": release.id,
                    "uploader_id": principal.user_id,
                    "name": name,
                    "size": written.size,
                    "created": now_seconds(),
                }
            )
    except BaseException:
        forge().blobs.delete(blob_key(uuid))
        raise
    return get_attachment(release, attachment_id)


def edit_attachment(release: Release, attachment_id: int, options: Mapping[str, Any]) -> Attachment:
    """``EditAttachmentOptions``: a non-empty ``name`` renames the asset."""
    attachment = get_attachment(release, attachment_id)
    name = _text(options, "name")
    if name:
        with forge().db.transaction():
            store.rename_attachment(attachment.id, name)
    return get_attachment(release, attachment.id)


def delete_attachment(release: Release, attachment_id: int) -> None:
    attachment = get_attachment(release, attachment_id)
    with forge().db.transaction():
        store.delete_attachment(attachment.id)
    forge().blobs.delete(blob_key(attachment.uuid))


def attachment_by_tag_and_name(repo: repos.Repo, tag: str, name: str, *, can_write: bool) -> Attachment | None:
    """The asset ``name`` of the release of ``tag`` (a draft's only for writers), or None: Gitea's
    ``/{owner}/{repo}/releases/download/{tag}/{name}``."""
    release = store.release_by_tag(repo.id, tag)
    if release is None or (release["is_draft"] and not can_write):
        return None
    row = store.attachment_by_name(release["id"], name)
    return None if row is None else _attachment(row)


def attachment_for_download(uuid: str) -> Attachment | None:
    """The asset with this UUID, or None."""
    row = store.attachment_by_uuid(uuid)
    return None if row is None else _attachment(row)


def open_attachment(attachment: Attachment) -> BinaryIO:
    """The asset's bytes, counting the download as Gitea does."""
    with forge().db.transaction():
        store.count_download(attachment.id)
    return forge().blobs.path(blob_key(attachment.uuid)).open("rb")


def on_repo_deleted(event: RepoDeletedEvent) -> None:
    """A deleted repository's releases and their stored assets go with it."""
    uuids_gone = store.attachment_uuids_of_repo(event.repo_id)
    with forge().db.transaction():
        store.delete_repo_rows(event.repo_id)
    for uuid in uuids_gone:
        forge().blobs.delete(blob_key(uuid))
