"""The one place that runs ``git``: bare repositories driven by plumbing commands, never a work tree.

Every call gets a fixed environment (no system or user configuration, no terminal prompt, the C
locale) so results do not depend on the machine, and every failure becomes a :class:`GitError`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from . import gitcache, gitloose, gitobjects, gitrefs

__all__ = [
    "ZERO_SHA",
    "BackendProcess",
    "ChangedPath",
    "CommitInfo",
    "Git",
    "GitError",
    "Identity",
    "PathConflictError",
    "RefUpdateRejectedError",
    "TreeEntry",
    "http_backend",
    "tree_entries",
    "valid_branch_name",
]

ZERO_SHA = "0" * 40
SHA_PATTERN = re.compile(r"^[0-9a-f]{40}$")
REG_FILE_MODE = "100644"
_BRANCH_FORBIDDEN = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]")


class GitError(Exception):
    """A ``git`` command failed; carries the command, its exit status and what it printed on stderr."""

    def __init__(self, args: Sequence[str], returncode: int, stderr: str) -> None:
        self.command = list(args)
        self.returncode = returncode
        self.stderr = stderr.strip()
        super().__init__(f"git {' '.join(self.command)} exited with {returncode}: {self.stderr}")


class RefUpdateRejectedError(GitError):
    """``update-ref`` refused because the ref no longer had the expected old value (a concurrent change)."""


class PathConflictError(GitError):
    """A tree to write would hold a file and a directory at the same path (refused before Git runs)."""


@dataclass(frozen=True)
class TreeEntry:
    """One entry of a tree: ``type`` is ``blob``, ``tree`` or ``commit`` (a submodule); ``size`` is 0 for trees."""

    name: str
    path: str
    type: str
    mode: str
    sha: str
    size: int


@dataclass(frozen=True)
class ChangedPath:
    """One file changed between two commits: ``status`` is git's letter (A, M, D, R, C, T)."""

    status: str
    path: str
    old_path: str
    additions: int
    deletions: int
    binary: bool


@dataclass(frozen=True)
class Identity:
    """Author or committer of a commit, with its time as Unix seconds."""

    name: str
    email: str
    time: int


@dataclass(frozen=True)
class CommitInfo:
    """What a commit says about itself."""

    sha: str
    tree: str
    parents: tuple[str, ...]
    author: Identity
    committer: Identity
    message: str

    @property
    def author_name(self) -> str:
        return self.author.name

    @property
    def author_email(self) -> str:
        return self.author.email

    @property
    def author_time(self) -> int:
        return self.author.time

    @property
    def committer_name(self) -> str:
        return self.committer.name

    @property
    def committer_email(self) -> str:
        return self.committer.email

    @property
    def committer_time(self) -> int:
        return self.committer.time


def valid_branch_name(name: str) -> bool:
    """Whether ``name`` is acceptable as a branch (the rules of ``git check-ref-format --branch``)."""
    if not name or name.startswith(("-", "/")) or name.endswith(("/", ".", ".lock")) or name == "@":
        return False
    if ".." in name or "@{" in name or "//" in name or _BRANCH_FORBIDDEN.search(name):
        return False
    return all(part and not part.startswith(".") and not part.endswith(".lock") for part in name.split("/"))


def _environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ATTR_NOSYSTEM": "1",
        "LC_ALL": "C",
        "LANG": "C",
    }
    if extra:
        env.update(extra)
    return env


