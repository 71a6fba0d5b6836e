"""What a ref update is, asked alike by the server's choke points and by the pre-receive hook program.

Importable without the Flask app, as the hook program is a process of its own: whether an update
fast-forwards, which paths it changes, and the environment through which the server names the pusher.
"""

from __future__ import annotations

from ..gitcli import ZERO_SHA, Git

__all__ = ["HOOK_ENV", "is_fast_forward", "paths_changed"]

HOOK_ENV = {
    "database": "FORGE_PROTECTIONS_DB",
    "repo": "FORGE_PROTECTIONS_REPO_ID",
    "user": "FORGE_PROTECTIONS_USER_ID",
    "deploy_token": "FORGE_PROTECTIONS_DEPLOY_TOKEN_ID",
    "teams": "FORGE_PROTECTIONS_TEAM_IDS",
}
"""The environment variables through which the server tells the pre-receive hook whom to judge."""


def is_fast_forward(git: Git, old: str, new: str) -> bool:
    """Whether ``new`` contains ``old`` (a new ref, or a deleted one, is never a force push)."""
    if ZERO_SHA in (old, new):
        return True
    return git.is_ancestor(old, new)


def paths_changed(git: Git, old: str, new: str) -> list[str]:
    """Files an update changes, both sides of a rename (none for a new branch: Gitea skips that check)."""
    if ZERO_SHA in (old, new):
        return []
    paths: list[str] = []
    for change in git.changed_paths(old, new):
        paths.extend(dict.fromkeys((change.old_path, change.path)))
    return list(dict.fromkeys(paths))
