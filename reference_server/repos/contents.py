"""The single-file contents API: read a file or directory at a ref, and create, update or delete one file
with a commit made by Git plumbing (no work tree), serialised per repository, announced as a push."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from urllib.parse import quote

from ..auth import Principal
from ..context import forge
from ..errors import NotFound, Unprocessable
from ..events import PushEvent
from ..gitcli import ZERO_SHA, Identity, RefUpdateRejectedError, TreeEntry, valid_branch_name
from ..timefmt import iso, iso_or_zero
from ..users import models as users
from . import models
from .errors import (
    BranchAlreadyExists,
    BranchNotFound,
    ConcurrentChange,
    ContentNotFound,
    FileAlreadyExists,
    InvalidPath,
    ShaMismatch,
)

__all__ = ["FileChange", "change_file", "get_contents", "validate_path"]

Operation = Literal["create", "update", "delete"]
NOT_SIGNED = {
    "verified": False,
    "reason": "gpg.error.not_signed_commit",
    "signature": "",
    "signer": None,
    "payload": "",
}
_TYPES = {"blob": "file", "tree": "dir", "commit": "submodule"}


def validate_path(path: str, *, allow_root: bool = False) -> str:
    """A repository path: no ``..``/``.`` or empty components, no leading ``/``, no NUL, no ``.git`` (422)."""
    if "\x00" in path:
        raise InvalidPath("path contains a NUL character")
    try:
        path.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidPath("path must be valid UTF-8 text") from exc
    if path.startswith("/"):
        raise InvalidPath(f"path must be relative to the repository root [path: {path}]")
    clean = path.rstrip("/") if allow_root else path
    if not clean:
        if allow_root:
            return ""
        raise InvalidPath("[TreePath]: Required")
    for part in clean.split("/"):
        if part in ("", ".", ".."):
            raise InvalidPath(f"path contains an invalid component [path: {path}]")
        if part.lower() == ".git":
            raise InvalidPath(f"path must not contain a .git component [path: {path}]")
        if any(ord(ch) < 0x20 for ch in part):
            raise InvalidPath(f"path contains a control character [path: {path!r}]")
    return clean


@dataclass(frozen=True)
class _Ref:
    """A resolved ``?ref=``: its name, kind (``branch``, ``tag``, ``commit``) and commit."""

    name: str
    kind: str
    commit: str


def _resolve(repo: models.Repo, ref: str | None) -> _Ref | None:
    name = ref or repo.default_branch
    found = repo.git.resolve_ref(name)
    return None if found is None else _Ref(name, found[0], found[1])


def _entry_to_api(repo: models.Repo, ref: _Ref, entry: TreeEntry, *, with_content: bool) -> dict[str, Any]:
    """Gitea's ``ContentsResponse`` for one tree entry (content only for a single file)."""
    git = repo.git
    kind = "symlink" if entry.mode == "120000" else _TYPES.get(entry.type, "file")
    base = f"{quote(repo.owner_name)}/{quote(repo.name)}"
    quoted_path = quote(entry.path)
    self_url = forge().api_url(f"repos/{base}/contents/{quoted_path}?ref={quote(ref.name, safe='')}")
    git_kind = "trees" if kind == "dir" else "blobs"
    git_url = forge().api_url(f"repos/{base}/git/{git_kind}/{entry.sha}") if kind != "submodule" else None
    html_url = forge().url(f"{base}/src/{ref.kind}/{quote(ref.name)}/{quoted_path}")
    last_sha = git.last_commit_for_path(ref.commit, entry.path)
    last = git.commit_info(last_sha) if last_sha else None
    content: str | None = None
    encoding: str | None = None
    target: str | None = None
    if kind in ("file", "symlink") and (with_content or kind == "symlink"):
        raw = git.read_object(entry.sha) or b""
        if kind == "symlink":
            target = raw.decode("utf-8", "replace")
        if with_content:
            content, encoding = base64.b64encode(raw).decode("ascii"), "base64"
    download_url = (
        forge().url(f"{base}/raw/{ref.kind}/{quote(ref.name)}/{quoted_path}") if kind in ("file", "symlink") else None
    )
    return {
        "name": entry.name,
        "path": entry.path,
        "sha": entry.sha,
        "last_commit_sha": last.sha if last else None,
        "last_committer_date": iso(last.committer.time) if last else iso_or_zero(None),
        "last_author_date": iso(last.author.time) if last else iso_or_zero(None),
        "type": kind,
        "size": entry.size if kind in ("file", "symlink") else 0,
        "encoding": encoding,
        "content": content,
        "target": target,
        "url": self_url,
        "html_url": html_url,
        "git_url": git_url,
        "download_url": download_url,
        "submodule_git_url": None,
        "_links": {"self": self_url, "git": git_url, "html": html_url},
    }