class Git:
    """A bare repository at ``path``, driven with the ``git`` CLI."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    # -- running ---------------------------------------------------------------------------------

    def run(
        self,
        *args: str,
        input_bytes: bytes | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git --git-dir=<path> <args>``; a non-zero exit raises :class:`GitError` when ``check``."""
        command = ["git", f"--git-dir={self.path}", *args]
        completed = subprocess.run(
            command,
            input=input_bytes,
            capture_output=True,
            env=_environment(env),
            check=False,
        )
        if check and completed.returncode != 0:
            raise GitError(args, completed.returncode, completed.stderr.decode("utf-8", "replace"))
        return completed

    def stream(self, *args: str, chunk: int = 65536) -> Generator[bytes, None, None]:
        """Run ``git --git-dir=<path> <args>`` and yield its standard output in chunks as it comes, so an
        answer as large as an archive is never held in memory; a failure before any output raises
        :class:`GitError` at the first ``next``, and the process is ended when the consumer stops early."""
        command = ["git", f"--git-dir={self.path}", *args]
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment()
        )
        assert process.stdout is not None and process.stderr is not None
        produced = False
        try:
            while data := process.stdout.read(chunk):
                produced = True
                yield data
            stderr = process.stderr.read()
            if process.wait() != 0 and not produced:
                raise GitError(args, process.returncode, stderr.decode("utf-8", "replace"))
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
            process.stderr.close()

    def _text(self, *args: str, env: Mapping[str, str] | None = None, input_bytes: bytes | None = None) -> str:
        return self.run(*args, env=env, input_bytes=input_bytes).stdout.decode("utf-8", "replace").strip()

    # -- repository ------------------------------------------------------------------------------

    def init_bare(self, default_branch: str) -> None:
        """Create the bare repository with HEAD on ``default_branch`` (which has no commit yet).

        Written without git (:mod:`.gitobjects`) and without a template: the sample hooks, ``description``
        and ``info/exclude`` a template copies are never used here (hooks are passed per command), and
        every file costs its creation now and its removal when the repository is deleted.
        """
        gitobjects.init_bare(self.path, default_branch)

    def write_first_commit(
        self, branch: str, files: Mapping[str, bytes], message: str, *, author: Identity, committer: Identity
    ) -> str:
        """The first commit of a repository just made by :meth:`init_bare` and not yet visible to anyone
        (a creation's scratch directory, renamed afterwards, so nothing is remembered in :mod:`.gitcache`
        under this path): ``files`` (regular files) on ``branch``, written without git."""
        header = _ident_line("author", author) + _ident_line("committer", committer)
        written = gitobjects.write_first_commit(self.path, branch, files, header, message.encode("utf-8"))
        return written.commit

    def set_head(self, branch: str) -> None:
        """Point HEAD at ``refs/heads/<branch>`` (the default branch)."""
        self.run("symbolic-ref", "HEAD", f"refs/heads/{branch}")

    def remove(self) -> None:
        """Delete the repository directory and everything in it."""
        gitcache.forget(self.path)
        shutil.rmtree(self.path, ignore_errors=True)

    def is_empty(self) -> bool:
        """Whether the repository has no branch at all."""
        return not self.branches()

    # -- reading ---------------------------------------------------------------------------------

    def rev_parse(self, rev: str) -> str | None:
        """The commit ``rev`` names (a branch, tag, full ref or SHA, tags peeled), or None when it names none."""
        if not rev or rev.startswith("-") or "\x00" in rev:
            return None
        if rev.startswith("refs/heads/"):  # a branch names a commit (receive-pack refuses anything else)
            known, sha = gitrefs.read_ref(self.path, rev)
            if known:
                return sha
        completed = self.run("rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}", check=False)
        sha = completed.stdout.decode().strip()
        return sha if completed.returncode == 0 and SHA_PATTERN.match(sha) else None

    def resolve_ref(self, ref: str) -> tuple[str, str] | None:
        """``(kind, commit)`` for a branch name, a tag name or a commit SHA (in that order), else None."""
        if not ref or ref.startswith("-") or "\x00" in ref:
            return None
        for kind, full in (("branch", f"refs/heads/{ref}"), ("tag", f"refs/tags/{ref}")):
            sha = self.rev_parse(full)
            if sha is not None:
                return kind, sha
        if re.fullmatch(r"[0-9a-fA-F]{4,40}", ref):
            sha = self.rev_parse(ref)
            if sha is not None:
                return "commit", sha
        return None

    def branches(self) -> dict[str, str]:
        """Every branch name with the commit it points at."""
        return self._refs("refs/heads/")

    def tags(self) -> dict[str, str]:
        """Every tag name with the object it points at."""
        return self._refs("refs/tags/")

    def _refs(self, prefix: str) -> dict[str, str]:
        known = gitrefs.read_refs(self.path, prefix)
        if known is not None:
            return known
        out = self._text("for-each-ref", "--format=%(objectname) %(refname)", prefix)
        refs: dict[str, str] = {}
        for line in out.splitlines():
            sha, _, ref = line.partition(" ")
            refs[ref[len(prefix) :]] = sha
        return refs

    def ref_commits(self) -> dict[str, str]:
        """Every branch and tag by full ref name, with the commit it points at (annotated tags peeled)."""
        out = self._text(
            "for-each-ref", "--format=%(refname) %(objectname) %(*objectname)", "refs/heads/", "refs/tags/"
        )
        refs: dict[str, str] = {}
        for line in out.splitlines():
            ref, sha, *peeled = line.split(" ")
            refs[ref] = peeled[0] if peeled and peeled[0] else sha
        return refs

    def _batch_object(self, spec: str) -> tuple[str, str, bytes] | None:
        """``(sha, type, content)`` of the object ``spec`` names, or None when it names nothing."""
        if "\n" in spec or "\x00" in spec:
            return None
        out = self.run("cat-file", "--batch", input_bytes=spec.encode("utf-8") + b"\n").stdout
        header, _, rest = out.partition(b"\n")
        fields = header.decode("utf-8", "replace").split(" ")
        if len(fields) != 3 or fields[1] in ("missing", "ambiguous"):
            return None
        size = int(fields[2])
        return fields[0], fields[1], rest[:size]

    def read_blob(self, rev: str, path: str) -> bytes | None:
        """The content of the file at ``path`` in ``rev``, or None when there is no such file."""
        found = self._batch_object(f"{rev}:{path.strip('/')}")
        if found is None or found[1] != "blob":
            return None
        return found[2]

    def read_object(self, sha: str) -> bytes | None:
        """The raw content of a blob by its SHA, or None when missing."""
        found = self._batch_object(sha)
        return None if found is None else found[2]

    def stat(self, rev: str, path: str) -> TreeEntry | None:
        """The tree entry at ``path`` in ``rev`` (the root tree for an empty path), or None when missing."""
        clean = path.strip("/")
        if not clean:
            tree = self.rev_parse(rev)
            if tree is None:
                return None
            root = self._text("rev-parse", "--verify", f"{tree}^{{tree}}")
            return TreeEntry(name="", path="", type="tree", mode="040000", sha=root, size=0)
        parent, _, name = clean.rpartition("/")
        for entry in self.list_tree(rev, parent):
            if entry.name == name:
                return entry
        return None

    def list_tree(self, rev: str, path: str = "") -> list[TreeEntry]:
        """The entries of the directory at ``path`` in ``rev``; empty when it is missing or not a directory."""
        clean = path.strip("/")
        if not rev or rev.startswith("-") or "\x00" in rev or ":" in rev:
            return []
        loose = gitloose.folder_entries(self.path, rev, clean)
        if loose is not None:  # no git process when the objects are loose (gitloose.py)
            prefix = f"{clean}/" if clean else ""
            return [
                TreeEntry(entry.name, prefix + entry.name, entry.type, entry.mode, entry.sha, entry.size or 0)
                for entry in loose
            ]
        # ``^{commit}`` keeps rev_parse's rule (a commit, tags peeled) inside the one ls-tree call.
        spec = f"{rev}^{{commit}}:{clean}" if clean else f"{rev}^{{commit}}^{{tree}}"
        completed = self.run("ls-tree", "-l", "-z", "--end-of-options", spec, check=False)
        if completed.returncode != 0:
            return []
        return tree_entries(completed.stdout, f"{clean}/" if clean else "")

    def list_folders(self, rev: str, folders: Sequence[str]) -> dict[str, list[TreeEntry]]:
        """The entries of each directory ``folders`` names in ``rev``, in one git call (a missing folder or a
        file there lists nothing), like :meth:`list_tree` of each."""
        listed: dict[str, list[TreeEntry]] = {folder.strip("/"): [] for folder in folders}
        if not rev or rev.startswith("-") or "\x00" in rev or ":" in rev or not all(listed):
            return listed
        # A pathspec ending in "/" lists the directory's entries (one level), with paths from the root.
        specs = [f"{folder}/" for folder in listed]
        completed = self.run(
            "--literal-pathspecs",
            "ls-tree",
            "-l",
            "-z",
            "--end-of-options",
            f"{rev}^{{commit}}",
            "--",
            *specs,
            check=False,
        )
        if completed.returncode != 0:
            return listed
        for entry in tree_entries(completed.stdout):
            folder = entry.path.rpartition("/")[0]
            if folder in listed:
                listed[folder].append(entry)
        return listed

    def commit_info(self, sha: str) -> CommitInfo:
        """Parse a commit object (``GitError`` when ``sha`` is not a commit); full SHAs are remembered."""
        if SHA_PATTERN.match(sha):
            known = gitcache.recall(self.path, sha)
            if known is not None:
                return known
        fmt = "%H%x00%T%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B"
        out = self.run("show", "-s", f"--format={fmt}", "--end-of-options", f"{sha}^{{commit}}").stdout
        fields = out.decode("utf-8", "replace").split("\x00", 9)
        info = CommitInfo(
            sha=fields[0],
            tree=fields[1],
            parents=tuple(fields[2].split()),
            author=Identity(fields[3], fields[4], int(fields[5] or 0)),
            committer=Identity(fields[6], fields[7], int(fields[8] or 0)),
            message=_message_of(fields[9]),
        )
        gitcache.remember(self.path, info)
        return info

    def last_commit_for_path(self, rev: str, path: str) -> str | None:
        """The newest commit reachable from ``rev`` that touched ``path`` (the tip itself for the root)."""
        clean = path.strip("/")
        if not clean:
            return self.rev_parse(rev)
        out = self._text("log", "-1", "--format=%H", "--end-of-options", rev, "--", clean)
        return out or None

    # -- writing ---------------------------------------------------------------------------------

    def hash_blob(self, content: bytes) -> str:
        """Store ``content`` as a blob and return its SHA."""
        out = self.run("hash-object", "-w", "--stdin", "--no-filters", input_bytes=content).stdout
        return out.decode().strip()

    def commit(
        self,
        *,
        branch: str,
        parent: str | None,
        changes: Mapping[str, bytes | None],
        message: str,
        author: Identity,
        committer: Identity,
        expected_old: str | None = None,
        renames: Mapping[str, str] | None = None,
    ) -> str:
        """Commit ``changes`` (path → new content, None deletes) on top of ``parent`` and move ``branch``.

        Blobs, trees and the commit are written by one ``git fast-import`` (no work tree, no index;
        an ``ls-tree`` first when a changed path may keep an existing mode), instead of a process per
        blob and per step; the ref moves with ``update-ref <new> <old>`` so a concurrent change raises
        :class:`RefUpdateRejectedError`.
        ``expected_old`` defaults to ``parent`` (40 zeros: the branch must not exist yet).
        ``renames`` maps a new path to the old one whose mode it keeps.
        """
        modes = self._modes(parent, [(renames or {}).get(path, path) for path, content in changes.items() if content])
        entries: dict[str, tuple[str, bytes | str] | None] = {}
        for path, content in changes.items():
            mode = modes.get((renames or {}).get(path, path), REG_FILE_MODE)
            mode = mode if mode in ("100644", "100755") else REG_FILE_MODE
            entries[path] = None if content is None else (mode, content)
        new_sha = self.write_commit(parent, entries, message, author=author, committer=committer)
        old = expected_old if expected_old is not None else (parent or ZERO_SHA)
        self.update_ref(f"refs/heads/{branch}", new_sha, old)
        return new_sha

    def write_commit(
        self,
        parent: str | None,
        entries: Mapping[str, tuple[str, bytes | str] | None],
        message: str,
        *,
        author: Identity,
        committer: Identity,
    ) -> str:
        """Write blobs, trees and a commit of ``parent``'s tree with ``entries`` applied: as loose objects without
        git when the objects read are loose (:func:`gitloose.write_commit`), else in ONE ``git fast-import``.

        ``entries`` maps a path to None (deleted) or ``(mode, content)``, the content as bytes or as the
        SHA of a blob already stored. No ref moves: the caller lands the commit. A file and a directory
        at the same path among the entries is refused with :class:`PathConflictError` (fast-import would
        silently let the later one win).
        """
        written = sorted(path for path, entry in entries.items() if entry is not None)
        for path in written:
            if any(other.startswith(path + "/") for other in written):
                raise PathConflictError(["fast-import"], 1, f"a file and a directory at the same path: {path}")
        header = _ident_line("author", author) + _ident_line("committer", committer)
        loose = gitloose.write_commit(self.path, parent, entries, header, message.encode("utf-8"))
        new_sha, tree = loose if loose is not None else self._fast_import_commit(parent, entries, header, message)
        if SHA_PATTERN.match(tree):
            known = CommitInfo(
                sha=new_sha,
                tree=tree,
                parents=(parent,) if parent else (),
                author=_sanitized(author),
                committer=_sanitized(committer),
                message=_message_of(message),
            )
            gitcache.remember(self.path, known)
        return new_sha

    def _fast_import_commit(
        self, parent: str | None, entries: Mapping[str, tuple[str, bytes | str] | None], header: bytes, message: str
    ) -> tuple[str, str]:
        """:meth:`write_commit` through ``git fast-import``: the commit and its root tree ("" when not printed)."""
        stream = [b"feature done\ncommit refs/reference-server/fast-import\nmark :1\n", header]
        stream.append(_data(message.encode("utf-8")))
        if parent:
            stream.append(f"from {parent}\n".encode())
        for path, entry in sorted(entries.items(), key=lambda item: item[1] is not None):
            if entry is None:
                stream.append(b"D " + _quote_path(path) + b"\n")
            elif isinstance(entry[1], bytes):
                stream.append(f"M {entry[0]} inline ".encode() + _quote_path(path) + b"\n" + _data(entry[1]))
            else:
                stream.append(f"M {entry[0]} {entry[1]} ".encode() + _quote_path(path) + b"\n")
        # get-mark prints the commit's SHA and ``ls`` its root tree; the reset (no ``from``) leaves the
        # import's ref unwritten.
        stream.append(b'\nget-mark :1\nls :1 ""\nreset refs/reference-server/fast-import\n\ndone\n')
        printed = self._text("fast-import", "--quiet", "--done", input_bytes=b"".join(stream)).split("\n")
        new_sha = printed[0]
        if not SHA_PATTERN.match(new_sha):
            raise GitError(["fast-import"], 0, f"fast-import printed no commit: {new_sha[:200]!r}")
        ls_fields = printed[1].split() if len(printed) > 1 else []  # "040000 tree <sha>" and a tab
        return new_sha, ls_fields[2] if len(ls_fields) >= 3 else ""

    @contextmanager
    def temporary_index(self, parent: str | None) -> Iterator[dict[str, str]]:
        """The environment of an index file of our own holding ``parent``'s tree (empty without one), so
        trees are built without a work tree; the file is removed afterwards."""
        self.path.mkdir(parents=True, exist_ok=True)
        fd, index_name = tempfile.mkstemp(prefix="index-", dir=self.path)
        os.close(fd)
        index_file = Path(index_name)
        index_file.unlink()
        index_env = {"GIT_INDEX_FILE": str(index_file)}
        try:
            self.run("read-tree", *((parent,) if parent else ("--empty",)), env=index_env)
            yield index_env
        finally:
            index_file.unlink(missing_ok=True)

    def _modes(self, parent: str | None, paths: Sequence[str]) -> dict[str, str]:
        """The modes ``paths`` have in ``parent`` (one ``ls-tree``; nothing to ask without a parent)."""
        if not parent or not paths:
            return {}
        out = self.run("--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", parent, "--", *paths).stdout
        modes: dict[str, str] = {}
        for record in out.split(b"\x00"):
            if record:
                meta, _, name = record.partition(b"\t")
                modes[name.decode("utf-8", "surrogateescape")] = meta.decode().split()[0]
        return modes

    def commit_tree(
        self, tree: str, parents: Sequence[str], message: str, *, author: Identity, committer: Identity
    ) -> str:
        """Write a commit object of ``tree`` with ``parents`` (no ref moves) and return its SHA."""
        commit_env = {
            "GIT_AUTHOR_NAME": author.name,
            "GIT_AUTHOR_EMAIL": author.email,
            "GIT_AUTHOR_DATE": f"@{author.time} +0000",
            "GIT_COMMITTER_NAME": committer.name,
            "GIT_COMMITTER_EMAIL": committer.email,
            "GIT_COMMITTER_DATE": f"@{committer.time} +0000",
        }
        parent_args = [arg for parent in parents for arg in ("-p", parent)]
        out = self.run(
            "commit-tree", tree, *parent_args, "-F", "-", input_bytes=message.encode("utf-8"), env=commit_env
        )
        return out.stdout.decode().strip()

    def merge_base(self, first: str, second: str) -> str | None:
        """The best common ancestor of two commits, or None when their histories are unrelated."""
        completed = self.run("merge-base", "--end-of-options", first, second, check=False)
        sha = completed.stdout.decode().strip()
        return sha if completed.returncode == 0 and SHA_PATTERN.match(sha) else None

    def commits_between(self, base: str, head: str) -> list[str]:
        """The commits reachable from ``head`` but not from ``base``, newest first (``git rev-list base..head``)."""
        known = gitcache.recall(self.path, head) if SHA_PATTERN.match(head) else None
        if known is not None and known.parents == (base,):
            return [head]  # one commit on top of base (a commit of the contents API): nothing to walk
        out = self._text("rev-list", "--end-of-options", f"{base}..{head}")
        return out.split()

    def changed_paths(self, base: str, head: str) -> list[ChangedPath]:
        """What changed from ``base`` to ``head`` per file, renames detected, with added and deleted line counts."""
        raw = self.run("diff", "--no-color", "--no-ext-diff", "-M", "-z", "--raw", "--numstat", base, head).stdout
        fields = raw.split(b"\x00")
        changes: list[ChangedPath] = []
        counts: list[tuple[int, int, bool]] = []
        position = 0
        while position < len(fields) and fields[position]:
            field = fields[position].decode("utf-8", "surrogateescape")
            if field.startswith(":"):
                status = field.split()[-1]
                if status[0] in "RC":
                    old, new = fields[position + 1], fields[position + 2]
                    position += 3
                else:
                    old = new = fields[position + 1]
                    position += 2
                changes.append(
                    ChangedPath(
                        status=status[0],
                        path=new.decode("utf-8", "surrogateescape"),
                        old_path=old.decode("utf-8", "surrogateescape"),
                        additions=0,
                        deletions=0,
                        binary=False,
                    )
                )
                continue
            added, deleted, name = field.split("\t", 2)
            binary = added == "-"
            counts.append((0 if binary else int(added), 0 if binary else int(deleted), binary))
            position += 3 if name == "" else 1
        return [
            ChangedPath(change.status, change.path, change.old_path, added, deleted, binary)
            for change, (added, deleted, binary) in zip(changes, counts, strict=True)
        ]

    def diff_text(self, base: str, head: str, *, paths: Sequence[str] = ()) -> str:
        """The unified diff from ``base`` to ``head`` (renames detected, full blob ids), optionally for some paths."""
        args = ["diff", "--no-color", "--no-ext-diff", "-M", "--full-index", base, head]
        if paths:
            args += ["--", *paths]
        return self.run(*args).stdout.decode("utf-8", "replace")

    def format_patch(self, base: str, head: str) -> str:
        """The commits ``base..head`` as one mbox of ``git format-patch`` mails, oldest first."""
        out = self.run("format-patch", "--stdout", "--no-color", "--end-of-options", f"{base}..{head}")
        return out.stdout.decode("utf-8", "replace")

    def merge_trees(self, ours: str, theirs: str) -> str | None:
        """The tree of a real three-way merge of two commits (``git merge-tree --write-tree``), or None on a
        conflict; nothing is written to any ref."""
        completed = self.run(
            "merge-tree", "--write-tree", "--no-messages", "--end-of-options", ours, theirs, check=False
        )
        if completed.returncode == 1:
            return None
        if completed.returncode != 0:
            raise GitError(
                ["merge-tree", ours, theirs], completed.returncode, completed.stderr.decode("utf-8", "replace")
            )
        return completed.stdout.decode().split("\n", 1)[0].strip()

    def tree_of(self, commit: str) -> str:
        """The root tree of a commit."""
        return self._text("rev-parse", "--verify", "--end-of-options", f"{commit}^{{tree}}")

    def update_ref(self, ref: str, new: str, old: str) -> None:
        """Move ``ref`` from ``old`` to ``new`` atomically; :class:`RefUpdateRejectedError` when it moved meanwhile.

        Git's ref files are written in process when nothing more is asked of them (no reflog, no lock held):
        a contents-API commit then starts one git process less."""
        moved = gitrefs.swap_ref(self.path, ref, new, old)
        if moved is not None:
            if not moved:
                raise RefUpdateRejectedError(["update-ref"], 1, f"cannot lock ref '{ref}': it is not at {old}")
            return
        try:
            self.run("update-ref", "-m", "reference-server", ref, new, old)
        except GitError as exc:
            raise RefUpdateRejectedError(exc.command, exc.returncode, exc.stderr) from exc

    def update_refs(self, updates: Sequence[tuple[str, str, str]]) -> None:
        """Apply ``(ref, new, old)`` moves in one transaction (all or none); a ZERO_SHA ``new`` deletes the ref,
        a ZERO_SHA ``old`` requires it to be absent; :class:`RefUpdateRejectedError` when any old value is stale."""
        lines = ["start"]
        for ref, new, old in updates:
            if new == ZERO_SHA:
                lines.append(f"delete {ref} {old}")
            else:
                lines.append(f"update {ref} {new} {old}")
        lines += ["prepare", "commit", ""]
        try:
            self.run("update-ref", "-m", "reference-server", "--stdin", input_bytes="\n".join(lines).encode())
        except GitError as exc:
            raise RefUpdateRejectedError(exc.command, exc.returncode, exc.stderr) from exc

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """Whether ``ancestor`` is reachable from ``descendant`` (a fast-forward from one to the other)."""
        return self.run("merge-base", "--is-ancestor", ancestor, descendant, check=False).returncode == 0

    @staticmethod
    def _remote_env(authorization: str | None, pinned: str | None = None) -> dict[str, str]:
        """Only http(s) transports, no redirects; ``authorization`` (an HTTP header value) travels in the
        environment; ``pinned`` (``host:port:address``) makes git connect to the address the caller checked."""
        settings = {
            "protocol.allow": "never",
            "protocol.http.allow": "always",
            "protocol.https.allow": "always",
            "http.followRedirects": "false",
        }
        if pinned:
            settings["http.curloptResolve"] = pinned
        if authorization:
            settings["http.extraHeader"] = f"Authorization: {authorization}"
        return _environment(_config_env(settings))

    def fetch_mirror(
        self, url: str, *, authorization: str | None = None, pinned: str | None = None, timeout: float = 600
    ) -> None:
        """Fetch every branch and tag of ``url`` (http or https only) into the same refs here, pruning the
        ones the remote dropped; ``authorization`` (an HTTP header value) goes through the environment, never argv."""
        command = [
            "git",
            f"--git-dir={self.path}",
            "fetch",
            "--prune",
            "--no-write-fetch-head",
            "--end-of-options",
            url,
            "+refs/heads/*:refs/heads/*",
            "+refs/tags/*:refs/tags/*",
        ]
        try:
            completed = subprocess.run(
                command, capture_output=True, env=self._remote_env(authorization, pinned), check=False, timeout=timeout
            )
        except subprocess.TimeoutExpired as exc:
            raise GitError(["fetch"], -1, f"timed out after {timeout} s") from exc
        if completed.returncode != 0:
            raise GitError(["fetch", url], completed.returncode, completed.stderr.decode("utf-8", "replace"))

    def push_mirror(
        self, url: str, *, authorization: str | None = None, pinned: str | None = None, timeout: float = 600
    ) -> None:
        """``git push --force --mirror`` of every ref here to ``url`` (http or https only, as Gitea's push
        mirrors); ``authorization`` (an HTTP header value) goes through the environment, never argv."""
        command = ["git", f"--git-dir={self.path}", "push", "--force", "--mirror", "--quiet", "--end-of-options", url]
        try:
            completed = subprocess.run(
                command, capture_output=True, env=self._remote_env(authorization, pinned), check=False, timeout=timeout
            )
        except subprocess.TimeoutExpired as exc:
            raise GitError(["push"], -1, f"timed out after {timeout} s") from exc
        if completed.returncode != 0:
            raise GitError(["push", url], completed.returncode, completed.stderr.decode("utf-8", "replace"))

    def remote_head(
        self, url: str, *, authorization: str | None = None, pinned: str | None = None, timeout: float = 120
    ) -> str | None:
        """The branch the remote's HEAD names (``ls-remote --symref``), or None when it names none."""
        command = ["git", "ls-remote", "--symref", "--end-of-options", url, "HEAD"]
        try:
            completed = subprocess.run(
                command, capture_output=True, env=self._remote_env(authorization, pinned), check=False, timeout=timeout
            )
        except subprocess.TimeoutExpired as exc:
            raise GitError(["ls-remote"], -1, f"timed out after {timeout} s") from exc
        if completed.returncode != 0:
            raise GitError(["ls-remote", url], completed.returncode, completed.stderr.decode("utf-8", "replace"))
        for line in completed.stdout.decode("utf-8", "replace").splitlines():
            target, _, name = line.removeprefix("ref: ").partition("\t")
            if line.startswith("ref: ") and name == "HEAD" and target.startswith("refs/heads/"):
                return target[len("refs/heads/") :]
        return None

    def fetch_objects(self, source: Path, ref: str) -> None:
        """Copy the objects ``ref`` reaches in the local repository ``source`` into this one, moving no ref
        (a commit made here may then have them as parents)."""
        self.run("fetch", "--no-write-fetch-head", "--no-tags", "--quiet", "--end-of-options", str(source), ref)

    def copy_to(self, destination: Path) -> Git:
        """An independent bare copy of every branch and tag at ``destination`` (objects hard-linked or
        copied, never borrowed through alternates, so deleting this repository leaves the copy whole)."""
        destination.parent.mkdir(parents=True, exist_ok=True)
        completed = subprocess.run(
            ["git", "clone", "--bare", "--local", "--quiet", "--", str(self.path), str(destination)],
            capture_output=True,
            env=_environment(),
            check=False,
        )
        if completed.returncode != 0:
            raise GitError(["clone", "--bare"], completed.returncode, completed.stderr.decode("utf-8", "replace"))
        return Git(destination)


