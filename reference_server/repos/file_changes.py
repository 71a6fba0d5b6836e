"""The multi-file change (``POST /repos/{o}/{r}/contents``): create, update, upload, rename and delete
operations checked against the branch head, then applied as ONE commit, or not at all; the single-file
writes (:func:`change_file`) are one-operation changes.

Every check runs before anything is written; the tree is built in a temporary index and the commit
object is stored before :func:`commit_gate.land_commit` moves the branch, so a refused change leaves
the branches and every ref exactly as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..auth import Principal
from ..errors import Unprocessable
from ..gitcli import PathConflictError, TreeEntry
from ..gitobjects import object_sha
from . import commit_gate, contents, models, treeops
from .errors import (
    ContentNotFound,
    FileAlreadyExists,
    FilePathConflict,
    ShaMismatch,
    ShaRequired,
)
from .write_options import CommitOptions, decode_base64, parse_commit_options, text_option

__all__ = ["FileChange", "FileOperation", "change_file", "change_files", "default_message", "parse_operations"]

Operation = Literal["create", "update", "delete"]
"""What the single-file routes do: POST creates, PUT updates (or creates without ``sha``), DELETE deletes."""

OPERATIONS = ("create", "update", "upload", "rename", "delete")
NEEDS_SOURCE = ("update", "upload", "rename", "delete")
FileEntry = tuple[str, bytes | str]
"""What a written path becomes: its mode and its new content, or the SHA of the blob it keeps."""


@dataclass(frozen=True)
class FileOperation:
    """One validated ``ChangeFileOperation``; ``content`` None keeps a renamed file's blob."""

    operation: str
    path: str
    from_path: str
    content: bytes | None
    sha: str


def parse_operations(files: object) -> list[FileOperation]:
    """Validate ``files`` (422 on a bad operation, path or base64) before the repository is locked."""
    if not isinstance(files, list) or not files:
        raise Unprocessable("[Files]: Required")
    operations: list[FileOperation] = []
    targets: set[str] = set()
    for item in files:
        if not isinstance(item, dict):
            raise Unprocessable("[Files]: every item must be an object")
        operation = text_option(item, "operation")
        if not operation:
            raise Unprocessable("[Operation]: Required")
        if operation not in OPERATIONS:
            raise Unprocessable(f"[Operation]: must be one of {', '.join(OPERATIONS)} [given: {operation}]")
        path = contents.validate_path(text_option(item, "path"))
        from_path = contents.validate_path(text_option(item, "from_path")) if item.get("from_path") else path
        content: bytes | None = None
        if operation != "delete" and item.get("content") is not None:
            content = decode_base64(item.get("content"))
        elif operation not in ("delete", "rename"):
            content = b""
        for touched in {path, from_path}:
            if touched in targets:
                raise Unprocessable(f"a path may appear in only one operation [path: {touched}]")
            targets.add(touched)
        operations.append(FileOperation(operation, path, from_path, content, text_option(item, "sha")))
    return operations


def default_message(operations: Sequence[FileOperation]) -> str:
    """Gitea's default: ``Add a, b`` / ``Update c`` / ``Delete d`` lines (upload and rename count as update)."""
    groups: dict[str, list[str]] = {"Add": [], "Update": [], "Delete": []}
    verbs = {"create": "Add", "delete": "Delete"}
    for operation in operations:
        groups[verbs.get(operation.operation, "Update")].append(operation.path)
    return "\n".join(f"{verb} {', '.join(paths)}" for verb, paths in groups.items() if paths)


def _prefixes(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:depth]) for depth in range(1, len(parts))]


def _check_target(operation: FileOperation, entries: Mapping[str, TreeEntry]) -> None:
    """Nothing but directories on the way to the path; nothing at the path unless the file is replaced."""
    for prefix in _prefixes(operation.path):
        entry = entries.get(prefix)
        if entry is None:
            return
        if entry.type != "tree":
            raise FilePathConflict(f"a file exists where you’re trying to create a subdirectory [path: {prefix}]")  # noqa: RUF001 - Gitea's text
    entry = entries.get(operation.path)
    if entry is None:
        return
    if entry.mode == "120000":
        raise FilePathConflict(
            f"a symbolic link exists where you’re trying to create a subdirectory [path: {operation.path}]"  # noqa: RUF001 - Gitea's text
        )
    if entry.type == "tree":
        raise FilePathConflict(f"a directory exists where you’re trying to create a file [path: {operation.path}]")  # noqa: RUF001 - Gitea's text
    if operation.from_path != operation.path or operation.operation == "create":
        raise FileAlreadyExists(f"repository file already exists [path: {operation.path}]")


def _check_source(operation: FileOperation, entries: Mapping[str, TreeEntry]) -> TreeEntry | None:
    """The file an update, upload, rename or delete starts from, with Gitea's ``sha`` rule."""
    source = entries.get(operation.from_path)
    if source is not None and source.type == "tree":
        source = None
    if source is None and operation.operation != "upload":
        raise ContentNotFound(f"file does not exist [path: {operation.from_path}]")
    if operation.sha:
        expected = source.sha if source else ""
        if operation.sha != expected:
            raise ShaMismatch(f"sha does not match [given: {operation.sha}, expected: {expected}]")
    elif operation.operation != "upload":
        raise ShaRequired("a SHA or commit ID must be proved when updating a file")
    return source


@dataclass(frozen=True)
class Plan:
    """What each changed path becomes (None: deleted; deletions first), and the parent's entries that the
    operations were checked against."""

    changes: dict[str, FileEntry | None]
    before: Mapping[str, TreeEntry]


