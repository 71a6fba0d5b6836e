"""Gitea's ``CommitStatus`` and ``CombinedStatus`` as the API shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from ..context import forge
from ..repos import models as repos
from ..repos.presenters import repo_to_api
from ..timefmt import iso
from ..users.errors import UserNotFound
from ..users.models import get_user
from ..users.presenters import user_to_api
from ..users.tokens import ACTIONS_USER_ID
from .models import CommitStatus, combine

__all__ = ["combined_to_api", "status_to_api"]


def _repo_api_path(repo: repos.Repo) -> str:
    return f"repos/{quote(repo.owner_name)}/{quote(repo.name)}"


def _creator(user_id: int) -> dict[str, Any] | None:
    """The status's creator; null when the account is gone or was never set, and for the statuses Actions
    writes (Gitea looks the creator up among stored accounts, where ``gitea-actions`` has no row)."""
    if user_id in (0, ACTIONS_USER_ID):
        return None
    try:
        return user_to_api(get_user(user_id))
    except UserNotFound:
        return None


def status_to_api(repo: repos.Repo, status: CommitStatus) -> dict[str, Any]:
    """Gitea's ``CommitStatus``: ``id`` is the status's index among its commit's statuses; both times are
    the creation time, as Gitea shows them."""
    return {
        "id": status.index,
        "status": status.state,
        "target_url": status.target_url,
        "description": status.description,
        "url": forge().api_url(f"{_repo_api_path(repo)}/statuses/{quote(status.sha, safe='')}"),
        "context": status.context,
        "creator": _creator(status.creator_id),
        "created_at": iso(status.created),
        "updated_at": iso(status.created),
    }


def combined_to_api(repo: repos.Repo, sha: str, statuses: Sequence[CommitStatus]) -> dict[str, Any]:
    """Gitea's ``CombinedStatus`` of the latest status per context: ``state`` empty and ``statuses`` null
    when the commit has none."""
    commit_url = forge().api_url(f"{_repo_api_path(repo)}/commits/{quote(sha, safe='')}")
    return {
        "state": combine(status.state for status in statuses) if statuses else "",
        "sha": sha,
        "total_count": len(statuses),
        "statuses": [status_to_api(repo, status) for status in statuses] if statuses else None,
        "repository": repo_to_api(repo),
        "commit_url": commit_url,
        "url": f"{commit_url}/status",
    }
