"""Git notes (``refs/notes/commits``) as Gitea's ``GetNote`` reads them: the note of a commit, and as its
``commit`` the commit of the notes ref that last changed that note, not the annotated commit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..gitcli import CommitInfo, Git, valid_branch_name
from .errors import GitDataNotFound, InvalidRefOrSha

__all__ = ["NOTES_REF", "Note", "read_note"]

NOTES_REF = "refs/notes/commits"
"""Where git-notes keeps notes by default, and the only notes ref Gitea reads."""
_SHA = re.compile(r"^[0-9a-fA-F]{7,64}$")


@dataclass(frozen=True)
class Note:
    """A note's text and the notes commit that last changed it."""

    message: str
    commit: CommitInfo


def read_note(git: Git, name: str) -> Note:
    """The note of the commit ``name`` (a ref or SHA) names: 422 for a name that is neither, 404 when no
    commit, no notes ref or no note for it exists."""
    if not (_SHA.match(name) or valid_branch_name(name)):
        raise InvalidRefOrSha(f"no valid ref or sha: {name}")
    commit = git.rev_parse(name)
    notes = git.rev_parse(NOTES_REF)
    if commit is None or notes is None:
        raise GitDataNotFound(name)
    listed = git.run("ls-tree", "-r", "-z", "--name-only", notes).stdout.decode("utf-8", "replace")
    path = next((path for path in listed.split("\x00") if path.replace("/", "") == commit), None)
    if path is None:
        raise GitDataNotFound(name)
    message = git.run("cat-file", "blob", f"{notes}:{path}").stdout.decode("utf-8", "replace")
    changed = git.run("log", "-1", "--format=%H", notes, "--", path).stdout.decode().strip()
    return Note(message, git.commit_info(changed or notes))
