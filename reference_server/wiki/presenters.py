"""Gitea's wiki models: WikiCommit, WikiPageMetaData, WikiPage, WikiCommitList (services/convert/wiki.go)."""

from __future__ import annotations

import base64
from typing import Any

from ..context import forge
from ..gitcli import CommitInfo
from ..repos.models import Repo
from ..timefmt import iso
from . import paths
from .models import PageFile

__all__ = ["wiki_commit_list_to_api", "wiki_commit_to_api", "wiki_page_meta_to_api", "wiki_page_to_api"]


def _utc(seconds: int) -> str:
    """Go's RFC 3339 of a UTC time (``...Z``), as Gitea formats wiki commit dates."""
    return iso(seconds).replace("+00:00", "Z")


def wiki_commit_to_api(commit: CommitInfo) -> dict[str, Any]:
    """``WikiCommit``; Gitea spells the committer field ``commiter``, dates in UTC."""
    return {
        "sha": commit.sha,
        "author": {"name": commit.author.name, "email": commit.author.email, "date": _utc(commit.author.time)},
        "commiter": {
            "name": commit.committer.name,
            "email": commit.committer.email,
            "date": _utc(commit.committer.time),
        },
        "message": commit.message,
    }


def wiki_page_meta_to_api(repo: Repo, web_path: str, last_commit: CommitInfo) -> dict[str, Any]:
    """``WikiPageMetaData``: the title shown, the web path (``sub_url``) and its page in the web UI."""
    return {
        "title": paths.web_path_title(web_path),
        "html_url": forge().url(f"{repo.owner_name}/{repo.name}/wiki/{paths.url_path(web_path)}"),
        "sub_url": web_path,
        "last_commit": wiki_commit_to_api(last_commit),
    }


def _b64(content: bytes | None) -> str:
    return base64.b64encode(content).decode("ascii") if content else ""


def wiki_page_to_api(repo: Repo, page: PageFile, sidebar: PageFile | None, footer: PageFile | None) -> dict[str, Any]:
    """``WikiPage``: the metadata plus the content, sidebar and footer in base64 and the page's commit count."""
    return {
        **wiki_page_meta_to_api(repo, page.web_path, page.last_commit),
        "content_base64": _b64(page.content),
        "commit_count": page.commit_count,
        "sidebar": _b64(sidebar.content) if sidebar else "",
        "footer": _b64(footer.content) if footer else "",
    }


def wiki_commit_list_to_api(commits: list[CommitInfo], count: int) -> dict[str, Any]:
    """``WikiCommitList``: one page of revisions and the count of all of them."""
    return {"commits": [wiki_commit_to_api(commit) for commit in commits], "count": count}
