"""A folder's entries read from, and a commit's new objects written as, loose objects, without a ``git`` process.

Listing a folder of a commit (the root for license detection and the contents API, a folder for
browsing) is among the commonest reads of a forge, and each ``git ls-tree`` costs a process. Most objects
of the repositories a forge under test holds are loose: the server writes a new repository's first commit
itself (:mod:`reference_server.gitobjects`), and git unpacks what a small ``fast-import`` or push brings
(fewer than ``fastimport.unpackLimit`` and ``receive.unpackLimit`` objects, 100 by default) into loose
files. A loose object is documented and simple (gitrepository-layout: ``objects/<2 hex>/<38 hex>``,
deflated ``<type> <size>\\0<content>``; a tree's content is ``<mode> <name>\\0<20-byte id>`` records).

A commit of the contents API (a parent's tree with some paths set or deleted) is written the way
``git fast-import`` writes it (:func:`write_commit`; the tests compare the names of both): deletions first,
a folder emptied by a deletion removed with it, a file set below a file replacing that file with a folder.
Objects are stored by :func:`gitobjects.write_object` (a temporary file linked into place, so a reader never
sees part of one).

Whenever the answer could differ from git's, the functions answer None and the caller asks git: an object
that is not loose (packed, or in an alternate), a tag where a commit is named, a repository with
replacement refs (which git honours when reading) or another object format.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import gitobjects, gitrefs

__all__ = ["LooseEntry", "folder_entries", "write_commit"]

_SHA = re.compile(r"^[0-9a-f]{40}$")
_HEADER_BYTES = 32
"""Enough inflated bytes for an object's ``<type> <size>\\0`` header."""
_HEADER_READ = 512
"""Deflated bytes read to inflate that header (a stored, incompressible block costs a few bytes more)."""
_TREE = b"40000"
_KINDS = {_TREE: ("tree", "040000"), b"160000": ("commit", "160000")}
"""A tree record's mode, and the type and mode ``ls-tree`` shows for it (anything else is a blob)."""


@dataclass(frozen=True)
class LooseEntry:
    """One entry of a folder as ``git ls-tree -l`` shows it: ``size`` is None for a tree or a submodule."""

    name: str
    type: str
    mode: str
    sha: str
    size: int | None


def folder_entries(repository: Path, commit: str, folder: str) -> list[LooseEntry] | None:
    """The entries of ``folder`` ("" for the root, no surrounding slashes) in ``commit`` (a full SHA), in the
    tree's order; an empty list when the path is missing or not a folder (as git's listing is empty); None
    when git must be asked."""
    if not _SHA.match(commit) or not _plain(repository):
        return None
    found = _read(repository, commit)
    if found is None or found[0] != b"commit" or not found[1].startswith(b"tree "):
        return None
    tree = found[1][5:45].decode("ascii")
    for part in folder.split("/") if folder else []:
        records = _tree(repository, tree)
        if records is None:
            return None
        entry = next((record for record in records if record[1] == part.encode("utf-8", "surrogateescape")), None)
        if entry is None or entry[0] != b"40000":
            return []
        tree = entry[2]
    records = _tree(repository, tree)
    if records is None:
        return None
    entries: list[LooseEntry] = []
    for mode, name, sha in records:
        kind, shown_mode = _KINDS.get(mode, ("blob", mode.decode("ascii")))
        size: int | None = None
        if kind == "blob":
            header = _header(repository, sha)
            if header is None or header[0] != b"blob":
                return None
            size = header[1]
        entries.append(LooseEntry(name.decode("utf-8", "surrogateescape"), kind, shown_mode, sha, size))
    return entries


def _plain(repository: Path) -> bool:
    """A SHA-1 repository without replacement refs (git would read the replacements instead)."""
    try:
        config = (repository / "config").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return False
    return "objectformat" not in config and gitrefs.read_refs(repository, "refs/replace/") == {}


def _read(repository: Path, sha: str) -> tuple[bytes, bytes] | None:
    """``(type, content)`` of a loose object, or None when it is not loose or not whole."""
    try:
        raw = zlib.decompress(gitobjects.object_path(repository, sha).read_bytes())
    except (OSError, zlib.error):
        return None
    header, sep, content = raw.partition(b"\x00")
    kind, _, size = header.partition(b" ")
    if not sep or not size.isdigit() or int(size) != len(content):
        return None
    return kind, content


def _header(repository: Path, sha: str) -> tuple[bytes, int] | None:
    """``(type, size)`` of a loose object, reading and inflating only its first bytes."""
    try:
        with gitobjects.object_path(repository, sha).open("rb") as stream:
            start = zlib.decompressobj().decompress(stream.read(_HEADER_READ), _HEADER_BYTES)
    except (OSError, zlib.error):
        return None
    header, sep, _ = start.partition(b"\x00")
    kind, _, size = header.partition(b" ")
    return (kind, int(size)) if sep and size.isdigit() else None


def _tree(repository: Path, sha: str) -> list[tuple[bytes, bytes, str]] | None:
    """The ``(mode, name, sha)`` records of a loose tree."""
    found = _read(repository, sha)
    if found is None or found[0] != b"tree":
        return None
    content, records, position = found[1], [], 0
    while position < len(content):
        space = content.find(b" ", position)
        nul = content.find(b"\x00", space)
        if space < 0 or nul < 0 or nul + 21 > len(content):
            return None
        records.append((content[position:space], content[space + 1 : nul], content[nul + 1 : nul + 21].hex()))
        position = nul + 21
    return records


