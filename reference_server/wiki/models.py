"""The wiki of a repository: a bare ``<name>.wiki.git`` next to it, one Markdown file per page on ``master``.

Every change is one commit written without a work tree and landed with a compare-and-swap of
``refs/heads/master`` under the repository's lock, as Gitea's wiki service pushes one commit per
change (``services/wiki/wiki.go``). Reads answer 404 while the wiki has no commit.
"""

from __future__ import annotations

import base64
import binascii
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..auth import Principal
from ..context import now_seconds
from ..gitcli import ZERO_SHA, CommitInfo, Git, Identity, RefUpdateRejectedError
from ..repos import models as repos
from ..repos.commit_gate import require_unarchived
from ..repos.errors import ConcurrentChange
from ..users import models as users
from . import paths
from .errors import WikiBadRequest, WikiNotFound

__all__ = [
    "BRANCH",
    "MAX_BLOB_SIZE",
    "REVISIONS_PER_PAGE",
    "PageFile",
    "create_page",
    "delete_page",
    "edit_page",
    "list_page_files",
    "move_wiki",
    "page_file",
    "page_revisions",
    "remove_wiki",
    "wiki_git",
]

BRANCH = "master"
"""The branch Gitea's wiki API reads (``GetBranchCommit("master")``) and new wikis start on."""
MAX_BLOB_SIZE = 10 * 1024 * 1024
"""Gitea's ``API.DefaultMaxBlobSize``: a larger page is answered with empty content."""
REVISIONS_PER_PAGE = 50
"""Gitea's ``Git.CommitsRangeSize``: revisions per page of ``/wiki/revisions``."""


@dataclass(frozen=True)
class PageFile:
    """A page found in the wiki: its web path, file, content, and the commits that touched it."""

    web_path: str
    git_path: str
    content: bytes | None
    """None when larger than MAX_BLOB_SIZE (Gitea sends empty content then)."""
    last_commit: CommitInfo
    commit_count: int


def wiki_path(repo: repos.Repo) -> Path:
    """``<owner>/<name>.wiki.git`` beside the repository's ``<name>.git``."""
    return repo.git_path.with_name(repo.git_path.name[: -len(".git")] + ".wiki.git")


def wiki_git(repo: repos.Repo) -> Git:
    return Git(wiki_path(repo))


def _tip(git: Git) -> str:
    """The wiki's ``master`` commit; 404 while there is none."""
    sha = git.rev_parse(f"refs/heads/{BRANCH}") if git.path.exists() else None
    if sha is None:
        raise WikiNotFound()
    return sha


