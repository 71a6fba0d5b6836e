"""The contents API's reads: a file or directory at a ref (Gitea's ``ContentsResponse``); the writes, one file
or many in one commit, are :mod:`.file_changes`.

Entries are described in batches (:func:`describe_entries`): one process lists the entries, one reads
every blob, one walks history for the last commits, whatever the number of files.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from ..context import forge
from ..errors import NotFound
from ..gitcli import CommitInfo, TreeEntry
from ..lfs.pointers import POINTER_MAX, parse_pointer
from ..timefmt import iso, iso_or_zero
from . import models, treeops
from .errors import ContentNotFound, InvalidPath

__all__ = [
    "NOT_SIGNED",
    "Describe",
    "Known",
    "ResolvedRef",
    "commit_to_api",
    "describe_entries",
    "get_contents",
    "resolve_ref",
    "validate_path",
]

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
            raise InvalidPath(f"path contains a malformed path component [path: {path}]")
        if part.lower() == ".git":
            raise InvalidPath(f"path must not contain a .git component [path: {path}]")
        if any(ord(ch) < 0x20 for ch in part):
            raise InvalidPath(f"path contains a control character [path: {path!r}]")
    return clean


@dataclass(frozen=True)
class ResolvedRef:
    """A resolved ``?ref=``: its name, kind (``branch``, ``tag``, ``commit``) and commit."""

    name: str
    kind: str
    commit: str


def resolve_ref(repo: models.Repo, ref: str | None) -> ResolvedRef | None:
    """The branch, tag or commit ``ref`` names (the default branch when empty), or None."""
    name = ref or repo.default_branch
    found = repo.git.resolve_ref(name)
    return None if found is None else ResolvedRef(name, found[0], found[1])


@dataclass(frozen=True)
class Describe:
    """What a description of entries includes (the ``includes`` of contents-ext; plain contents: defaults)."""

    content_paths: frozenset[str] = frozenset()
    commit_metadata: bool = True
    commit_message: bool = False
    lfs_metadata: bool = True


@dataclass(frozen=True)
class Known:
    """What the caller of :func:`describe_entries` already knows, so git is not asked: the content of
    blobs by SHA, and the newest commit that changed a path (a write's own commit, for the paths it changed)."""

    blobs: Mapping[str, bytes] = field(default_factory=dict)
    last_commits: Mapping[str, str] = field(default_factory=dict)


def describe_entries(
    repo: models.Repo,
    ref: ResolvedRef,
    entries: Sequence[TreeEntry],
    describe: Describe = Describe(),
    *,
    known: Known | None = None,
) -> list[dict[str, Any]]:
    """Gitea's ``ContentsResponse`` for each entry, with a fixed number of ``git`` processes for all (none
    for what ``known`` already says: a write knows the blobs it stored and the commit that changed them)."""
    git = repo.git
    known = known or Known()
    wanted_blobs = [
        entry.sha
        for entry in entries
        if entry.type == "blob"
        and entry.sha not in known.blobs
        and (entry.path in describe.content_paths or entry.mode == "120000" or describe.lfs_metadata)
        and (entry.size <= POINTER_MAX or entry.path in describe.content_paths)
    ]
    blobs = {**known.blobs, **treeops.read_objects(git, wanted_blobs)}
    last_commits: dict[str, str] = {}
    infos: dict[str, CommitInfo] = {}
    if describe.commit_metadata or describe.commit_message:
        unknown = [entry.path for entry in entries if entry.path not in known.last_commits]
        last_commits = {**known.last_commits, **treeops.last_commits_for_paths(git, ref.commit, unknown)}
        infos = treeops.read_commits(git, list(dict.fromkeys(last_commits.values())))
    described = []
    for entry in entries:
        last_sha = last_commits.get(entry.path)
        described.append(
            _entry_to_api(repo, ref, entry, raw=blobs.get(entry.sha), last=infos.get(last_sha or ""), describe=describe)
        )
    return described


def _entry_to_api(
    repo: models.Repo,
    ref: ResolvedRef,
    entry: TreeEntry,
    *,
    raw: bytes | None,
    last: CommitInfo | None,
    describe: Describe,
) -> dict[str, Any]:
    """One ``ContentsResponse``; commit fields only when asked for (contents-ext leaves them out)."""
    kind = "symlink" if entry.mode == "120000" else _TYPES.get(entry.type, "file")
    base = f"{quote(repo.owner_name)}/{quote(repo.name)}"
    quoted_path = quote(entry.path)
    self_url = forge().api_url(f"repos/{base}/contents/{quoted_path}?ref={quote(ref.name, safe='')}")
    git_kind = "trees" if kind == "dir" else "blobs"
    git_url = forge().api_url(f"repos/{base}/git/{git_kind}/{entry.sha}") if kind != "submodule" else None
    html_url = forge().url(f"{base}/src/{ref.kind}/{quote(ref.name)}/{quoted_path}")
    with_content = entry.path in describe.content_paths and kind in ("file", "symlink")
    content = raw if with_content else None
    download_url = (
        forge().url(f"{base}/raw/{ref.kind}/{quote(ref.name)}/{quoted_path}") if kind in ("file", "symlink") else None
    )
    body: dict[str, Any] = {"name": entry.name, "path": entry.path, "sha": entry.sha}
    if describe.commit_metadata:
        body["last_commit_sha"] = last.sha if last else None
        body["last_committer_date"] = iso(last.committer.time) if last else iso_or_zero(None)
        body["last_author_date"] = iso(last.author.time) if last else iso_or_zero(None)
    if describe.commit_message:
        body["last_commit_message"] = last.message if last else ""
    body.update(
        {
            "type": kind,
            "size": entry.size if kind in ("file", "symlink") else 0,
            "encoding": "base64" if content is not None else None,
            "content": _base64(content) if content is not None else None,
            "target": (raw or b"").decode("utf-8", "replace") if kind == "symlink" else None,
            "url": self_url,
            "html_url": html_url,
            "git_url": git_url,
            "download_url": download_url,
            "submodule_git_url": None,
            "_links": {"self": self_url, "git": git_url, "html": html_url},
        }
    )
    pointer = parse_pointer(raw) if describe.lfs_metadata and kind == "file" and raw is not None else None
    if pointer is not None:
        body["lfs_oid"], body["lfs_size"] = pointer
    return body


def _base64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _missing(repo: models.Repo, ref: str | None, clean: str) -> NotFound:
    return NotFound(f"object does not exist [id: {ref or repo.default_branch}, rel_path: {clean}]")


def get_contents(repo: models.Repo, path: str, ref: str | None) -> dict[str, Any] | list[dict[str, Any]]:
    """A file's ``ContentsResponse``, or a directory's entries (without content); 404 for a missing path or ref."""
    clean = validate_path(path, allow_root=True)
    resolved = resolve_ref(repo, ref)
    if resolved is None:
        if not ref and not clean and repo.git.is_empty():
            return []
        raise _missing(repo, ref, clean)
    entry = repo.git.stat(resolved.commit, clean)
    if entry is None:
        raise ContentNotFound(f"object does not exist [id: {resolved.commit}, rel_path: {clean}]")
    if entry.type == "tree":
        return describe_entries(repo, resolved, repo.git.list_tree(resolved.commit, clean))
    return describe_entries(repo, resolved, [entry], Describe(content_paths=frozenset({entry.path})))[0]


def commit_to_api(repo: models.Repo, sha: str) -> dict[str, Any]:
    """Gitea's ``FileCommitResponse`` of a commit."""
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
