"""Branch and tag tips read from a repository's ref files, without starting a ``git`` process.

Almost every answer about a repository needs its branch tips (is it empty, where is the default
branch), and asking ``git for-each-ref`` or ``git rev-parse`` costs a process each time. Git's
default ``files`` ref store is documented and simple: a loose ref is a file under ``refs/`` holding
the object name, written atomically (a ``.lock`` file renamed into place); ``packed-refs`` holds the
rest, one ``<sha> <name>`` line each, with ``^<sha>`` lines for peeled tags. Loose files are read
first, then ``packed-refs``, so a concurrent ``git pack-refs`` (which writes the packed file before
pruning the loose ones) never hides a ref. Whenever the store is not that plain shape (a reftable
repository, a symbolic or unreadable ref), the functions answer None and the caller asks git.

Moving one ref follows git's own protocol: the ``<ref>.lock`` file is created exclusively, the ref is
compared with the value expected while the lock is held, and the lock is renamed over the ref. Whatever
git would do more (a reflog to append, a lock held by someone else, a file where a folder must be) is
left to git.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["read_ref", "read_refs", "swap_ref"]

_SHA = re.compile(rb"^[0-9a-f]{40}$")
ZERO = "0" * 40
# Characters a ref name cannot hold (git check-ref-format) but a revision can (``main~1``, ``main@{1}``).
_REVISION_SYNTAX = re.compile(r"[~^:?*\[\\\s\x00-\x1f\x7f]|@\{|\.\.|//|/\.")


def read_refs(repository: Path, prefix: str) -> dict[str, str] | None:
    """Every ref under ``prefix`` (``refs/heads/``, ``refs/tags/``) by its name after the prefix, sorted as git
    sorts them, with the object it names; None when git must be asked instead."""
    if not prefix.startswith("refs/") or not prefix.endswith("/") or (repository / "reftable").exists():
        return None
    if not (repository / "HEAD").is_file():
        return None  # not a repository (any more): git says so
    found: dict[str, str] = {}
    folder = repository / prefix
    for directory, _folders, files in os.walk(folder):
        for name in files:
            if name.endswith(".lock"):
                continue
            sha = _loose(Path(directory, name))
            if sha is None:
                return None
            found[Path(directory, name).relative_to(folder).as_posix()] = sha
    packed = _packed(repository)
    if packed is None:
        return None
    for name, sha in packed.items():
        if name.startswith(prefix):
            found.setdefault(name[len(prefix) :], sha)
    return dict(sorted(found.items(), key=lambda item: item[0].encode("utf-8", "surrogateescape")))


def read_ref(repository: Path, name: str) -> tuple[bool, str | None]:
    """``(known, sha)`` for the full ref ``name``: ``sha`` is None when the ref does not exist; ``known`` is
    False when git must be asked instead."""
    if not name.startswith("refs/") or name.endswith(("/", ".lock")) or _REVISION_SYNTAX.search(name):
        return False, None
    if (repository / "reftable").exists():
        return False, None
    loose = repository / name
    try:
        if loose.is_file():
            sha = _loose(loose)
            return (sha is not None), sha
        if loose.exists():
            return False, None  # a directory of refs, not a ref
    except OSError:
        return False, None
    packed = _packed(repository)
    if packed is None:
        return False, None
    return True, packed.get(name)


def _loose(path: Path) -> str | None:
    try:
        content = path.read_bytes().strip()
    except OSError:
        return None
    return content.decode() if _SHA.match(content) else None


def _packed(repository: Path) -> dict[str, str] | None:
    try:
        lines = (repository / "packed-refs").read_bytes().splitlines()
    except FileNotFoundError:
        return {}
    except OSError:
        return None
    refs: dict[str, str] = {}
    for line in lines:
        if not line or line.startswith((b"#", b"^")):
            continue
        sha, _, name = line.partition(b" ")
        if not _SHA.match(sha) or not name:
            return None
        refs[name.decode("utf-8", "surrogateescape")] = sha.decode()
    return refs


def swap_ref(repository: Path, name: str, new: str, old: str) -> bool | None:
    """Move the branch or other ref ``name`` to ``new`` if it is at ``old`` (40 zeros: if it does not exist).

    True when moved, False when the ref is somewhere else (nothing written), None when git must do it.
    """
    if not _SHA.match(new.encode()) or not _SHA.match(old.encode()) or new == ZERO:
        return None
    if _keeps_reflog(repository, name):
        return None
    if not read_ref(repository, name)[0]:
        return None
    target = repository / name
    lock = target.with_name(target.name + ".lock")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return None  # a file where a folder of refs must be, or a lock someone else holds: git reports it
    renamed = False
    try:
        with os.fdopen(descriptor, "wb") as handle:
            known, current = read_ref(repository, name)  # read under the lock: nobody else can move it now
            if not known:
                return None
            if (current or ZERO) != old:
                return False
            handle.write(new.encode() + b"\n")
        lock.replace(target)
        renamed = True
        return True
    finally:
        if not renamed:  # once renamed, a lock at that path is another writer's
            lock.unlink(missing_ok=True)


def _keeps_reflog(repository: Path, name: str) -> bool:
    """Whether git would log this update: its log exists, or the repository asks for logs."""
    if (repository / "logs" / name).exists():
        return True
    try:
        config = (repository / "config").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return True
    return "logallrefupdates" in config
