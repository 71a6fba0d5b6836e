"""The one choke point every commit made through the API passes before its branch moves.

The contents API (single file, multi-file change, diff patch) builds a commit object first, without
touching any ref, then calls :func:`land_commit`: the only place where such a commit becomes a branch
head. Rules about who may move which branch (branch protection) therefore have one place to live,
and a refused commit leaves every ref as it was (the unreferenced commit object is garbage).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..auth import Principal
from ..context import forge
from ..events import PushEvent
from ..gitcli import ZERO_SHA, RefUpdateRejectedError
from ..protections.guard import check_commit
from . import models
from .errors import ConcurrentChange, RepoArchived

__all__ = ["land_commit", "require_unarchived"]


def require_unarchived(repo: models.Repo) -> None:
    """Writes to an archived repository answer 423 ``repo is archived`` (Gitea's ``MustNotBeArchived``)."""
    if repo.archived:
        raise RepoArchived("repo is archived")


def land_commit(
    repo: models.Repo,
    principal: Principal,
    *,
    branch: str,
    old: str,
    new: str,
    changed_paths: Sequence[str],
    from_branch: str | None = None,
) -> None:
    """Move ``refs/heads/<branch>`` from ``old`` (40 zeros: the branch is created) to the commit ``new``.

    ``from_branch`` is the branch the change started from: when it is ``branch`` itself, Gitea's own
    protection check of file writes runs before the pre-receive rules (see ``protections.guard``).

    Call it with the repository's :func:`models.repo_lock` held. Checks that may refuse the commit
    (403 errors) go first, before the ref moves; the ref moves with a compare-and-swap (409 when it
    moved meanwhile); the first branch of an empty repository becomes its default; then a
    ``PushEvent`` announces the move like a Git push would.
    """
    require_unarchived(repo)
    check_commit(repo, principal, branch, old, new, changed_paths, verify=from_branch == branch)
    git = repo.git
    was_empty = old == ZERO_SHA and git.is_empty()
    try:
        git.update_ref(f"refs/heads/{branch}", new, old)
    except RefUpdateRejectedError as exc:
        raise ConcurrentChange(f"the branch {branch} moved while the change was committed; retry") from exc
    if was_empty and branch != repo.default_branch:
        models.set_default_branch(repo, branch)
    models.touch(repo)
    forge().events.publish(
        PushEvent(repo.id, f"refs/heads/{branch}", old, new, principal.user_id, changed_paths=tuple(changed_paths))
    )
