"""Applying a unified diff to a branch (``POST /repos/{o}/{r}/diffpatch``) as one commit, with
``git apply --cached`` on a temporary index: no work tree, and nothing changes when it does not apply."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..auth import Principal
from ..errors import Unprocessable
from ..gitcli import Git, GitError
from . import commit_gate, contents, models, treeops
from .errors import BranchNotFound, InvalidPath, PatchDoesNotApply
from .write_options import parse_commit_options

__all__ = ["DEFAULT_MESSAGE", "apply_diff_patch"]

DEFAULT_MESSAGE = "apply-patch"
_DIFF_PATH = re.compile(r"^(--- |\+\+\+ |rename from |rename to |copy from |copy to )(.*)$", re.M)


def _check_patch_paths(patch: str) -> None:
    """Every path the patch names (``a/``/``b/`` prefixes dropped) must be a valid repository path (422)."""
    for match in _DIFF_PATH.finditer(patch):
        name = match.group(2).split("\t")[0].strip('"')
        if name in ("/dev/null", ""):
            continue
        if match.group(1) in ("--- ", "+++ ") and name[:2] in ("a/", "b/"):
            name = name[2:]
        contents.validate_path(name)


def _changed_paths(git: Git, before: str, tree: str) -> list[str]:
    """The files that differ between a commit and the patched tree."""
    out = git.run("diff-tree", "-r", "--name-only", "-z", "--no-renames", before, tree).stdout
    return [name.decode("utf-8", "surrogateescape") for name in out.split(b"\x00") if name]


def apply_diff_patch(repo: models.Repo, body: Mapping[str, Any], principal: Principal) -> dict[str, Any]:
    """Apply ``content`` (a raw unified diff) on the branch head and land it; Gitea's ``FileResponse`` with
    ``content`` null. 422 when the patch is empty, names a bad path or does not apply."""
    commit_gate.require_unarchived(repo)
    patch = body.get("content")
    if not isinstance(patch, str) or not patch.strip():
        raise Unprocessable("[Content]: Required")
    try:
        _check_patch_paths(patch)
    except InvalidPath as exc:
        raise PatchDoesNotApply(f"the patch names an invalid path: {exc.message}") from exc
    options = parse_commit_options(repo, body, principal)
    git = repo.git
    with models.repo_lock(repo):
        parent, old = options.base(git.branches())
        if parent is None:
            raise BranchNotFound(f"branch does not exist [name: {options.branch}]")
        try:
            tree = treeops.apply_patch_tree(git, parent, patch.encode("utf-8"))
        except GitError as exc:
            raise PatchDoesNotApply(f"the patch does not apply: {exc.stderr or 'git apply failed'}") from exc
        changed = _changed_paths(git, parent, tree)
        new = git.commit_tree(
            tree,
            [parent],
            options.final_message(DEFAULT_MESSAGE),
            author=options.author,
            committer=options.committer,
        )
        commit_gate.land_commit(
            repo, principal, branch=options.target, old=old, new=new, changed_paths=changed, from_branch=options.branch
        )
    return {"content": None, "commit": contents.commit_to_api(repo, new), "verification": contents.NOT_SIGNED}
