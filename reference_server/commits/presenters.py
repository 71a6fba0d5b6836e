"""Gitea's ``Commit`` (with its files and stats when asked) and ``Compare`` as the API shows them; above the models."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..context import forge
from ..gitcli import CommitInfo, Git, Identity
from ..repos import models as repos
from ..repos.contents import NOT_SIGNED
from ..timefmt import iso, iso_or_zero
from ..users import models as users
from ..users.presenters import user_to_api
from .compare import Comparison
from .models import CommitOptions, read_commits

__all__ = ["commit_to_api", "compare_to_api"]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
"""The SHA-1 of the empty tree: the "parent" a root commit's changes are computed against."""
_FILE_STATUS = {"A": "added", "D": "removed", "M": "modified", "T": "modified", "C": "added"}


def _identity_to_api(who: Identity) -> dict[str, Any]:
    return {"name": who.name, "email": who.email, "date": iso(who.time)}


def _account(email: str, cache: dict[str, dict[str, Any] | None]) -> dict[str, Any] | None:
    """The forge user with the commit's e-mail (Gitea shows it as the commit's author), else null."""
    if email not in cache:
        user = users.find_user_by_email(email)
        cache[email] = None if user is None else user_to_api(user)
    return cache[email]


def _changes(git: Git, info: CommitInfo) -> tuple[list[dict[str, str]], dict[str, int]]:
    """Affected files (Gitea's added/removed/modified; a rename is a removal and an addition) and line stats."""
    base = info.parents[0] if info.parents else EMPTY_TREE
    files: list[dict[str, str]] = []
    additions = deletions = 0
    for change in git.changed_paths(base, info.sha):
        additions += change.additions
        deletions += change.deletions
        if change.status == "R":
            files += [{"filename": change.old_path, "status": "removed"}, {"filename": change.path, "status": "added"}]
        else:
            files.append({"filename": change.path, "status": _FILE_STATUS.get(change.status, "modified")})
    return files, {"total": additions + deletions, "additions": additions, "deletions": deletions}


def commit_to_api(
    repo: repos.Repo,
    info: CommitInfo,
    options: CommitOptions,
    *,
    git: Git | None = None,
    accounts: dict[str, dict[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """Gitea's ``Commit``; ``git`` may be a view that also sees another repository's objects (a compare)."""
    base = f"{quote(repo.owner_name)}/{quote(repo.name)}"
    cache = accounts if accounts is not None else {}
    commit_url = forge().api_url(f"repos/{base}/git/commits/{info.sha}")
    body: dict[str, Any] = {
        "url": commit_url,
        "sha": info.sha,
        "created": iso(info.committer.time),
        "html_url": forge().url(f"{base}/commit/{info.sha}"),
        "commit": {
            "url": commit_url,
            "author": _identity_to_api(info.author),
            "committer": _identity_to_api(info.committer),
            "message": info.message,
            "tree": {
                "url": forge().api_url(f"repos/{base}/git/trees/{info.tree}"),
                "sha": info.tree,
                "created": iso(info.committer.time),
            },
            "verification": NOT_SIGNED if options.verification else None,
        },
        "author": _account(info.author.email, cache),
        "committer": _account(info.committer.email, cache),
        "parents": [
            {
                "url": forge().api_url(f"repos/{base}/git/commits/{parent}"),
                "sha": parent,
                "created": iso_or_zero(None),
            }
            for parent in info.parents
        ],
        "files": None,
        "stats": None,
    }
    if options.files or options.stat:
        files, stats = _changes(git or repo.git, info)
        body["files"] = files if options.files else None
        body["stats"] = stats if options.stat else None
    return body


def compare_to_api(comparison: Comparison, options: CommitOptions) -> dict[str, Any]:
    """Gitea's ``Compare``: ``total_commits`` and the commits of ``base..head``, newest first."""
    infos = read_commits(comparison.git, ["--end-of-options", f"{comparison.base}..{comparison.head}"])
    accounts: dict[str, dict[str, Any] | None] = {}
    commits = [
        commit_to_api(comparison.head_repo, info, options, git=comparison.git, accounts=accounts) for info in infos
    ]
    return {"total_commits": len(commits), "commits": commits}
