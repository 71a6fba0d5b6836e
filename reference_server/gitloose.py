"""A directory's entries read from a repository's loose objects, without starting a ``git`` process.

Listing a folder of a commit (the root for license detection and the contents API, a folder for
browsing) is among the commonest reads of a forge, and each ``git ls-tree`` costs a process. Most objects
of the repositories a forge under test holds are loose: the server writes a new repository's first commit
itself (:mod:`reference_server.gitobjects`), and git unpacks what a small ``fast-import`` or push brings
(fewer than ``fastimport.unpackLimit`` and ``receive.unpackLimit`` objects, 100 by default) into loose
files. A loose object is documented and simple (gitrepository-layout: ``objects/<2 hex>/<38 hex>``,
deflated ``<type> <size>\\0<content>``; a tree's content is ``<mode> <name>\\0<20-byte id>`` records).

Whenever the answer could differ from git's, the functions answer None and the caller asks git: an object
that is not loose (packed, or in an alternate), a tag where a commit is named, a repository with
replacement refs (which git honours when reading) or another object format.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from . import gitrefs

__all__ = ["LooseEntry", "folder_entries"]

_SHA = re.compile(r"^[0-9a-f]{40}$")
_HEADER_BYTES = 32
"""Enough inflated bytes for an object's ``<type> <size>\\0`` header."""
_HEADER_READ = 512
"""Deflated bytes read to inflate that header (a stored, incompressible block costs a few bytes more)."""
_KINDS = {b"40000": ("tree", "040000"), b"160000": ("commit", "160000")}
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


def _path(repository: Path, sha: str) -> Path:
    return repository / "objects" / sha[:2] / sha[2:]


def _read(repository: Path, sha: str) -> tuple[bytes, bytes] | None:
    """``(type, content)`` of a loose object, or None when it is not loose or not whole."""
    try:
        raw = zlib.decompress(_path(repository, sha).read_bytes())
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
        with _path(repository, sha).open("rb") as stream:
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
