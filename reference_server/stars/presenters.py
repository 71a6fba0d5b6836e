"""Gitea's ``WatchInfo``: a watch as the watcher sees it."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..context import forge
from ..repos.models import Repo
from ..timefmt import iso

__all__ = ["watch_info_to_api"]


def watch_info_to_api(repo: Repo) -> dict[str, Any]:
    """Gitea answers the repository's creation time as ``created_at`` (not the watch's) and no reason."""
    repo_url = forge().api_url(f"repos/{quote(repo.owner_name)}/{quote(repo.name)}")
    return {
        "subscribed": True,
        "ignored": False,
        "reason": None,
        "created_at": iso(repo.created),
        "url": f"{repo_url}/subscription",
        "repository_url": repo_url,
    }
