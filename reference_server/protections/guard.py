"""Enforcement of branch and tag protection wherever a ref moves inside the server.

Two entry points for the families that move refs themselves, called with the repository's lock held
and before the ref moves: :func:`check_commit` (the contents API's commit choke point) and
:func:`check_ref_update` (the branch API's ref-update choke point). Both raise
:class:`ProtectedRefRefused` (403) with Gitea's pre-receive reason. Git pushes are checked by the
pre-receive hook program (``prereceive.py``); :func:`receive_pack_settings` gives ``git http-backend``
the configuration and environment that run it.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..auth import Principal
from ..context import forge
from ..gitcli import ZERO_SHA
from ..orgs.teams import list_teams_of_user
from ..permissions import current_deploy_token
from . import models, tags
from .errors import ProtectedRefRefused
from .refupdates import HOOK_ENV, is_fast_forward, paths_changed
from .rules import Pusher, branch_refusal, commit_refusal, first_matching_rule, tag_refusal

if TYPE_CHECKING:
    from ..repos.models import Repo

__all__ = [
    "ReceivePackSettings",
    "check_commit",
    "check_ref_update",
    "pusher_for",
    "receive_pack_settings",
]

HOOK_SCRIPT = """#!/bin/sh
# Written by the reference server: Git runs it before any ref of a push moves.
exec {python} -m reference_server.protections.prereceive
"""


def _allowlisted_teams(repo: Repo) -> set[int]:
    """Every team some rule of the repository names (a pusher's membership is only needed for these)."""
    teams: set[int] = set()
    for rule in models.branch_rules(repo.id):
        teams |= rule.push_team_ids | rule.force_push_team_ids
    for tag_rule in tags.tag_rules(repo.id):
        teams |= tag_rule.team_ids
    return teams


def _member_of(team_ids: Iterable[int], user_id: int) -> frozenset[int]:
    """The teams among ``team_ids`` that the user belongs to (through the organizations family)."""
    wanted, found, offset = set(team_ids), set(), 0
    while wanted:
        teams, total = list_teams_of_user(user_id, 100, offset)
        found |= {team.id for team in teams if team.id in wanted}
        offset += len(teams)
        if not teams or offset >= total:
            break
    return frozenset(found)


def pusher_for(principal: Principal, repo: Repo) -> Pusher:
    """The pusher a rule judges: the caller, its membership of allowlisted teams, and the deploy token the
    request authenticated with (a deploy token acts as the repository's owner, as Gitea's deploy keys)."""
    token = current_deploy_token()
    teams = _member_of(_allowlisted_teams(repo), principal.user_id) if repo.owner_is_org else frozenset()
    return Pusher(
        user_id=principal.user_id,
        deploy_token_id=token.id if token is not None else None,
        team_ids=teams,
    )


def _check_branch(
    repo: Repo, principal: Principal, branch: str, old: str, new: str, *, paths: Sequence[str] | None
) -> None:
    rule = first_matching_rule(models.branch_rules(repo.id), branch)
    if rule is None:
        return
    git = repo.git
    deleting = new == ZERO_SHA
    forced = not deleting and not is_fast_forward(git, old, new)
    needs_paths = bool(rule.protected_file_patterns.strip() or rule.unprotected_file_patterns.strip())
    if old == ZERO_SHA or not needs_paths:  # a new branch's files are not checked (Gitea compares to old)
        paths = []
    elif paths is None:
        paths = paths_changed(git, old, new) if not deleting else []
    reason = branch_refusal(
        rule, pusher_for(principal, repo), branch, deleting=deleting, forced=forced, changed_paths=paths
    )
    if reason is not None:
        raise ProtectedRefRefused(reason)


def check_commit(  # noqa: PLR0917 - the positional signature the committing families call
    repo: Repo,
    principal: Principal,
    branch: str,
    old: str,
    new: str,
    changed_paths: Sequence[str],
    *,
    verify: bool = False,
) -> None:
    """Refuse (403) a commit of the contents API that would move ``branch`` from ``old`` to ``new``.

    ``verify``: the commit goes on the branch it started from, so Gitea first runs its own check
    (``VerifyBranchProtection``, whose messages differ from the hook's); a commit to a new branch meets
    only the pre-receive rules, as in Gitea.
    """
    if verify:
        rule = first_matching_rule(models.branch_rules(repo.id), branch)
        if rule is not None:
            reason = commit_refusal(rule, pusher_for(principal, repo), principal.username, changed_paths)
            if reason is not None:
                raise ProtectedRefRefused(reason)
    _check_branch(repo, principal, branch, old, new, paths=list(changed_paths))


def check_ref_update(repo: Repo, principal: Principal, ref: str, old: str, new: str) -> None:
    """Refuse (403) creating, moving or deleting a branch or tag (full ref name, or a bare branch name)."""
    if ref.startswith("refs/tags/"):
        reason = tag_refusal(tags.tag_rules(repo.id), pusher_for(principal, repo), ref[len("refs/tags/") :])
        if reason is not None:
            raise ProtectedRefRefused(reason)
        return
    branch = ref.removeprefix("refs/heads/")
    _check_branch(repo, principal, branch, old, new, paths=None)


@dataclass(frozen=True)
class ReceivePackSettings:
    """What ``git http-backend`` needs so receive-pack runs the pre-receive hook for this pusher."""

    config: dict[str, str]
    environment: dict[str, str]


def _hooks_directory() -> Path:
    """The server's hooks directory with its ``pre-receive`` script, (re)written when it differs."""
    directory = forge().config.data_dir / "hooks"
    script = HOOK_SCRIPT.format(python=_shell_quote(sys.executable))
    target = directory / "pre-receive"
    if not target.is_file() or target.read_text(encoding="utf-8") != script:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=directory, prefix=".pre-receive.", delete=False) as temporary:
            temporary.write(script)
        Path(temporary.name).chmod(0o755)
        Path(temporary.name).replace(target)
    return directory


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def receive_pack_settings(repo: Repo, principal: Principal) -> ReceivePackSettings:
    """``core.hooksPath`` and the variables telling the hook the database, the repository and the pusher."""
    pusher = pusher_for(principal, repo)
    package_root = Path(__file__).resolve().parents[2]
    environment = {
        HOOK_ENV["database"]: str(forge().db.path),
        HOOK_ENV["repo"]: str(repo.id),
        HOOK_ENV["user"]: str(pusher.user_id),
        HOOK_ENV["teams"]: ",".join(str(team) for team in sorted(pusher.team_ids)),
        "PYTHONPATH": str(package_root),
    }
    if pusher.deploy_token_id is not None:
        environment[HOOK_ENV["deploy_token"]] = str(pusher.deploy_token_id)
    return ReceivePackSettings(config={"core.hooksPath": str(_hooks_directory())}, environment=environment)
