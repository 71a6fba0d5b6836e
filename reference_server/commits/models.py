"""Commit history read straight from Git: filtered, counted and paged without loading the whole history
(Gitea's ``Commit``, with stats, affected files and authors matched by e-mail, is :mod:`.presenters`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..gitcli import SHA_PATTERN, CommitInfo, Git, Identity
from ..repos import models as repos
from .errors import CommitNotFound, EmptyRepository, InvalidCommitQuery

__all__ = [
    "CommitOptions",
    "CommitQuery",
    "count_commits",
    "get_commit",
    "list_commits",
    "parse_time",
    "read_commits",
    "resolve_commit",
]

_FIELDS = 10
_FORMAT = "%H%x00%T%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B"


@dataclass(frozen=True)
class CommitOptions:
    """What a ``Commit`` carries besides its core: ``stats``, ``files`` and ``verification`` (Gitea's flags)."""

    stat: bool = True
    files: bool = True
    verification: bool = True


@dataclass(frozen=True)
class CommitQuery:
    """A history walk: from ``start`` (a commit), without what ``exclude`` reaches, limited to ``path``
    and to committer dates within ``since``/``until`` (Unix seconds)."""

    start: str
    exclude: tuple[str, ...] = ()
    path: str = ""
    since: int | None = None
    until: int | None = None

    def arguments(self) -> list[str]:
        """The ``rev-list``/``log`` arguments of the walk, shared by the count and the page; the dates go as
        exact Unix times (``--max-age``/``--min-age``), since ``--since`` misreads a bare large number."""
        args: list[str] = []
        if self.since is not None:
            args.append(f"--max-age={self.since}")
        if self.until is not None:
            args.append(f"--min-age={self.until}")
        args += ["--end-of-options", self.start, *(f"^{sha}" for sha in self.exclude), "--"]
        if self.path:
            args.append(self.path)
        return args


def parse_time(name: str, value: str | None) -> int | None:
    """An RFC 3339 query time as Unix seconds, None when absent; 422 when it does not parse."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("z", "Z"))
    except ValueError as exc:
        raise InvalidCommitQuery(f'parsing time "{value}" of {name}: not an RFC 3339 date-time') from exc
    if parsed.tzinfo is None or "T" not in value.upper():
        raise InvalidCommitQuery(f'parsing time "{value}" of {name}: an RFC 3339 date-time needs a time and offset')
    return int(parsed.timestamp())


def resolve_commit(git: Git, ref: str) -> str:
    """The commit a branch, tag or (abbreviated) SHA names; 404 ``CommitNotFound`` otherwise."""
    found = git.resolve_ref(ref)
    if found is None:
        raise CommitNotFound(f"object does not exist [id: {ref}, rel_path: ]")
    return found[1]


def count_commits(git: Git, query: CommitQuery) -> int:
    """How many commits the walk yields (``git rev-list --count``: no commit is loaded)."""
    return int(git.run("--literal-pathspecs", "rev-list", "--count", *query.arguments()).stdout.decode().strip() or 0)


def read_commits(git: Git, revisions: Sequence[str], *, skip: int = 0, limit: int | None = None) -> list[CommitInfo]:
    """The commits ``git log <revisions>`` lists (newest first), ``skip`` and ``limit`` applied by Git itself."""
    args = ["--literal-pathspecs", "log", f"--format={_FORMAT}", "-z", f"--skip={skip}"]
    if limit is not None:
        args.append(f"--max-count={limit}")
    out = git.run(*args, *revisions).stdout.decode("utf-8", "replace")
    fields = out.split("\x00")
    commits = []
    for start in range(0, len(fields) - _FIELDS + 1, _FIELDS):
        chunk = fields[start : start + _FIELDS]
        if not SHA_PATTERN.match(chunk[0].strip()):
            continue
        message = chunk[9]
        commits.append(
            CommitInfo(
                sha=chunk[0].strip(),
                tree=chunk[1],
                parents=tuple(chunk[2].split()),
                author=Identity(chunk[3], chunk[4], int(chunk[5] or 0)),
                committer=Identity(chunk[6], chunk[7], int(chunk[8] or 0)),
                message=message.rstrip("\n") + "\n" if message.strip() else "",
            )
        )
    return commits


def list_commits(git: Git, query: CommitQuery, offset: int, limit: int) -> tuple[list[CommitInfo], int]:
    """One page of the walk and the total count (two Git calls whatever the history's length)."""
    total = count_commits(git, query)
    if offset >= total:
        return [], total
    return read_commits(git, query.arguments(), skip=offset, limit=limit), total


def get_commit(repo: repos.Repo, ref: str) -> CommitInfo:
    """One commit by SHA (or ref); 409 on an empty repository, 404 when it names nothing."""
    git = repo.git
    if git.is_empty():
        raise EmptyRepository("Git Repository is empty.")
    return git.commit_info(resolve_commit(git, ref))
