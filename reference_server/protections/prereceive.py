"""The Git pre-receive hook program: refuse a push that a branch or tag protection rule forbids.

``git receive-pack`` runs it (through the ``pre-receive`` script of the server's hooks directory, set
as ``core.hooksPath`` by ``githttp.py``) after the pushed objects arrived in quarantine and before any
ref moves, with one ``<old> <new> <ref>`` line per ref on stdin. It reads the rules from the SQLite
database read-only (no Flask app), judges the pusher named by the environment variables of
``refupdates.HOOK_ENV``, prints every reason (Git shows them as ``remote:`` lines) and exits 1 on any
refusal, so Git answers ``[remote rejected] ... (pre-receive hook declined)`` and writes nothing.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from ..gitcli import ZERO_SHA, Git
from .refupdates import HOOK_ENV, is_fast_forward, paths_changed
from .rules import BranchRule, Pusher, TagRule, branch_refusal, first_matching_rule, tag_refusal
from .stored import branch_rules, tag_rules

__all__ = ["ReadOnlyDatabase", "judge", "main"]

QUARANTINE_VARIABLES = ("GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH")
"""What Git sets so a hook sees the pushed objects before they enter the repository."""


class ReadOnlyDatabase:
    """The server's SQLite file opened read-only: the reader the store's SELECTs run on."""

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        self.conn.row_factory = sqlite3.Row

    def all(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        return list(self.conn.execute(sql, tuple(params)))

    def close(self) -> None:
        self.conn.close()


class QuarantinedGit(Git):
    """The pushed repository, seeing the objects still in quarantine (``gitcli`` clears the environment)."""

    def __init__(self, path: Path, quarantine: Mapping[str, str]) -> None:
        super().__init__(path)
        self.quarantine = dict(quarantine)

    def run(
        self,
        *args: str,
        input_bytes: bytes | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[bytes]:
        return super().run(*args, input_bytes=input_bytes, env={**self.quarantine, **(env or {})}, check=check)


def _pusher(environ: Mapping[str, str]) -> Pusher:
    teams = frozenset(int(team) for team in environ.get(HOOK_ENV["teams"], "").split(",") if team.strip())
    deploy_token = environ.get(HOOK_ENV["deploy_token"], "").strip()
    return Pusher(
        user_id=int(environ[HOOK_ENV["user"]]),
        deploy_token_id=int(deploy_token) if deploy_token else None,
        team_ids=teams,
    )


def judge(
    updates: Iterable[tuple[str, str, str]],
    branches: Sequence[BranchRule],
    tags: Sequence[TagRule],
    pusher: Pusher,
    git: Git,
) -> list[str]:
    """The reasons to refuse the push (empty to accept it): every update of every ref is judged."""
    reasons: list[str] = []
    for old, new, ref in updates:
        if ref.startswith("refs/tags/"):
            reason = tag_refusal(tags, pusher, ref[len("refs/tags/") :])
        elif ref.startswith("refs/heads/"):
            branch = ref[len("refs/heads/") :]
            rule = first_matching_rule(branches, branch)
            if rule is None:
                continue
            deleting = new == ZERO_SHA
            has_patterns = bool(rule.protected_file_patterns.strip() or rule.unprotected_file_patterns.strip())
            reason = branch_refusal(
                rule,
                pusher,
                branch,
                deleting=deleting,
                forced=not deleting and not is_fast_forward(git, old, new),
                changed_paths=paths_changed(git, old, new) if has_patterns and not deleting else [],
            )
        else:
            continue
        if reason is not None:
            reasons.append(reason)
    return reasons


def _updates(stream: TextIO) -> list[tuple[str, str, str]]:
    updates: list[tuple[str, str, str]] = []
    for line in stream:
        parts = line.split()
        if len(parts) == 3:
            updates.append((parts[0], parts[1], parts[2]))
    return updates


def main(environ: Mapping[str, str] | None = None, stdin: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the hook: 0 accepts the push, 1 refuses it (a push the server did not set up is accepted)."""
    environ = os.environ if environ is None else environ
    stdin = sys.stdin if stdin is None else stdin
    stderr = sys.stderr if stderr is None else stderr
    updates = _updates(stdin)
    if HOOK_ENV["database"] not in environ or HOOK_ENV["repo"] not in environ:
        return 0
    try:
        database = ReadOnlyDatabase(environ[HOOK_ENV["database"]])
        try:
            repo_id = int(environ[HOOK_ENV["repo"]])
            branches, tags = branch_rules(database, repo_id), tag_rules(database, repo_id)
        finally:
            database.close()
        git = QuarantinedGit(
            Path(environ.get("GIT_DIR", ".")).resolve(),
            {name: environ[name] for name in QUARANTINE_VARIABLES if name in environ},
        )
        reasons = judge(updates, branches, tags, _pusher(environ), git)
    except Exception as error:  # any failure refuses the push rather than letting it through
        stderr.write(f"\nGitea: the protection check failed: {error}\n\n")
        return 1
    for reason in reasons:
        stderr.write(f"\nGitea: {reason}\n\n")
    stderr.flush()
    return 1 if reasons else 0


if __name__ == "__main__":
    sys.exit(main())
