"""Gitea's ``Package`` and ``PackageFile`` models."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..auth import Principal
from ..context import forge
from ..issues.presenters import poster_to_api
from ..repos.presenters import repo_to_api
from ..timefmt import iso
from ..users.models import User
from ..users.presenters import user_to_api
from .models import PackageVersion, StoredFile, linked_repo

__all__ = ["package_file_to_api", "package_to_api"]


def package_to_api(found: PackageVersion, owner: User, viewer: Principal | None) -> dict[str, Any]:
    """One version as Gitea answers it: ``id`` is the version's, ``repository`` null unless the package is
    linked to a repository the viewer may read, ``html_url`` the version's page (lower-case name and version)."""
    repo = linked_repo(found, viewer)
    path = f"{quote(owner.name)}/-/packages/{quote(found.type)}/{quote(found.lower_name, safe='')}"
    return {
        "id": found.id,
        "owner": user_to_api(owner),
        "repository": repo_to_api(repo, viewer) if repo is not None else None,
        "creator": poster_to_api(found.creator_id),
        "type": found.type,
        "name": found.name,
        "version": found.version,
        "html_url": forge().url(f"{path}/{quote(found.lower_version, safe='')}"),
        "created_at": iso(found.created),
    }


def package_file_to_api(stored: StoredFile) -> dict[str, Any]:
    """A file with its blob's size and the four hashes of its bytes."""
    return {
        "id": stored.id,
        "size": stored.size,
        "name": stored.name,
        "md5": stored.md5,
        "sha1": stored.sha1,
        "sha256": stored.sha256,
        "sha512": stored.sha512,
    }
