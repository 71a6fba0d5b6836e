"""A repository and first commit written without git are what git itself writes: same SHAs, fsck clean."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reference_server.gitcli import Git, Identity

WHO = Identity("Ada Lovelace", "ada@example.invalid", 1_700_000_000)
FILES = {
    "README.md": b"# demo\n\nA description.\n",
    ".gitignore": b"*.pyc\n",
    "LICENSE": b"MIT License\n",
    "docs/guide.md": b"guide\n",
    "docs/a/b.txt": b"nested\n",
    "docs-extra.txt": b"sorted before docs/ as git sorts trees\n",
    "same.txt": b"*.pyc\n",
}


def git(repo: Path, *args: str, env: dict[str, str] | None = None, data: bytes | None = None) -> str:
    completed = subprocess.run(
        ["git", f"--git-dir={repo}", *args], input=data, capture_output=True, check=True, env=env
    )
    return completed.stdout.decode().strip()


def reference_commit(path: Path) -> str:
    """The same commit made by git's own commands, in a repository git initialised."""
    subprocess.run(["git", "init", "--bare", "--quiet", "--template=", "--initial-branch=main", str(path)], check=True)
    index = {"GIT_INDEX_FILE": str(path / "index"), "PATH": "/usr/bin:/bin"}
    for name, content in FILES.items():
        blob = git(path, "hash-object", "-w", "--stdin", data=content)
        git(path, "update-index", "--add", "--cacheinfo", f"100644,{blob},{name}", env=index)
    tree = git(path, "write-tree", env=index)
    stamp = f"{WHO.time} +0000"
    identity = {
        "GIT_AUTHOR_NAME": WHO.name,
        "GIT_AUTHOR_EMAIL": WHO.email,
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_NAME": WHO.name,
        "GIT_COMMITTER_EMAIL": WHO.email,
        "GIT_COMMITTER_DATE": stamp,
        "PATH": "/usr/bin:/bin",
    }
    return git(path, "commit-tree", tree, "-m", "Initial commit", env=identity)


def test_first_commit_has_the_sha_git_gives_it_and_fsck_finds_nothing(tmp_path: Path) -> None:
    ours = Git(tmp_path / "ours.git")
    ours.init_bare("trunk")
    commit = ours.write_first_commit("trunk", FILES, "Initial commit\n", author=WHO, committer=WHO)

    assert commit == reference_commit(tmp_path / "theirs.git")
    assert git(ours.path, "fsck", "--strict", "--no-dangling") == ""
    assert git(ours.path, "symbolic-ref", "HEAD") == "refs/heads/trunk"
    assert git(ours.path, "rev-parse", "refs/heads/trunk") == commit
    assert ours.read_blob("trunk", "docs/a/b.txt") == b"nested\n"
    assert [entry.name for entry in ours.list_tree("trunk")] == [
        ".gitignore",
        "LICENSE",
        "README.md",
        "docs-extra.txt",  # "-" sorts before the "/" git puts after a tree's name
        "docs",
        "same.txt",
    ]


def test_an_empty_repository_is_one_git_accepts_and_pushes_into(tmp_path: Path) -> None:
    repo = Git(tmp_path / "empty.git")
    repo.init_bare("main")

    assert repo.is_empty()
    assert git(repo.path, "config", "core.bare") == "true"
    assert git(repo.path, "fsck", "--strict") == ""
    work = tmp_path / "work"
    subprocess.run(["git", "init", "--quiet", "--initial-branch=main", str(work)], check=True)
    (work / "f.txt").write_text("x\n")
    author = ["-c", "user.name=A", "-c", "user.email=a@example.invalid"]
    subprocess.run(["git", "-C", str(work), "add", "f.txt"], check=True)
    subprocess.run(["git", "-C", str(work), *author, "commit", "--quiet", "-m", "x"], check=True)
    subprocess.run(["git", "-C", str(work), "push", "--quiet", str(repo.path), "main"], check=True)
    assert list(repo.branches()) == ["main"]


def test_init_keeps_an_existing_head_as_git_init_does(tmp_path: Path) -> None:
    repo = Git(tmp_path / "again.git")
    repo.init_bare("main")
    repo.init_bare("other")

    assert (repo.path / "HEAD").read_text() == "ref: refs/heads/main\n"


@pytest.mark.parametrize("files", [{"a": b"1", "a/b": b"2"}, {"a/b": b"2", "a": b"1"}, {"/": b"x"}])
def test_a_path_that_is_both_file_and_folder_or_empty_is_refused(tmp_path: Path, files: dict[str, bytes]) -> None:
    repo = Git(tmp_path / "bad.git")
    repo.init_bare("main")

    with pytest.raises(ValueError):
        repo.write_first_commit("main", files, "x\n", author=WHO, committer=WHO)