def get_contents(repo: models.Repo, path: str, ref: str | None) -> dict[str, Any] | list[dict[str, Any]]:
    """A file's ``ContentsResponse``, or a directory's entries (without content); 404 for a missing path or ref."""
    clean = validate_path(path, allow_root=True)
    resolved = _resolve(repo, ref)
    if resolved is None:
        if not ref and not clean and repo.git.is_empty():
            return []
        raise NotFound(f"object does not exist [id: {ref or repo.default_branch}, rel_path: {clean}]")
    entry = repo.git.stat(resolved.commit, clean)
    if entry is None:
        raise ContentNotFound(f"object does not exist [id: {resolved.commit}, rel_path: {clean}]")
    if entry.type == "tree":
        children = repo.git.list_tree(resolved.commit, clean)
        return [_entry_to_api(repo, resolved, child, with_content=False) for child in children]
    return _entry_to_api(repo, resolved, entry, with_content=True)


# -- writing -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileChange:
    """The outcome of a write: the HTTP status and Gitea's ``FileResponse``/``FileDeleteResponse``."""

    status: int
    body: dict[str, Any]


def _text(options: Mapping[str, Any], key: str) -> str:
    value = options.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unprocessable(f"[{key}]: must be a string")
    return users.require_utf8(value, key)


def _identity(options: Mapping[str, Any], key: str) -> tuple[str, str] | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise Unprocessable(f"[{key}]: must be an object with name and email")
    name, email = _text(value, "name"), _text(value, "email")
    if not name and not email:
        return None
    if not name or not email or "\n" in name or "<" in email or ">" in email:
        raise Unprocessable(f"[{key}]: both name and a valid email are required")
    return name, users.validate_email(email, f"{key}.email")


def _date(options: Mapping[str, Any], key: str, default: int) -> int:
    dates = options.get("dates")
    if dates is None:
        return default
    if not isinstance(dates, dict):
        raise Unprocessable("[Dates]: must be an object")
    value = dates.get(key)
    if value in (None, ""):
        return default
    if not isinstance(value, str):
        raise Unprocessable(f"[Dates.{key}]: must be an RFC 3339 date-time")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise Unprocessable(f"[Dates.{key}]: must be an RFC 3339 date-time") from exc
    if moment.tzinfo is None:
        raise Unprocessable(f"[Dates.{key}]: a time zone offset is required")
    return int(moment.timestamp())