@dataclass
class BackendProcess:
    """A running ``git http-backend``: read ``process.stdout``; ``stderr`` is a file (read it after exit)."""

    process: subprocess.Popen[bytes]
    stderr: BinaryIO

    def error_text(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace").strip()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.stderr.close()


def _data(content: bytes) -> bytes:
    """A fast-import ``data`` block: the exact byte count, so any content passes unescaped."""
    return f"data {len(content)}\n".encode() + content + b"\n"


def _quote_path(path: str) -> bytes:
    """A path in fast-import's C-style quotes (any byte but the quote, backslash and newline as is)."""
    raw = path.encode("utf-8", "surrogateescape")
    return b'"' + raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n") + b'"'


def tree_entries(output: bytes, prefix: str = "") -> list[TreeEntry]:
    """The entries ``git ls-tree -l -z`` printed, their paths under ``prefix`` (a folder with its "/")."""
    entries: list[TreeEntry] = []
    for record in output.split(b"\x00"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, sha, size = meta.decode().split(maxsplit=3)
        path = prefix + raw_path.decode("utf-8", "surrogateescape")
        entries.append(
            TreeEntry(
                name=path.rpartition("/")[2],
                path=path,
                type=kind,
                mode=mode,
                sha=sha,
                size=int(size) if size.isdigit() else 0,
            )
        )
    return entries


def _sanitized(who: Identity) -> Identity:
    """``who`` as a commit records it: ``<``, ``>`` and newlines dropped as git's own ident sanitizing does."""

    def clean(text: str) -> str:
        return re.sub(r"[<>\n]", "", text).strip()

    return Identity(clean(who.name), clean(who.email), who.time)


def _ident_line(role: str, who: Identity) -> bytes:
    """``author``/``committer`` line of a sanitized identity."""
    clean = _sanitized(who)
    return f"{role} {clean.name + ' ' if clean.name else ''}<{clean.email}> {clean.time} +0000\n".encode()


def _message_of(raw: str) -> str:
    """A commit message as :class:`CommitInfo` holds it: one final newline, empty when blank."""
    return raw.rstrip("\n") + "\n" if raw.strip() else ""


def _config_env(settings: Mapping[str, str]) -> dict[str, str]:
    """Git configuration passed through the environment (``GIT_CONFIG_COUNT``/``KEY_n``/``VALUE_n``)."""
    env = {"GIT_CONFIG_COUNT": str(len(settings))}
    for index, (key, value) in enumerate(settings.items()):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    return env


def http_backend(
    project_root: Path, cgi: Mapping[str, str], body: BinaryIO, config: Mapping[str, str] | None = None
) -> BackendProcess:
    """Start ``git http-backend`` (smart HTTP) as a CGI over ``project_root``; the caller reads its stdout.

    ``cgi`` holds the CGI variables (``PATH_INFO``, ``REQUEST_METHOD``, ``QUERY_STRING``...); receive-pack
    is enabled here because the server has already checked the caller may push, and reachable commits may
    be fetched by id (as ``actions/checkout`` does) whatever the protocol version. ``config`` adds Git
    settings for this one run (``core.hooksPath`` for the pre-receive hook of protected refs).
    """
    env = _environment(
        {
            "GIT_PROJECT_ROOT": str(project_root),
            "GIT_HTTP_EXPORT_ALL": "1",
            **_config_env(
                {
                    "http.receivepack": "true",
                    "http.uploadpack": "true",
                    "uploadpack.allowReachableSHA1InWant": "true",
                    "uploadpack.allowFilter": "true",
                    **(config or {}),
                }
            ),
        }
    )
    env.update(cgi)
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed by BackendProcess.close
    process = subprocess.Popen(["git", "http-backend"], stdin=body, stdout=subprocess.PIPE, stderr=errors, env=env)
    return BackendProcess(process, errors)
