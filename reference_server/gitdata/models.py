"""Reading Git objects for the Git data API as Gitea 1.27 resolves them: trees and blobs by SHA (or any name
``git cat-file`` resolves, as Gitea's ``GetTree``), refs by prefix, raw files with the ref in the path, and
commit diffs; a fixed, small number of git processes per request."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..gitcli import Git, TreeEntry, tree_entries
from ..repos.models import Repo
from .errors import BadObject, GitDataNotFound

__all__ = [
    "DEFAULT_TREES_PER_PAGE",
    "MAX_BLOB_SIZE",
    "Blob",
    "GitRef",
    "RawFile",
    "Tree",
    "commit_diff",
    "editorconfig_text",
    "form_bool",
    "list_refs",
    "primed",
    "read_blob",
    "read_tree",
    "resolve_raw",
    "tree_page",
]

DEFAULT_TREES_PER_PAGE = 1000
"""Gitea's ``[api] DEFAULT_GIT_TREES_PER_PAGE``: the most entries one tree page holds."""
MAX_BLOB_SIZE = 10 * 1024 * 1024
"""Gitea's ``[api] DEFAULT_MAX_BLOB_SIZE``: a larger blob is described without its content."""
_HEX = re.compile(r"^[0-9a-f]*$")
_OBJECT_ID_LENGTHS = (40, 64)
_COMMIT_ID = re.compile(r"^[0-9a-fA-F]{40}$")


@dataclass(frozen=True)
class Tree:
    """A tree as asked for: ``sha`` is the object the name resolved to (a commit's own SHA for a commit, as
    Gitea's ``ResolvedID``), ``entries`` every entry (recursive listings include the trees themselves)."""

    sha: str
    entries: list[TreeEntry]


@dataclass(frozen=True)
class Blob:
    """A blob by SHA; ``content`` is None when it is larger than :data:`MAX_BLOB_SIZE`."""

    sha: str
    size: int
    content: bytes | None


@dataclass(frozen=True)
class GitRef:
    """One ref: its full name, the object it points at and that object's type (``commit``, ``tag``, ...)."""

    name: str
    sha: str
    type: str


@dataclass(frozen=True)
class RawFile:
    """The file a raw request names: the commit it was read from and its tree entry."""

    commit: str
    entry: TreeEntry


def _unsafe(name: str) -> bool:
    return not name or name.startswith("-") or any(ch in name for ch in "\x00\n\r")


def _check_object(git: Git, name: str) -> tuple[str, str, int] | None:
    """``(sha, type, size)`` of the object ``name`` resolves to, or None (one ``cat-file --batch-check``)."""
    if _unsafe(name):
        return None
    out = git.run("cat-file", "--batch-check", input_bytes=name.encode("utf-8", "surrogateescape") + b"\n").stdout
    fields = out.decode("utf-8", "replace").strip().split(" ")
    if len(fields) != 3 or not fields[2].isdigit():
        return None
    return fields[0], fields[1], int(fields[2])


def read_tree(git: Git, sha: str, *, recursive: bool) -> Tree:
    """The tree ``sha`` names (a tree, or a commit's or an annotated tag's root tree); 400 ``sha not found``
    otherwise, as Gitea answers every failed lookup of this route."""
    if not sha:
        raise BadObject("sha not provided")
    found = _check_object(git, sha)
    if found is None or found[1] not in ("tree", "commit", "tag"):
        raise BadObject(f"sha not found [{sha}]")
    resolved = found[0]
    if found[1] == "tag":
        peeled = git.rev_parse(resolved)
        if peeled is None:
            raise BadObject(f"sha not found [{sha}]")
        resolved = peeled
    args = ["ls-tree", "-l", "-z", *(["-r", "-t"] if recursive else []), "--end-of-options", resolved]
    completed = git.run(*args, check=False)
    if completed.returncode != 0:
        raise BadObject(f"sha not found [{sha}]")
    return Tree(resolved, tree_entries(completed.stdout))


def _form_int(raw: str | None) -> int:
    """Gitea's ``FormInt``: a value that is not a whole number counts as 0."""
    try:
        return int(raw or "0")
    except ValueError:
        return 0


def form_bool(raw: str | None, *, default: bool = False) -> bool:
    """Gitea's ``FormBool`` (Go's ``strconv.ParseBool``): ``1``, ``t``, ``true`` in any of Go's spellings are
    true, anything else false, never a refusal; ``default`` when the parameter is absent or empty."""
    if raw is None or raw == "":
        return default
    return raw in ("1", "t", "T", "TRUE", "true", "True")


def tree_page(total: int, page_arg: str | None, per_page_arg: str | None) -> tuple[int, int, int, bool]:
    """``(page, start, end, truncated)`` as Gitea pages a tree: ``per_page`` outside 1..1000 is 1000, a page
    below 1 is 1, ``truncated`` says entries follow this page; a page past the end has no entries."""
    per_page = _form_int(per_page_arg)
    if per_page <= 0 or per_page > DEFAULT_TREES_PER_PAGE:
        per_page = DEFAULT_TREES_PER_PAGE
    page = max(_form_int(page_arg), 1)
    start = per_page * (page - 1)
    if start >= total:
        return page, start, start, False
    end = min(start + per_page, total)
    return page, start, end, end < total


def _object_id_refusal(sha: str) -> str | None:
    """Go's ``NewIDFromString`` refusal of a blob id, or None for a well-formed SHA-1 or SHA-256 id."""
    if len(sha) not in _OBJECT_ID_LENGTHS:
        return f"length {len(sha)} has no matched object format: {sha}"
    if not _HEX.match(sha):
        bad = next(ch for ch in sha if ch not in "0123456789abcdef")
        return f"encoding/hex: invalid byte: U+{ord(bad):04X} {bad!r}"
    if set(sha) == {"0"}:
        return f"object does not exist [id: {sha}, rel_path: ]"
    return None