_WRITABLE_MODES = frozenset({"100644", "100755", "120000", "160000"})


@dataclass
class _Folder:
    """A tree being changed: each name maps to ``(mode, sha)`` as stored or to a folder loaded to change it."""

    entries: dict[bytes, tuple[bytes, str] | _Folder] = field(default_factory=dict)


def write_commit(
    repository: Path,
    parent: str | None,
    changes: Mapping[str, tuple[str, bytes | str] | None],
    header: bytes,
    message: bytes,
) -> tuple[str, str] | None:
    """``(commit, tree)`` written for ``parent``'s tree with ``changes`` (a path to None, deleted, or to
    ``(mode, content)``, the content as bytes or the SHA of a stored blob), as ``fast-import`` would write them;
    ``header`` is the ``author`` and ``committer`` lines. None when git must do it (a blob stored before that
    was found stays unreferenced, as after an import that failed, until git's garbage collection)."""
    if not _plain(repository) or not all(_writable(path, entry) for path, entry in changes.items()):
        return None
    root = _Folder()
    if parent is not None:
        found = _read(repository, parent) if _SHA.match(parent) else None
        if found is None or found[0] != b"commit" or not found[1].startswith(b"tree "):
            return None
        loaded = _load(repository, found[1][5:45].decode("ascii"))
        if loaded is None:
            return None
        root = loaded
    for path, entry in sorted(changes.items(), key=lambda item: item[1] is not None):  # fast-import's order
        parts = [part.encode("utf-8", "surrogateescape") for part in path.split("/")]
        if entry is None:
            applied = _remove(repository, root, parts)
        else:
            mode, content = entry
            if isinstance(content, str) and (_header(repository, content) or (b"",))[0] != b"blob":
                return None  # fast-import refuses a blob it cannot find: git says so
            sha = gitobjects.write_object(repository, b"blob", content) if isinstance(content, bytes) else content
            applied = _set(repository, root, parts, (mode.encode(), sha))
        if not applied:
            return None
    tree = _store_folder(repository, root)
    parents = f"parent {parent}\n".encode() if parent else b""
    commit = gitobjects.write_object(
        repository, b"commit", f"tree {tree}\n".encode() + parents + header + b"\n" + message
    )
    return commit, tree


def _writable(path: str, entry: tuple[str, bytes | str] | None) -> bool:
    """A plain ``a/b/c`` path, and a mode and stored blob name this writer takes as fast-import does."""
    if any(part in ("", ".", "..") for part in path.split("/")):
        return False
    if entry is None:
        return True
    mode, content = entry
    return mode in _WRITABLE_MODES and (isinstance(content, bytes) or _SHA.match(content) is not None)


def _load(repository: Path, sha: str) -> _Folder | None:
    records = _tree(repository, sha)
    if records is None:
        return None
    return _Folder({name: (mode, entry_sha) for mode, name, entry_sha in records})


def _child(repository: Path, folder: _Folder, name: bytes) -> _Folder | bool | None:
    """The folder ``name`` of ``folder``, loaded to be changed; False when it is not a folder; None when it
    cannot be read."""
    entry = folder.entries.get(name)
    if isinstance(entry, _Folder):
        return entry
    if entry is None or entry[0] != _TREE:
        return False
    loaded = _load(repository, entry[1])
    if loaded is not None:
        folder.entries[name] = loaded
    return loaded


def _remove(repository: Path, folder: _Folder, parts: list[bytes]) -> bool:
    """Delete the path (a file, or a folder and all it holds); a folder left empty goes too. False when an
    object on the way cannot be read."""
    name, rest = parts[0], parts[1:]
    if not rest:
        folder.entries.pop(name, None)
        return True
    child = _child(repository, folder, name)
    if child is None:
        return False
    if child is False:
        return True  # a file stands where a folder would be: the path does not exist
    assert isinstance(child, _Folder)
    if not _remove(repository, child, rest):
        return False
    if not child.entries:
        del folder.entries[name]
    return True


def _set(repository: Path, folder: _Folder, parts: list[bytes], entry: tuple[bytes, str]) -> bool:
    """Point the path at ``entry``; missing folders are made, and a file where a folder must be is replaced."""
    name, rest = parts[0], parts[1:]
    if not rest:
        folder.entries[name] = entry
        return True
    child = _child(repository, folder, name)
    if child is None:
        return False
    if child is False:
        child = folder.entries[name] = _Folder()
    assert isinstance(child, _Folder)
    return _set(repository, child, rest, entry)


def _store_folder(repository: Path, folder: _Folder) -> str:
    """Write the changed folders, deepest first."""
    records: list[tuple[bytes, bytes, str]] = []
    for name, entry in folder.entries.items():
        if isinstance(entry, _Folder):
            records.append((_TREE, name, _store_folder(repository, entry)))
        else:
            records.append((entry[0], name, entry[1]))
    return gitobjects.write_object(repository, b"tree", gitobjects.tree_content(records))
