"""Gitea's ``Repository`` as a caller sees it: above the models and :mod:`..permissions` (its ``permissions``
object), and over the families that add to it (owner, avatar, topics, licenses)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import has_request_context

from ..auth import Principal, optional_principal
from ..avatars.models import repo_avatar_url
from ..context import forge
from ..issues import store as issues_store
from ..licenses.models import repo_licenses
from ..permissions import permission
from ..releases import store as releases_store
from ..repo_transfers.presenters import repo_transfer_to_api
from ..stars.store import count_of_repo
from ..timefmt import iso, iso_or_zero
from ..topics.models import topic_names
from ..users.models import get_user
from ..users.presenters import user_to_api
from . import store
from .errors import RepoNotFound
from .models import Repo, get_repo_by_id

__all__ = ["repo_to_api"]


def _parent_to_api(repo: Repo, viewer: Principal | None) -> dict[str, Any] | None:
    """The repository a fork was made from, when the viewer may read it (without its own parent)."""
    if repo.fork_of is None:
        return None
    try:
        parent = get_repo_by_id(repo.fork_of)
    except RepoNotFound:
        return None
    if not permission(viewer, parent).can_read:
        return None
    return repo_to_api(parent, viewer, as_parent=True)


def repo_to_api(repo: Repo, viewer: Principal | None = None, *, as_parent: bool = False) -> dict[str, Any]:
    """Gitea's ``Repository`` as the caller (or ``viewer``) sees it; a fork's ``parent`` has no parent."""
    if viewer is None and has_request_context():
        viewer = optional_principal()
    allowed = permission(viewer, repo)
    owner = get_user(repo.owner_id)
    path = f"{quote(repo.owner_name)}/{quote(repo.name)}"
    branches = repo.git.branches()
    return {
        "id": repo.id,
        "owner": user_to_api(owner, viewer, anonymous=viewer is None),
        "name": repo.name,
        "full_name": repo.full_name,
        "description": repo.description,
        "empty": not branches,
        "private": repo.private,
        "fork": repo.fork_of is not None,
        "template": repo.is_template,
        "parent": None if as_parent else _parent_to_api(repo, viewer),
        "mirror": repo.is_mirror,
        "size": 0,
        "language": "",
        "languages_url": forge().api_url(f"repos/{path}/languages"),
        "html_url": forge().url(path),
        "url": forge().api_url(f"repos/{path}"),
        "link": "",
        "ssh_url": "",
        "clone_url": forge().url(f"{path}.git"),
        "original_url": repo.original_url,
        "website": repo.website,
        "stars_count": count_of_repo("star", repo.id),
        "forks_count": store.count_forks(repo.id),
        "watchers_count": count_of_repo("watch", repo.id),
        "open_issues_count": issues_store.count_open(repo.id, pulls=False),
        "open_pr_counter": issues_store.count_open(repo.id, pulls=True),
        "release_counter": releases_store.count_published(repo.id),
        "default_branch": repo.default_branch,
        "archived": repo.archived,
        "created_at": iso(repo.created),
        "updated_at": iso(repo.updated),
        "archived_at": iso_or_zero(repo.archived_at or None),
        "permissions": {"admin": allowed.is_admin, "push": allowed.can_write, "pull": allowed.can_read},
        "has_code": True,
        "has_issues": repo.has_issues,
        "internal_tracker": {
            "enable_time_tracker": False,
            "allow_only_contributors_to_track_time": True,
            "enable_issue_dependencies": True,
        },
        "has_wiki": True,
        "has_pull_requests": repo.has_pull_requests,
        "has_projects": False,
        "projects_mode": "all",
        "has_releases": True,
        "has_packages": False,
        "has_actions": True,
        "ignore_whitespace_conflicts": False,
        "allow_merge_commits": True,
        "allow_rebase": True,
        "allow_rebase_explicit": True,
        "allow_squash_merge": True,
        "allow_fast_forward_only_merge": True,
        "allow_rebase_update": True,
        "allow_merge_update": True,
        "allow_manual_merge": False,
        "autodetect_manual_merge": False,
        "default_delete_branch_after_merge": False,
        "default_merge_style": "merge",
        "default_allow_maintainer_edit": False,
        "default_target_branch": repo.default_branch,
        "default_update_style": "merge",
        "avatar_url": repo_avatar_url(repo.id),
        "internal": False,
        "mirror_interval": "8h0m0s" if repo.is_mirror else "",
        "object_format_name": "sha1",
        "mirror_updated": iso_or_zero(None),
        "mirror_last_sync_at": iso_or_zero(None),
        "repo_transfer": repo_transfer_to_api(repo.id),
        "topics": topic_names(repo.id),
        "licenses": repo_licenses(repo.id),
        "branch_count": len(branches),
    }
