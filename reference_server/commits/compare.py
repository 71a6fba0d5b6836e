"""Comparison of two refs (``GET .../compare/{basehead}``), within a repository or against a fork.

``basehead`` follows Gitea: ``base...head`` or ``base..head`` (the same commits; ``...`` diffs from the
merge base, ``..`` directly), ``head`` alone compares with the default branch, a head may be
``owner:ref`` or ``owner/repo:ref``, and ``base^`` names the parent of ``base``. A fork's objects are
read through Git's alternates, so comparing never writes to either repository.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from subprocess import CompletedProcess

from ..auth import optional_principal
from ..gitcli import Git
from ..permissions import permission
from ..repos import models as repos
from ..repos.errors import RepoNotFound
from ..users import models as users
from ..users.errors import UserNotFound
from .errors import CommitNotFound, InvalidCompare
from .models import resolve_commit

__all__ = ["CompareRequest", "Comparison", "compare", "compare_text", "parse_basehead"]

MAX_FORK_DEPTH = 10


@dataclass(frozen=True)
class CompareRequest:
    """A parsed ``basehead``: refs as written, the head's owner and repository when given, ``..`` or ``...``."""

    base_ref: str
    head_ref: str
    head_owner: str = ""
    head_repo: str = ""
    base_carets: int = 0
    direct: bool = False


@dataclass(frozen=True)
class Comparison:
    """Two resolved commits and the repository view that sees both."""

    base_repo: repos.Repo
    head_repo: repos.Repo
    base: str
    head: str
    direct: bool
    git: Git


class _CombinedGit(Git):
    """A repository that also sees another repository's objects (``GIT_ALTERNATE_OBJECT_DIRECTORIES``)."""

    def __init__(self, path: Path, other: Path) -> None:
        super().__init__(path)
        self.alternates = str(other / "objects")

    def run(
        self,
        *args: str,
        input_bytes: bytes | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
    ) -> CompletedProcess[bytes]:
        merged = {"GIT_ALTERNATE_OBJECT_DIRECTORIES": self.alternates, **(env or {})}
        return super().run(*args, input_bytes=input_bytes, env=merged, check=check)


def _parse_head(text: str) -> tuple[str, str, str]:
    owner_repo, sep, ref = text.partition(":")
    if not sep:
        return "", "", text
    owner, _, repo = owner_repo.partition("/")
    return owner, repo, ref


def parse_basehead(basehead: str) -> CompareRequest:
    """Split ``basehead``; 400 when it has more than one separator."""
    parts = basehead.split("...")
    direct = False
    if len(parts) == 1:
        parts = basehead.split("..")
        if len(parts) == 1:
            owner, repo, ref = _parse_head(basehead)
            return CompareRequest(base_ref="", head_ref=ref, head_owner=owner, head_repo=repo, direct=True)
        direct = True
    if len(parts) != 2:
        raise InvalidCompare(f"invalid compare router: {basehead}")
    base, caret, carets = parts[0].partition("^")
    owner, repo, ref = _parse_head(parts[1])
    return CompareRequest(
        base_ref=base,
        head_ref=ref,
        head_owner=owner,
        head_repo=repo,
        base_carets=len(carets) + 1 if caret else 0,
        direct=direct,
    )


def _readable(repo: repos.Repo) -> bool:
    return permission(optional_principal(), repo).can_read


def _head_repository(base: repos.Repo, request: CompareRequest) -> repos.Repo:
    """The repository the head ref lives in: the base itself, a named repository, or the owner's fork."""
    if not request.head_owner:
        if request.head_repo:
            raise InvalidCompare("head owner must be specified when head repo name is given")
        return base
    try:
        owner = users.get_user_by_name(request.head_owner)
    except UserNotFound:
        raise UserNotFound(f"user does not exist [name: {request.head_owner}]") from None
    if request.head_repo:
        found = repos.get_repo(owner.name, request.head_repo)
    elif owner.id == base.owner_id:
        found = base
    else:
        found = _fork_of_owner(base, owner)
    if not _readable(found):
        raise RepoNotFound(f"repository does not exist [owner: {owner.name}, name: {request.head_repo}]")
    return found


def _fork_of_owner(base: repos.Repo, owner: users.User) -> repos.Repo:
    """Gitea's search: up the fork chain of ``base``, then the owner's fork of it."""
    current = base
    for _ in range(MAX_FORK_DEPTH):
        if current.owner_id == owner.id:
            return current
        if current.fork_of is None:
            break
        try:
            current = repos.get_repo_by_id(current.fork_of)
        except RepoNotFound:
            break
    fork = repos.fork_owned_by(current, owner.id) or repos.fork_owned_by(base, owner.id)
    if fork is None:
        raise InvalidCompare(f"the user {owner.name} does not have a fork of the base repository")
    return fork


def _resolve(git: Git, ref: str, default: str) -> str:
    try:
        return resolve_commit(git, ref or default)
    except CommitNotFound:
        raise CommitNotFound(f"ref does not exist [name: {ref or default}]") from None


def compare(base_repo: repos.Repo, basehead: str) -> Comparison:
    """Resolve both sides of ``basehead``; 400 malformed, 404 unknown owner, repository or ref."""
    request = parse_basehead(basehead)
    head_repo = _head_repository(base_repo, request)
    if base_repo.git.is_empty() or head_repo.git.is_empty():
        raise CommitNotFound("Git Repository is empty.")
    base = _resolve(base_repo.git, request.base_ref, base_repo.default_branch)
    if request.base_carets:
        ancestor = base_repo.git.rev_parse(f"{base}~{request.base_carets}")
        if ancestor is None:
            raise CommitNotFound(f"ref does not exist [name: {request.base_ref}{'^' * request.base_carets}]")
        base = ancestor
    head = _resolve(head_repo.git, request.head_ref, head_repo.default_branch)
    git = base_repo.git if head_repo.id == base_repo.id else _CombinedGit(base_repo.git_path, head_repo.git_path)
    return Comparison(base_repo, head_repo, base, head, request.direct, git)


def compare_text(comparison: Comparison, output: str) -> str:
    """The raw ``diff`` (from the merge base for ``...``) or the ``patch`` (format-patch mails) of a comparison."""
    git = comparison.git
    if output == "patch":
        return git.format_patch(comparison.base, comparison.head)
    start = comparison.base
    if not comparison.direct:
        start = git.merge_base(comparison.base, comparison.head) or comparison.base
    return git.diff_text(start, comparison.head)
