"""Gitea's ``NotificationThread`` (with its ``NotificationSubject``), ``StopWatch`` and an issue's ``WatchInfo``."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlparse

from ..context import forge, now_seconds
from ..db import Row
from ..issues.comments import CommentType
from ..issues.models import Issue, get_issue_by_id, issue_api_path, issue_web_path
from ..pulls import models as pulls
from ..releases.errors import ReleaseNotFound
from ..releases.models import get_release
from ..repos import models as repos
from ..repos.presenters import repo_to_api
from ..timefmt import iso
from . import store
from .models import PINNED, RELEASE, UNREAD
from .stopwatches import duration

__all__ = ["issue_watch_to_api", "stopwatch_to_api", "thread_to_api"]


def _relative(url: str) -> str:
    """The path of a public URL (Gitea's ``Link()``: relative, sub-path included)."""
    return urlparse(url).path


def _issue_subject(repo: repos.Repo, issue: Issue) -> dict[str, Any]:
    state = issue.state
    if issue.is_pull and pulls.pull_meta(repo, issue).get("merged"):
        state = "merged"
    subject: dict[str, Any] = {
        "title": issue.title,
        "url": forge().api_url(issue_api_path(repo, issue)),
        "html_url": forge().url(issue_web_path(repo, issue)),
        "latest_comment_url": "",
        "latest_comment_html_url": "",
        "type": "Pull" if issue.is_pull else "Issue",
        "state": state,
    }
    comment_id = store.last_comment_id(issue.id, CommentType.COMMENT)
    if comment_id:
        base = f"repos/{quote(repo.owner_name)}/{quote(repo.name)}"
        subject["latest_comment_url"] = forge().api_url(f"{base}/issues/comments/{comment_id}")
        subject["latest_comment_html_url"] = f"{subject['html_url']}#issuecomment-{comment_id}"
    return subject


def _release_subject(repo: repos.Repo, release_id: int) -> dict[str, Any]:
    subject: dict[str, Any] = {
        "title": "",
        "url": "",
        "html_url": "",
        "latest_comment_url": "",
        "latest_comment_html_url": "",
        "type": "Release",
        "state": "",
    }
    try:
        release = get_release(repo, release_id)
    except ReleaseNotFound:
        return subject
    tag = "/".join(quote(part, safe="") for part in release.tag_name.split("/"))
    page = forge().url(f"{quote(repo.owner_name)}/{quote(repo.name)}/releases/tag/{tag}")
    subject.update(title=release.title, url=_relative(page), html_url=page)
    return subject


def thread_to_api(row: Row) -> dict[str, Any]:
    """Gitea's ``NotificationThread``: the repository as a reader sees it, without ``permissions``."""
    repo = repos.get_repo_by_id(int(row["repo_id"]))
    repository = repo_to_api(repo)
    repository.pop("permissions", None)
    if int(row["source"]) == RELEASE:
        subject = _release_subject(repo, int(row["release_id"]))
    else:
        subject = _issue_subject(repo, get_issue_by_id(int(row["issue_id"])))
    status = int(row["status"])
    return {
        "id": row["id"],
        "repository": repository,
        "subject": subject,
        "unread": status == UNREAD,
        "pinned": status == PINNED,
        "updated_at": iso(int(row["updated"])),
        "url": forge().api_url(f"notifications/threads/{row['id']}"),
    }


def stopwatch_to_api(row: Row) -> dict[str, Any]:
    """Gitea's ``StopWatch``: the seconds elapsed so far and the issue it runs on."""
    issue = get_issue_by_id(int(row["issue_id"]))
    repo = repos.get_repo_by_id(issue.repo_id)
    seconds = max(now_seconds() - int(row["created"]), 0)
    return {
        "created": iso(int(row["created"])),
        "seconds": seconds,
        "duration": duration(seconds),
        "issue_index": issue.index,
        "issue_title": issue.title,
        "repo_owner_name": repo.owner_name,
        "repo_name": repo.name,
    }


def issue_watch_to_api(repo: repos.Repo, issue: Issue, watching: bool) -> dict[str, Any]:
    """Gitea's ``WatchInfo`` of an issue: ``created_at`` is the issue's creation, ``reason`` always null."""
    return {
        "subscribed": watching,
        "ignored": not watching,
        "reason": None,
        "created_at": iso(issue.created),
        "url": forge().api_url(issue_api_path(repo, issue)) + "/subscriptions",
        "repository_url": forge().api_url(f"repos/{quote(repo.owner_name)}/{quote(repo.name)}"),
    }
