"""A brand-new bare repository and its first commit, written by the server itself instead of by ``git``.

Creating a repository is the commonest write of a forge under test (nearly every scenario makes one),
and ``git init`` plus a first commit cost three git processes (``init``, ``fast-import``,
``update-ref``), most of their time git starting. What they write is small and documented: the layout of
a bare repository (gitrepository-layout: ``HEAD``, ``config``, ``objects/``, ``refs/``), loose objects
(``<type> <size>\\0<content>`` deflated, named by its SHA-1, in ``objects/<2 hex>/<38 hex>``) and a loose
ref (the commit's name and a newline). Only a repository nobody else can see yet gets its layout and first
commit this way (the creation's scratch directory, renamed into place afterwards); git reads these files as
its own (``tests/test_gitobjects.py`` has ``git fsck`` say so). :func:`write_object` and
:func:`tree_content` also serve :mod:`reference_server.gitloose`, which writes later commits into live
repositories.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "FirstCommit",
    "init_bare",
    "object_path",
    "object_sha",
    "tree_content",
    "write_first_commit",
    "write_object",
]

_CONFIG = b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"
_FILE_MODE = b"100644"
_TREE_MODE = b"40000"


@dataclass(frozen=True)
class FirstCommit:
    """The SHAs of the commit written and of its root tree."""

    commit: str
    tree: str


def init_bare(path: Path, default_branch: str) -> None:
    """What ``git init --bare --template= --initial-branch=<branch>`` makes: HEAD on the unborn branch, the
    core settings of a bare repository, and the empty object and ref folders. Like git, it leaves an
    existing repository's HEAD and settings as they are."""
    for folder in ("objects/info", "objects/pack", "refs/heads", "refs/tags"):
        (path / folder).mkdir(parents=True, exist_ok=True)
    _create(path / "config", _CONFIG)
    _create(path / "HEAD", f"ref: refs/heads/{default_branch}\n".encode())


def _create(target: Path, content: bytes, mode: int = 0o644) -> None:
    """Write a new file; one that exists already is kept (another writer got there first)."""
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        return
    with os.fdopen(descriptor, "wb") as stream:
        stream.write(content)


def write_first_commit(
    path: Path, branch: str, files: Mapping[str, bytes], header: bytes, message: bytes
) -> FirstCommit:
    """Write ``files`` (path → content, regular files), their trees and a parentless commit into the new
    repository at ``path``, and point ``refs/heads/<branch>`` at it.

    ``header`` is the commit's ``author`` and ``committer`` lines, as ``fast-import`` would be given them.
    """
    tree = _write_tree(path, _nest(files))
    commit = write_object(path, b"commit", b"tree " + tree.encode() + b"\n" + header + b"\n" + message)
    ref = path / "refs" / "heads" / branch
    ref.parent.mkdir(parents=True, exist_ok=True)
    ref.write_bytes(commit.encode() + b"\n")
    return FirstCommit(commit=commit, tree=tree)


_Tree = dict[str, "bytes | _Tree"]


def _nest(files: Mapping[str, bytes]) -> _Tree:
    """``a/b.txt`` → ``{"a": {"b.txt": ...}}``; empty segments (a leading, doubled or trailing slash) are
    dropped as git drops them."""
    root: _Tree = {}
    for name, content in files.items():
        parts = [part for part in name.split("/") if part]
        if not parts:
            raise ValueError(f"not a file name: {name!r}")
        *folders, leaf = parts
        level = root
        for folder in folders:
            nested = level.setdefault(folder, {})
            if not isinstance(nested, dict):
                raise ValueError(f"a file and a directory at the same path: {folder}")
            level = nested
        if isinstance(level.get(leaf), dict):
            raise ValueError(f"a file and a directory at the same path: {leaf}")
        level[leaf] = content
    return root


def _write_tree(path: Path, tree: _Tree) -> str:
    records = []
    for name, entry in tree.items():
        if isinstance(entry, dict):
            mode, sha = _TREE_MODE, _write_tree(path, entry)
        else:
            mode, sha = _FILE_MODE, write_object(path, b"blob", entry)
        records.append((mode, name.encode("utf-8", "surrogateescape"), sha))
    return write_object(path, b"tree", tree_content(records))


def tree_content(records: Iterable[tuple[bytes, bytes, str]]) -> bytes:
    """A tree object's content from ``(mode, name, sha)`` records, in git's order: by name, a subtree's name as
    if it ended with ``/``."""
    ordered = sorted(records, key=lambda record: record[1] + b"/" if record[0] == _TREE_MODE else record[1])
    return b"".join(mode + b" " + name + b"\x00" + bytes.fromhex(sha) for mode, name, sha in ordered)


def _raw_object(kind: bytes, content: bytes) -> bytes:
    return kind + b" " + str(len(content)).encode() + b"\x00" + content


def object_sha(kind: bytes, content: bytes) -> str:
    """The SHA-1 git names an object of ``kind`` (``blob``, ``tree``, ``commit``) and ``content`` by."""
    return hashlib.sha1(_raw_object(kind, content), usedforsecurity=False).hexdigest()


def object_path(path: Path, sha: str) -> Path:
    """Where the repository at ``path`` keeps the loose object ``sha``."""
    return path / "objects" / sha[:2] / sha[2:]


def write_object(path: Path, kind: bytes, content: bytes) -> str:
    """Store one loose object (read-only, as git leaves it) and return its SHA-1. It is written to a temporary
    file beside its name and linked there, as git does, so a reader of a live repository never sees part of
    one; an object that exists already is kept (the same content twice is one object)."""
    raw = _raw_object(kind, content)
    sha = hashlib.sha1(raw, usedforsecurity=False).hexdigest()
    target = object_path(path, sha)
    if target.exists():
        return sha
    target.parent.mkdir(exist_ok=True)
    descriptor, name = tempfile.mkstemp(prefix="tmp_obj_", dir=target.parent)
    temporary = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(zlib.compress(raw))
        temporary.chmod(0o444)
        with contextlib.suppress(FileExistsError):  # the same object, written by another writer meanwhile
            os.link(temporary, target)
    finally:
        temporary.unlink()
    return sha
