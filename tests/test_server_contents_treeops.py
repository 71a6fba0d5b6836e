"""The batch Git plumbing behind the contents API agrees with plain one-path-at-a-time git."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reference_server.gitcli import Git, GitError, Identity
from reference_server.repos import treeops

WHO = Identity("Tess", "tess@example.com", 1_700_000_000)


def _commit(git: Git, changes: dict[str, bytes | None], message: str) -> str:
    parent = git.branches().get("main")
    return git.commit(branch="main", parent=parent, changes=changes, message=message + "\n", author=WHO, committer=WHO)


@pytest.fixture
def git(tmp_path: Path) -> Git:
    repo = Git(tmp_path / "r.git")
    repo.init_bare("main")
    _commit(repo, {"a.txt": b"a", "d/b.txt": b"b", "d/e/c.txt": b"c"}, "first")
    _commit(repo, {"d/b.txt": b"b2"}, "second")
    _commit(repo, {"x.txt": b"x"}, "third")
    return repo


def test_last_commits_match_git_log_per_path(git: Git) -> None:
    tip = git.rev_parse("main")
    assert tip is not None
    paths = ["a.txt", "d", "d/b.txt", "d/e", "x.txt", "", "missing"]
    found = treeops.last_commits_for_paths(git, tip, paths)
    for path in paths:
        expected = git.last_commit_for_path(tip, path)
        assert found.get(path) == expected, path


def test_entries_and_objects_in_one_go(git: Git) -> None:
    entries = treeops.entries_at(git, "main", ["d", "d/e", "a.txt", "a.txt/x", "nope", "d/b.txt"])
    assert sorted(entries) == ["a.txt", "d", "d/b.txt", "d/e"]
    assert entries["d"].type == "tree" and entries["d/b.txt"].size == 2
    blobs = treeops.read_objects(git, [entries["a.txt"].sha, entries["d/b.txt"].sha, "f" * 40])
    assert blobs == {entries["a.txt"].sha: b"a", entries["d/b.txt"].sha: b"b2"}
    commits = treeops.read_commits(git, [str(git.rev_parse("main"))])
    info = next(iter(commits.values()))
    assert info.message == "third\n" and info.author == WHO and len(info.parents) == 1


def test_trees_and_patches_never_move_a_ref(git: Git) -> None:
    head = git.branches()["main"]
    commit = git.write_commit(head, {"n.txt": ("100644", b"new"), "a.txt": None}, "m\n", author=WHO, committer=WHO)
    tree = git.tree_of(commit)
    listing = subprocess.run(
        ["git", f"--git-dir={git.path}", "ls-tree", "--name-only", tree], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "n.txt" in listing and "a.txt" not in listing
    patched = treeops.apply_patch_tree(
        git, head, b"--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n"
    )
    assert patched != git.tree_of(head)
    with pytest.raises(GitError):
        treeops.apply_patch_tree(git, head, b"--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-nope\n+y\n")
    assert git.branches()["main"] == head