def read_blob(git: Git, sha: str) -> Blob:
    """The object ``sha`` (a full object id; Gitea reads whatever object it is) with its content when it is
    at most :data:`MAX_BLOB_SIZE`; 400 with Gitea's message for a malformed or unknown id."""
    if not sha:
        raise BadObject("sha not provided")
    refusal = _object_id_refusal(sha)
    if refusal is not None:
        raise BadObject(refusal)
    found = _check_object(git, sha)
    if found is None:
        raise BadObject(f"object does not exist [id: {sha}, rel_path: ]")
    object_sha, kind, size = found
    if size > MAX_BLOB_SIZE:
        return Blob(object_sha, size, None)
    content = git.run("cat-file", kind, object_sha).stdout
    return Blob(object_sha, size, content)


def list_refs(git: Git, ref_filter: str) -> list[GitRef]:
    """Every ref whose full name starts with ``refs/<ref_filter>`` (all refs for an empty filter), sorted by
    name: Gitea's ``GetRefsFiltered`` is a plain prefix match (``heads`` lists every branch)."""
    prefix = f"refs/{ref_filter}" if ref_filter else ""
    out = git.run("for-each-ref", "--format=%(objectname) %(objecttype) %(refname)").stdout
    refs = []
    for line in out.decode("utf-8", "surrogateescape").splitlines():
        sha, kind, name = line.split(" ", 2)
        if name.startswith(prefix):
            refs.append(GitRef(name, sha, kind))
    return refs


def _ref_at_start(git: Git, parts: list[str], names: dict[str, str], tag: bool) -> tuple[str, str] | None:
    """``(commit, rest of the path)`` for the shortest leading run of ``parts`` that is a name in ``names``."""
    for end in range(1, len(parts) + 1):
        name = "/".join(parts[:end])
        if name in names:
            commit = git.rev_parse(f"refs/tags/{name}") if tag else names[name]
            if commit is not None:
                return commit, "/".join(parts[end:])
    return None


def _locate(repo: Repo, filepath: str, ref: str | None) -> tuple[str, str]:
    """``(commit, path)`` of a raw request: ``ref`` when given (404 when it names nothing), else the path's
    leading segments as a branch, then a tag, then a full commit SHA, else the default branch, as Gitea's
    ``RepoRefForAPI`` infers them (the shortest matching name wins)."""
    git = repo.git
    if ref:
        found = git.resolve_ref(ref)
        if found is None:
            raise GitDataNotFound()
        return found[1], filepath
    parts = filepath.split("/")
    for names, tag in ((git.branches(), False), (git.tags(), True)):
        located = _ref_at_start(git, parts, names, tag)
        if located is not None:
            return located
    if len(parts) > 1 and _COMMIT_ID.match(parts[0]):
        commit = git.rev_parse(parts[0].lower())
        if commit is not None:
            return commit, "/".join(parts[1:])
    commit = git.rev_parse(f"refs/heads/{repo.default_branch}")
    if commit is None:
        raise GitDataNotFound()
    return commit, filepath


def resolve_raw(repo: Repo, filepath: str, ref: str | None) -> RawFile:
    """The file a raw request names; 404 for an empty repository, an unknown ref or path, a directory or a
    submodule (Gitea serves files and symbolic links only)."""
    commit, path = _locate(repo, filepath, ref)
    clean = path.strip("/")
    if not clean or any(part in ("", ".", "..") for part in clean.split("/")):
        raise GitDataNotFound()
    entry = repo.git.stat(commit, clean)
    if entry is None or entry.type != "blob":
        raise GitDataNotFound()
    return RawFile(commit, entry)


def editorconfig_text(repo: Repo, ref: str | None) -> str:
    """The root ``.editorconfig`` at ``ref`` (the default branch when None); 404 when the ref or the file is
    missing (Gitea's ``GetEditorconfig`` reads only the root one)."""
    found = repo.git.resolve_ref(ref or repo.default_branch)
    content = repo.git.read_blob(found[1], ".editorconfig") if found is not None else None
    if content is None:
        raise GitDataNotFound()
    return content.decode("utf-8", "replace")


def commit_diff(git: Git, sha: str, diff_type: str) -> Iterator[bytes]:
    """A commit as ``git diff`` against its first parent (``git show`` for a root commit) or as a
    ``format-patch`` mail, as Gitea's ``GetRawDiff``; 404 when ``sha`` names no commit."""
    commit = git.rev_parse(sha) if not _unsafe(sha) else None
    if commit is None:
        raise GitDataNotFound(f"commit doesn't exist: {sha}")
    parents = git.commit_info(commit).parents
    if diff_type == "diff":
        args = ["diff", "--no-color", "-M", parents[0], commit] if parents else ["show", "--no-color", commit]
    elif parents:
        args = ["format-patch", "--no-signature", "--stdout", "--no-color", f"{commit}...{parents[0]}"]
    else:
        args = ["format-patch", "--no-signature", "--stdout", "--no-color", "--root", commit]
    return primed(git.stream(*args))


def primed(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """``chunks`` with its first chunk already read, so a git failure before any output is raised here (a
    proper error answer) and not after the response's status has gone out."""
    first = next(chunks, b"")

    def replay() -> Iterator[bytes]:
        try:
            if first:
                yield first
            yield from chunks
        finally:  # a client gone mid-answer ends the git process now, not at garbage collection
            close = getattr(chunks, "close", None)
            if close is not None:
                close()

    return replay()