def _plan(repo: models.Repo, parent: str | None, operations: Sequence[FileOperation]) -> Plan:
    """Check every operation against ``parent`` and say what each path becomes."""
    wanted = {path for op in operations for path in (op.path, op.from_path, *_prefixes(op.path))}
    entries = treeops.entries_at(repo.git, parent, sorted(wanted)) if parent else {}
    removals: dict[str, FileEntry | None] = {}
    writes: dict[str, FileEntry | None] = {}
    for operation in operations:
        source = _check_source(operation, entries) if operation.operation in NEEDS_SOURCE else None
        if operation.operation == "delete":
            removals[operation.path] = None
            continue
        _check_target(operation, entries)
        if source is not None and operation.from_path != operation.path:
            removals[operation.from_path] = None
        mode = treeops.EXECUTABLE if source is not None and source.mode == treeops.EXECUTABLE else treeops.REGULAR
        kept_blob = source.sha if source is not None else ""
        writes[operation.path] = (mode, operation.content if operation.content is not None else kept_blob)
    return Plan(removals | writes, entries)


def _written(plan: Plan, paths: Sequence[str], new: str) -> tuple[dict[str, TreeEntry], contents.Known] | None:
    """The entries the commit ``new`` of ``plan`` has at ``paths`` and what describing them needs, from the
    plan alone: the blobs it stored, and ``new`` as the last commit of each path whose mode or blob differ
    from the parent's (a path written with what it held keeps its older last commit, as ``git log -- path``
    says). None when a path keeps a blob whose size the plan does not hold (a renamed file: git is asked)."""
    entries: dict[str, TreeEntry] = {}
    blobs: dict[str, bytes] = {}
    last_commits: dict[str, str] = {}
    for path in paths:
        change = plan.changes.get(path)
        if change is None:
            continue
        mode, content = change
        if not isinstance(content, bytes):
            return None
        sha = object_sha(b"blob", content)
        entries[path] = TreeEntry(path.rpartition("/")[2], path, "blob", mode, sha, len(content))
        blobs[sha] = content
        before = plan.before.get(path)
        if before is None or (before.sha, before.mode) != (sha, mode):
            last_commits[path] = new
    return entries, contents.Known(blobs=blobs, last_commits=last_commits)


def _commit(
    repo: models.Repo,
    operations: Sequence[FileOperation],
    options: CommitOptions,
    principal: Principal,
    default: str,
) -> tuple[str, Plan]:
    """Check, build and land the commit under the repository's lock; the new commit's SHA and its plan."""
    git = repo.git
    with models.repo_lock(repo):
        parent, old = options.base(git.branches())
        plan = _plan(repo, parent, operations)
        try:
            new = git.write_commit(
                parent, plan.changes, options.final_message(default), author=options.author, committer=options.committer
            )
        except PathConflictError as exc:
            raise FilePathConflict(f"the changes put a file and a directory at the same path: {exc.stderr}") from exc
        changed = sorted({path for op in operations for path in (op.path, op.from_path)})
        commit_gate.land_commit(
            repo, principal, branch=options.target, old=old, new=new, changed_paths=changed, from_branch=options.branch
        )
    return new, plan


def change_files(repo: models.Repo, body: Mapping[str, Any], principal: Principal) -> dict[str, Any]:
    """Apply a ``ChangeFilesOptions`` as one commit; Gitea's ``FilesResponse`` (null for deleted paths)."""
    commit_gate.require_unarchived(repo)
    operations = parse_operations(body.get("files"))
    options = parse_commit_options(repo, body, principal)
    new, plan = _commit(repo, operations, options, principal, default_message(operations))
    ref = contents.ResolvedRef(options.target, "branch", new)
    paths = [operation.path for operation in operations]
    written = _written(plan, paths, new)
    found, known = written if written is not None else (treeops.entries_at(repo.git, new, paths), contents.Known())
    present = [found[path] for path in paths if path in found]
    described = contents.describe_entries(
        repo, ref, present, contents.Describe(content_paths=frozenset(entry.path for entry in present)), known=known
    )
    by_path = {entry["path"]: entry for entry in described}
    return {
        "files": [None if op.operation == "delete" else by_path.get(op.path) for op in operations],
        "commit": contents.commit_to_api(repo, new),
        "verification": contents.NOT_SIGNED,
    }


# -- single-file writes --------------------------------------------------------------------------


@dataclass(frozen=True)
class FileChange:
    """The outcome of a write: the HTTP status and Gitea's ``FileResponse``/``FileDeleteResponse``."""

    status: int
    body: dict[str, Any]


def change_file(
    repo: models.Repo, path: str, operation: Operation, options: Mapping[str, Any], principal: Principal
) -> FileChange:
    """Create (POST), update (PUT with ``sha``; renaming from ``from_path``), create by PUT (no ``sha``)
    or delete (DELETE) one file in one commit, as a one-operation multi-file change."""
    sha = options.get("sha")
    kind = operation
    if operation == "update" and (sha is None or sha == ""):
        kind = "create"
    spec: dict[str, Any] = {"operation": kind, "path": path, "sha": sha}
    if operation != "delete":
        spec["content"] = options.get("content")
    if operation == "update" and options.get("from_path"):
        spec["from_path"] = options.get("from_path")
    result = change_files(repo, {**options, "files": [spec]}, principal)
    files = result.pop("files")
    result["content"] = None if operation == "delete" else files[0]
    status = 200 if operation == "delete" or kind == "update" else 201
    return FileChange(status, result)
