"""Gitea's Git data models: ``GitTreeResponse`` (with ``GitEntry``), ``GitBlobResponse`` and ``Reference``."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import quote

from ..context import forge
from ..gitcli import TreeEntry
from ..lfs.pointers import parse_pointer
from ..repos.models import Repo
from .models import Blob, GitRef

__all__ = ["blob_to_api", "entry_to_api", "ref_to_api", "repo_api_url", "tree_to_api"]


def repo_api_url(repo: Repo) -> str:
    """Gitea's ``Repository.APIURL()``."""
    return forge().api_url(f"repos/{quote(repo.owner_name)}/{quote(repo.name)}")


def entry_to_api(base: str, entry: TreeEntry) -> dict[str, Any]:
    """One ``GitEntry``: a tree links to its tree, a file to its blob, a submodule to nothing (``""``)."""
    if entry.type == "tree":
        url = f"{base}/git/trees/{entry.sha}"
    elif entry.type == "commit":
        url = ""
    else:
        url = f"{base}/git/blobs/{entry.sha}"
    return {
        "path": entry.path,
        "mode": entry.mode,
        "type": entry.type,
        "size": entry.size,
        "sha": entry.sha,
        "url": url,
    }


def tree_to_api(
    repo: Repo, sha: str, entries: list[TreeEntry], *, page: int, total: int, truncated: bool
) -> dict[str, Any]:
    """``GitTreeResponse``: ``tree`` is null on a page past the end, as Gitea leaves it unset."""
    base = repo_api_url(repo)
    return {
        "sha": sha,
        "url": f"{base}/git/trees/{quote(sha, safe='')}",
        "tree": [entry_to_api(base, entry) for entry in entries] if entries else None,
        "truncated": truncated,
        "page": page,
        "total_count": total,
    }


def blob_to_api(repo: Repo, blob: Blob) -> dict[str, Any]:
    """``GitBlobResponse``: base64 content (null with its encoding above the size limit); ``lfs_oid`` and
    ``lfs_size`` only when the blob is a Git LFS pointer."""
    body: dict[str, Any] = {
        "content": None if blob.content is None else base64.b64encode(blob.content).decode("ascii"),
        "encoding": None if blob.content is None else "base64",
        "url": f"{repo_api_url(repo)}/git/blobs/{blob.sha}",
        "sha": blob.sha,
        "size": blob.size,
    }
    pointer = parse_pointer(blob.content) if blob.content else None
    if pointer is not None:
        body["lfs_oid"], body["lfs_size"] = pointer
    return body


def ref_to_api(repo: Repo, ref: GitRef) -> dict[str, Any]:
    """``Reference``: the ref's own URL and the object it points at (``commit`` or ``tag``) with its URL."""
    base = repo_api_url(repo)
    return {
        "ref": ref.name,
        "url": f"{base}/git/{quote(ref.name)}",
        "object": {
            "type": ref.type,
            "sha": ref.sha,
            "url": f"{base}/git/{quote(ref.type, safe='')}s/{ref.sha}",
        },
    }
