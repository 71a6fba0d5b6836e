"""Gitea's ``Release``, ``Attachment``, ``Tag`` and ``AnnotatedTag`` as the API shows them; above the models."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..context import forge
from ..repos import models as repos
from ..repos.contents import NOT_SIGNED
from ..timefmt import iso
from ..users import models as users
from ..users.errors import UserNotFound
from ..users.presenters import user_to_api
from .gittags import AnnotatedTag, TagInfo
from .models import Attachment, Release

__all__ = ["annotated_tag_to_api", "attachment_to_api", "release_to_api", "tag_to_api"]


def _repo_path(repo: repos.Repo) -> str:
    return f"{quote(repo.owner_name)}/{quote(repo.name)}"


def _segments(name: str) -> str:
    """A tag name in a URL path, each of its segments escaped (Gitea's ``PathEscapeSegments``)."""
    return "/".join(quote(part, safe="") for part in name.split("/"))


def _author(user_id: int) -> dict[str, Any]:
    """The publisher, or Gitea's ghost user once the account is deleted."""
    try:
        return user_to_api(users.get_user(user_id))
    except UserNotFound:
        return user_to_api(
            users.User(id=-1, name="Ghost", full_name="", email="", is_admin=False, is_org=False, created=0)
        )


def attachment_to_api(attachment: Attachment) -> dict[str, Any]:
    """Gitea's ``Attachment``; ``browser_download_url`` is the ``/attachments/<uuid>`` download route."""
    return {
        "id": attachment.id,
        "name": attachment.name,
        "size": attachment.size,
        "download_count": attachment.download_count,
        "created_at": iso(attachment.created),
        "uuid": attachment.uuid,
        "browser_download_url": forge().url(f"attachments/{quote(attachment.uuid)}"),
    }


def release_to_api(release: Release, repo: repos.Repo, assets: list[Attachment]) -> dict[str, Any]:
    """Gitea's ``Release`` (``published_at`` is null for a draft, as Gitea's converter leaves it)."""
    base = _repo_path(repo)
    api = forge().api_url(f"repos/{base}/releases/{release.id}")
    tag = _segments(release.tag_name)
    return {
        "id": release.id,
        "tag_name": release.tag_name,
        "target_commitish": release.target,
        "name": release.title,
        "body": release.note,
        "url": api,
        "html_url": forge().url(f"{base}/releases/tag/{tag}"),
        "tarball_url": forge().url(f"{base}/archive/{tag}.tar.gz"),
        "zipball_url": forge().url(f"{base}/archive/{tag}.zip"),
        "upload_url": api + "/assets",
        "draft": release.is_draft,
        "prerelease": release.is_prerelease,
        "created_at": iso(release.created),
        "published_at": None if release.is_draft else iso(release.published or release.created),
        "author": _author(release.publisher_id),
        "assets": [attachment_to_api(asset) for asset in assets],
    }


def tag_to_api(tag: TagInfo, repo: repos.Repo) -> dict[str, Any]:
    """Gitea's ``Tag``: ``id`` is the tag object (the commit for a lightweight tag), the message trimmed, and
    ``commit.url`` built from ``id`` as Gitea builds it."""
    base = _repo_path(repo)
    name = _segments(tag.name)
    return {
        "name": tag.name,
        "message": tag.message.strip(),
        "id": tag.id,
        "commit": {
            "sha": tag.commit,
            "url": forge().api_url(f"repos/{base}/git/commits/{tag.id}"),
            "created": iso(tag.created),
        },
        "zipball_url": forge().url(f"{base}/archive/{name}.zip"),
        "tarball_url": forge().url(f"{base}/archive/{name}.tar.gz"),
    }


def annotated_tag_to_api(tag: AnnotatedTag, repo: repos.Repo) -> dict[str, Any]:
    """Gitea's ``AnnotatedTag`` (the message as stored, the tagger as a ``CommitUser``)."""
    base = _repo_path(repo)
    return {
        "tag": tag.name,
        "sha": tag.sha,
        "url": forge().api_url(f"repos/{base}/git/tags/{tag.sha}"),
        "message": tag.message,
        "tagger": {"name": tag.tagger.name, "email": tag.tagger.email, "date": iso(tag.tagger.time)},
        "object": {
            "type": tag.object_type or "commit",
            "url": forge().api_url(f"repos/{base}/git/commits/{tag.object}"),
            "sha": tag.object,
        },
        "verification": dict(NOT_SIGNED),
    }
