"""Batch Git plumbing for the contents API: read many entries and blobs with a fixed number of processes
(never one per file), apply patches without a work tree (new trees of file changes: ``Git.write_commit``).

These work on a :class:`~reference_server.gitcli.Git` through its ``run`` method, so every call keeps the
fixed environment of :mod:`reference_server.gitcli`.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from .. import gitcache, gitloose
from ..gitcli import SHA_PATTERN, CommitInfo, Git, GitError, Identity, TreeEntry, _environment, tree_entries

__all__ = [
    "apply_patch_tree",
    "entries_at",
    "last_commits_for_paths",
    "read_commits",
    "read_objects",
]

REGULAR = "100644"
EXECUTABLE = "100755"


def apply_patch_tree(git: Git, parent: str | None, patch: bytes) -> str:
    """The tree of ``parent`` with a unified diff applied by ``git apply --cached`` on a temporary index;
    :class:`GitError` carrying git's explanation when it does not apply."""
    with git.temporary_index(parent) as env:
        git.run("apply", "--cached", "--whitespace=nowarn", "-", input_bytes=patch, env=env)
        return git.run("write-tree", env=env).stdout.decode().strip()


def entries_at(git: Git, rev: str, paths: Sequence[str]) -> dict[str, TreeEntry]:
    """The entry at each path in ``rev`` with ONE ``ls-tree`` (none when the objects are loose); paths that name
    nothing are left out."""
    wanted = [path for path in dict.fromkeys(paths) if path]
    if not wanted:
        return {}
    loose = _loose_entries_at(git, rev, wanted)
    if loose is not None:
        return loose
    completed = git.run(
        "--literal-pathspecs", "ls-tree", "-t", "-l", "-z", "--full-tree", rev, "--", *wanted, check=False
    )
    if completed.returncode != 0:
        return {}
    found = {entry.path: entry for entry in tree_entries(completed.stdout)}
    return {path: found[path] for path in wanted if path in found}


def _loose_entries_at(git: Git, rev: str, wanted: Sequence[str]) -> dict[str, TreeEntry] | None:
    """:func:`entries_at` from loose objects (:mod:`reference_server.gitloose`), each folder listed once; None
    when git must answer (an object not loose, a path that is not plain ``a/b/c``)."""
    listings: dict[str, list[gitloose.LooseEntry] | None] = {}
    found: dict[str, TreeEntry] = {}
    for path in wanted:
        if any(part in ("", ".", "..") for part in path.split("/")):
            return None
        folder, _, name = path.rpartition("/")
        if folder not in listings:
            listings[folder] = gitloose.folder_entries(git.path, rev, folder)
        listed = listings[folder]
        if listed is None:
            return None
        entry = next((entry for entry in listed if entry.name == name), None)
        if entry is not None:
            found[path] = TreeEntry(name, path, entry.type, entry.mode, entry.sha, entry.size or 0)
    return found


def read_objects(git: Git, shas: Sequence[str]) -> dict[str, bytes]:
    """The raw content of every object named, through ONE ``cat-file --batch``; missing ones are left out."""
    unique = [sha for sha in dict.fromkeys(shas) if SHA_PATTERN.match(sha)]
    if not unique:
        return {}
    out = git.run("cat-file", "--batch", input_bytes="".join(f"{sha}\n" for sha in unique).encode()).stdout
    objects: dict[str, bytes] = {}
    position = 0
    for sha in unique:
        end = out.index(b"\n", position)
        fields = out[position:end].decode().split(" ")
        position = end + 1
        if len(fields) != 3 or fields[1] == "missing":
            continue
        size = int(fields[2])
        objects[sha] = out[position : position + size]
        position += size + 1
    return objects


def last_commits_for_paths(git: Git, tip: str, paths: Sequence[str]) -> dict[str, str]:
    """The newest commit reachable from the commit ``tip`` that touched each path, found in ONE history
    walk that stops once every path has its commit; the root path (``""``) maps to ``tip``."""
    result = {"": tip} if "" in paths else {}
    pending = {path for path in paths if path}
    if not pending:
        return result
    command = [
        "git",
        f"--git-dir={git.path}",
        "--literal-pathspecs",
        "log",
        "--format=%x01%H",
        "--name-only",
        "-z",
        "--no-renames",
        tip,
        "--",
        *sorted(pending),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_environment())
    stream = process.stdout
    if stream is None:  # pragma: no cover - stdout=PIPE always gives a stream
        raise GitError(["log"], -1, "no output stream")
    try:
        commit = ""
        buffer = b""
        while pending:
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            *records, buffer = buffer.split(b"\x00")
            for record in records:
                for line in record.split(b"\n"):
                    if line.startswith(b"\x01"):
                        commit = line[1:].decode()
                    elif line and commit:
                        _settle(line.decode("utf-8", "surrogateescape"), commit, pending, result)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        stream.close()
    return result


def _settle(name: str, commit: str, pending: set[str], result: dict[str, str]) -> None:
    """Give ``commit`` to every pending path that ``name`` (a changed file) is or lies under."""
    for path in [path for path in pending if name == path or name.startswith(path + "/")]:
        result[path] = commit
        pending.discard(path)


def _identity(value: str) -> Identity:
    """``Name <email> 1700000000 +0000`` from a commit header."""
    name, _, rest = value.partition(" <")
    email, _, when = rest.partition("> ")
    seconds = when.split(" ", 1)[0]
    return Identity(name, email, int(seconds) if seconds.lstrip("-").isdigit() else 0)


def read_commits(git: Git, shas: Sequence[str]) -> dict[str, CommitInfo]:
    """Parsed commit objects for every SHA, read through ONE ``cat-file --batch`` (non-commits left out);
    commits the server already knows (:mod:`..gitcache`) are not read again."""
    commits: dict[str, CommitInfo] = {}
    unknown = []
    for sha in shas:
        known = gitcache.recall(git.path, sha) if SHA_PATTERN.match(sha) else None
        if known is not None:
            commits[sha] = known
        else:
            unknown.append(sha)
    for sha, raw in read_objects(git, unknown).items():
        header, _, body = raw.decode("utf-8", "replace").partition("\n\n")
        fields: dict[str, list[str]] = {}
        for line in header.split("\n"):
            if line.startswith(" ") or " " not in line:
                continue
            key, _, value = line.partition(" ")
            fields.setdefault(key, []).append(value)
        if "tree" not in fields or "author" not in fields or "committer" not in fields:
            continue
        commits[sha] = CommitInfo(
            sha=sha,
            tree=fields["tree"][0],
            parents=tuple(fields.get("parent", [])),
            author=_identity(fields["author"][0]),
            committer=_identity(fields["committer"][0]),
            message=body.rstrip("\n") + "\n" if body.strip() else "",
        )
    return commits