def _decode_content(options: Mapping[str, Any]) -> bytes:
    raw = options.get("content")
    if not isinstance(raw, str):
        raise Unprocessable("[Content]: must be a base64 string")
    try:
        return base64.b64decode(raw.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Unprocessable(f"invalid base64 content: {exc}") from exc


def _check_room(repo: models.Repo, parent: str | None, path: str) -> None:
    """No file may stand where the new path needs a directory, and nothing may already be at the path."""
    if parent is None:
        return
    parts = path.split("/")
    for depth in range(1, len(parts)):
        prefix = "/".join(parts[:depth])
        entry = repo.git.stat(parent, prefix)
        if entry is None:
            return
        if entry.type != "tree":
            raise Unprocessable(f"a file exists where you're trying to create a subdirectory [path: {prefix}]")
    existing = repo.git.stat(parent, path)
    if existing is not None:
        raise FileAlreadyExists(f"repository file already exists [path: {path}]")


def _existing_file(repo: models.Repo, parent: str | None, path: str, given_sha: str) -> TreeEntry:
    entry = repo.git.stat(parent, path) if parent else None
    if entry is None or entry.type == "tree":
        raise ContentNotFound(f"file does not exist [path: {path}]")
    if given_sha != entry.sha:
        raise ShaMismatch(f"sha does not match [given: {given_sha}, expected: {entry.sha}]")
    return entry


def _default_message(operation: Operation, path: str, from_path: str) -> str:
    if operation == "create":
        return f"Add {path}\n"
    if operation == "delete":
        return f"Delete {path}\n"
    if from_path != path:
        return f"Rename {from_path} to {path}\n"
    return f"Update {path}\n"


def _commit_to_api(repo: models.Repo, sha: str) -> dict[str, Any]:
    info = repo.git.commit_info(sha)
    base = f"{quote(repo.owner_name)}/{quote(repo.name)}"

    def meta(kind: str, value: str) -> dict[str, Any]:
        return {"url": forge().api_url(f"repos/{base}/git/{kind}/{value}"), "sha": value, "created": iso_or_zero(None)}

    return {
        "url": forge().api_url(f"repos/{base}/git/commits/{sha}"),
        "sha": sha,
        "created": iso(info.committer.time),
        "html_url": forge().url(f"{base}/commit/{sha}"),
        "author": {"name": info.author.name, "email": info.author.email, "date": iso(info.author.time)},
        "committer": {"name": info.committer.name, "email": info.committer.email, "date": iso(info.committer.time)},
        "parents": [meta("commits", parent) for parent in info.parents],
        "message": info.message,
        "tree": meta("trees", info.tree),
    }


@dataclass(frozen=True)
class _Write:
    """A validated write request (everything but what depends on the repository's current state)."""

    operation: Operation
    path: str
    from_path: str
    content: bytes | None
    given_sha: str
    branch: str
    new_branch: str
    force_push: bool
    message: str
    author: Identity
    committer: Identity


def _parse_write(
    repo: models.Repo, path: str, operation: Operation, options: Mapping[str, Any], principal: Principal
) -> _Write:
    """Validate the body of a create, update or delete before the repository is locked."""
    path = validate_path(path)
    content = None if operation == "delete" else _decode_content(options)
    from_path = validate_path(_text(options, "from_path")) if options.get("from_path") else path
    branch = _text(options, "branch") or repo.default_branch
    new_branch = _text(options, "new_branch")
    for name in (branch, new_branch):
        if name and not valid_branch_name(name):
            raise Unprocessable(f"invalid branch name [name: {name}]")
    now = int(forge().now())
    fallback = users.doer_identity(principal)
    author_pair = _identity(options, "author")
    committer_pair = _identity(options, "committer")
    author_pair = author_pair or committer_pair or fallback
    committer_pair = committer_pair or author_pair
    author = Identity(*author_pair, _date(options, "author", now))
    committer = Identity(*committer_pair, _date(options, "committer", now))
    given_sha = _text(options, "sha")
    kind: Operation = "create" if operation == "update" and not given_sha else operation
    message = _text(options, "message") or _default_message(kind, path, from_path)
    if options.get("signoff") is True:
        message = f"{message.rstrip()}\n\nSigned-off-by: {committer.name} <{committer.email}>\n"
    return _Write(
        operation=operation,
        path=path,
        from_path=from_path,
        content=content,
        given_sha=given_sha,
        branch=branch,
        new_branch=new_branch,
        force_push=options.get("force_push") is True,
        message=message,
        author=author,
        committer=committer,
    )


def _plan(repo: models.Repo, write: _Write, parent: str | None) -> tuple[dict[str, bytes | None], dict[str, str]]:
    """The tree changes (path → content, None deletes) and renames a write makes on top of ``parent``."""
    changes: dict[str, bytes | None] = {}
    renames: dict[str, str] = {}
    if write.operation == "create" or (write.operation == "update" and not write.given_sha):
        _check_room(repo, parent, write.path)
        changes[write.path] = write.content
    elif write.operation == "update":
        _existing_file(repo, parent, write.from_path, write.given_sha)
        if write.from_path != write.path:
            _check_room(repo, parent, write.path)
            changes[write.from_path] = None
            renames[write.path] = write.from_path
        changes[write.path] = write.content
    else:
        if not write.given_sha:
            raise Unprocessable("[Sha]: Required")
        _existing_file(repo, parent, write.path, write.given_sha)
        changes[write.path] = None
    return changes, renames


def change_file(
    repo: models.Repo, path: str, operation: Operation, options: Mapping[str, Any], principal: Principal
) -> FileChange:
    """Create, update (``sha`` given, optionally renaming from ``from_path``) or delete one file in one commit.

    Commits to one repository are serialised by its lock; the branch moves with a compare-and-swap,
    and a ``PushEvent`` is published once the ref moved.
    """
    write = _parse_write(repo, path, operation, options, principal)
    git = repo.git
    with models.repo_lock(repo):
        branches = git.branches()
        parent: str | None = None
        if branches:
            if write.branch not in branches:
                raise BranchNotFound(f"branch does not exist [name: {write.branch}]")
            parent = branches[write.branch]
        target = write.new_branch or write.branch
        before = branches.get(target, ZERO_SHA)
        if write.new_branch and write.new_branch in branches and not write.force_push:
            raise BranchAlreadyExists(f"branch already exists [name: {write.new_branch}]")
        changes, renames = _plan(repo, write, parent)
        try:
            after = git.commit(
                branch=target,
                parent=parent,
                changes=changes,
                message=write.message,
                author=write.author,
                committer=write.committer,
                expected_old=before,
                renames=renames,
            )
        except RefUpdateRejectedError as exc:
            raise ConcurrentChange(f"the branch {target} moved while the change was committed; retry") from exc
        if not branches and target != repo.default_branch:
            models.set_default_branch(repo, target)
        models.touch(repo)
    forge().events.publish(PushEvent(repo.id, f"refs/heads/{target}", before, after, principal.user_id))
    body: dict[str, Any] = {"content": None, "commit": _commit_to_api(repo, after), "verification": NOT_SIGNED}
    if operation != "delete":
        entry = git.stat(after, write.path)
        if entry is not None:
            body["content"] = _entry_to_api(repo, _Ref(target, "branch", after), entry, with_content=True)
    status = 200 if operation == "delete" or (operation == "update" and write.given_sha) else 201
    return FileChange(status, body)