def _decode_content(content_base64: object) -> bytes:
    """The page's bytes from ``content_base64`` (standard alphabet, padded, as Go's StdEncoding wants)."""
    text = content_base64 if isinstance(content_base64, str) else ""
    try:
        return base64.b64decode(text.encode("ascii", "replace"), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise WikiBadRequest(f"illegal base64 data: {exc}") from exc


def _doer(principal: Principal) -> Identity:
    name, email = users.doer_identity(principal)
    return Identity(name, email, now_seconds())


def _find_file(git: Git, tip: str, web_path: str) -> str | None:
    """The file a web path names at ``tip``: the unescaped ``<web path>.md`` first, then the escaped name."""
    for candidate in (web_path + ".md", paths.web_path_to_git_path(web_path)):
        entry = git.stat(tip, candidate)
        if entry is not None and entry.type == "blob":
            return candidate
    return None


def _read_file(git: Git, tip: str, web_path: str) -> str | None:
    """The file a reader's web path names (Gitea tries the escaped name, then its query-unescaped form)."""
    escaped = paths.web_path_to_git_path(web_path)
    candidates = [escaped]
    unescaped = paths.go_query_unescape(escaped)
    if unescaped is not None and unescaped != escaped:
        candidates.append(unescaped)
    for candidate in candidates:
        entry = git.stat(tip, candidate)
        if entry is not None and entry.type == "blob":
            return candidate
    return None


def _ensure_wiki(repo: repos.Repo) -> Git:
    """The wiki's bare repository, created on the first write with HEAD on ``master``."""
    git = wiki_git(repo)
    if not git.path.exists():
        git.init_bare(BRANCH)
    return git


def _land(
    repo: repos.Repo, principal: Principal, changes: dict[str, bytes | None], message: str, *, must_exist: bool
) -> None:
    git = _ensure_wiki(repo)
    parent = git.rev_parse(f"refs/heads/{BRANCH}")
    if must_exist and parent is None:
        raise WikiNotFound()
    who = _doer(principal)
    entries: dict[str, tuple[str, bytes | str] | None] = {
        path: None if content is None else ("100644", content) for path, content in changes.items()
    }
    new = git.write_commit(parent, entries, message, author=who, committer=who)
    try:
        git.update_ref(f"refs/heads/{BRANCH}", new, parent or ZERO_SHA)
    except RefUpdateRejectedError as exc:
        raise ConcurrentChange("the wiki changed while the page was written; retry") from exc


def create_page(repo: repos.Repo, principal: Principal, body: Mapping[str, Any]) -> str:
    """Add a page from a ``CreateWikiPageOptions`` (400 for an empty title, a reserved name, a page that
    exists, content that is not base64)."""
    title, content_base64, message = body.get("title"), body.get("content_base64"), body.get("message")
    text = title if isinstance(title, str) else ""
    if not text.strip():
        raise WikiBadRequest("emptyTitle")
    web_path = paths.title_to_web_path(text)
    summary = message if isinstance(message, str) and message else f"Add {paths.quoted(text)}"
    content = _decode_content(content_base64)
    require_unarchived(repo)
    reserved = paths.reserved_segment(web_path)
    if reserved is not None:
        raise WikiBadRequest(f"wiki title is reserved: {reserved}")
    with repos.repo_lock(repo):
        git = _ensure_wiki(repo)
        tip = git.rev_parse(f"refs/heads/{BRANCH}")
        existing = _find_file(git, tip, web_path) if tip else None
        if existing is not None:
            raise WikiBadRequest(f"wiki page already exists [title: {existing}]")
        _land(repo, principal, {paths.web_path_to_git_path(web_path): content}, summary, must_exist=False)
    return web_path


def edit_page(repo: repos.Repo, principal: Principal, name: str, body: Mapping[str, Any]) -> str:
    """Change a page, renamed to ``title``'s web path (``unnamed`` when the title is empty: Gitea 1.27's
    UserTitleToWebPath); a page that does not exist is written as new, as Gitea's EditWikiPage does."""
    title, content_base64, message = body.get("title"), body.get("content_base64"), body.get("message")
    old_path = paths.web_path_from_request(name)
    new_path = paths.title_to_web_path(title if isinstance(title, str) else "")
    summary = message if isinstance(message, str) and message else f"Update {paths.quoted(new_path)}"
    content = _decode_content(content_base64)
    require_unarchived(repo)
    reserved = paths.reserved_segment(new_path)
    if reserved is not None:
        raise WikiBadRequest(f"wiki title is reserved: {reserved}")
    with repos.repo_lock(repo):
        git = _ensure_wiki(repo)
        tip = git.rev_parse(f"refs/heads/{BRANCH}")
        target = (_find_file(git, tip, new_path) if tip else None) or paths.web_path_to_git_path(new_path)
        changes: dict[str, bytes | None] = {}
        old_file = _find_file(git, tip, old_path) if tip and old_path != new_path else None
        if old_file is not None and old_file != target:
            changes[old_file] = None
        changes[target] = content
        _land(repo, principal, changes, summary, must_exist=False)
    return new_path


def delete_page(repo: repos.Repo, principal: Principal, name: str) -> None:
    """Remove a page's file in a commit ``Delete page "<web path>"``; 404 when the page is not there."""
    web_path = paths.web_path_from_request(name)
    require_unarchived(repo)
    with repos.repo_lock(repo):
        git = wiki_git(repo)
        tip = _tip(git)
        found = _find_file(git, tip, web_path)
        if found is None:
            raise WikiNotFound("file does not exist")
        _land(repo, principal, {found: None}, f"Delete page {paths.quoted(web_path)}", must_exist=True)


def _commit_count(git: Git, tip: str, file: str) -> int:
    out = git.run("rev-list", "--count", tip, "--", file).stdout.decode().strip()
    return int(out or 0)


def page_file(repo: repos.Repo, web_path: str, *, optional: bool = False) -> PageFile | None:
    """The page a web path names with its content and history; 404 (or None when ``optional``) when absent."""
    git = wiki_git(repo)
    tip = _tip(git)
    found = _read_file(git, tip, web_path)
    if found is None:
        if optional:
            return None
        raise WikiNotFound()
    entry = git.stat(tip, found)
    content = None if entry is None or entry.size > MAX_BLOB_SIZE else git.read_blob(tip, found)
    last = git.last_commit_for_path(tip, found) or tip
    return PageFile(web_path, found, content, git.commit_info(last), _commit_count(git, tip, found))


def list_page_files(repo: repos.Repo, limit: int, offset: int) -> tuple[list[tuple[str, CommitInfo]], int]:
    """Pages among the root entries ``offset`` to ``offset + limit`` (web path, last commit) and the count of
    ALL root entries, as Gitea pages the tree itself and skips non-pages within the page."""
    git = wiki_git(repo)
    tip = _tip(git)
    entries = git.list_tree(tip)
    pages: list[tuple[str, CommitInfo]] = []
    for entry in entries[offset : offset + limit]:
        if entry.type != "blob" or entry.mode != "100644":
            continue
        web_path = paths.git_path_to_web_path(entry.name)
        if web_path is None:
            continue
        last = git.last_commit_for_path(tip, entry.name) or tip
        pages.append((web_path, git.commit_info(last)))
    return pages, len(entries)


def page_revisions(repo: repos.Repo, name: str, page: int) -> tuple[list[CommitInfo], int]:
    """The commits that touched a page, newest first, REVISIONS_PER_PAGE a page, and their count."""
    git = wiki_git(repo)
    tip = _tip(git)
    web_path = paths.web_path_from_request(name) or "Home"
    found = _read_file(git, tip, web_path)
    if found is None:
        raise WikiNotFound()
    skip = (max(page, 1) - 1) * REVISIONS_PER_PAGE
    out = git.run(
        "log", "--format=%H", f"--skip={skip}", f"--max-count={REVISIONS_PER_PAGE}", tip, "--", found
    ).stdout.decode()
    return [git.commit_info(sha) for sha in out.split()], _commit_count(git, tip, found)


def remove_wiki(repo_git_path: Path) -> None:
    """Drop the wiki of a repository whose Git directory is ``repo_git_path``."""
    shutil.rmtree(repo_git_path.with_name(repo_git_path.name[: -len(".git")] + ".wiki.git"), ignore_errors=True)


def move_wiki(old_git_path: Path, new_git_path: Path) -> None:
    """Follow a renamed repository (its wiki keeps sitting beside it)."""
    old = old_git_path.with_name(old_git_path.name[: -len(".git")] + ".wiki.git")
    new = new_git_path.with_name(new_git_path.name[: -len(".git")] + ".wiki.git")
    if old.exists() and not new.exists():
        old.rename(new)
