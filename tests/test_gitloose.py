"""Folder listings read from loose objects are git's own listings; whatever they cannot read is left to git."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from reference_server import gitcache, gitloose
from reference_server.gitcli import Git, Identity, TreeEntry
from reference_server.repos import treeops

FOLDERS = ["", "docs", "docs/a", "bin", "ünï"]
NOT_FOLDERS = ["README.md", "missing", "docs/missing", "sub", "docs/guide.md/x"]
IDENTITY = {
    **{f"GIT_{who}_NAME": "Ada" for who in ("AUTHOR", "COMMITTER")},
    **{f"GIT_{who}_EMAIL": "ada@example.invalid" for who in ("AUTHOR", "COMMITTER")},
    **{f"GIT_{who}_DATE": "1700000000 +0000" for who in ("AUTHOR", "COMMITTER")},
}


def _git(repo: Path, *args: str, data: bytes | None = None) -> str:
    environment = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GIT_INDEX_FILE": str(repo / "index"), **IDENTITY}
    completed = subprocess.run(
        ["git", f"--git-dir={repo}", *args], input=data, capture_output=True, check=True, env=environment
    )
    return completed.stdout.decode().strip()


def _add(repo: Path, mode: str, path: str, content: bytes | None = None, sha: str = "") -> None:
    blob = sha or _git(repo, "hash-object", "-w", "--stdin", data=content)
    _git(repo, "update-index", "--add", "--cacheinfo", f"{mode},{blob},{path}")


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    """A bare repository whose one commit has files, an executable, a link, a submodule and nested folders,
    every object loose (as git leaves what it writes one object at a time)."""
    path = tmp_path / "r.git"
    subprocess.run(["git", "init", "--bare", "--quiet", "--template=", str(path)], check=True)
    _add(path, "100644", "README.md", b"# readme\n")
    _add(path, "100644", "docs/guide.md", b"guide\n" * 50)
    _add(path, "100644", "docs/a/b.txt", b"")
    _add(path, "100644", "docs-extra.txt", b"sorted before docs/\n")
    _add(path, "100755", "bin/run", b"#!/bin/sh\necho hi\n")
    _add(path, "120000", "bin/link", b"run")
    _add(path, "160000", "sub", sha="1" * 40)
    _add(path, "100644", "ünï/naïve.txt", "ü".encode() * 3000)
    tree = _git(path, "write-tree")
    stamp = {"GIT_AUTHOR_DATE": "1700000000 +0000", "GIT_COMMITTER_DATE": "1700000000 +0000"}
    identity = {
        "GIT_AUTHOR_NAME": "A",
        "GIT_AUTHOR_EMAIL": "a@x",
        "GIT_COMMITTER_NAME": "A",
        "GIT_COMMITTER_EMAIL": "a@x",
    }
    commit = (
        subprocess.run(
            ["git", f"--git-dir={path}", "commit-tree", tree, "-m", "one"],
            capture_output=True,
            check=True,
            env={"PATH": "/usr/bin:/bin", **stamp, **identity},
        )
        .stdout.decode()
        .strip()
    )
    return path, commit


def _by_git(monkeypatch: pytest.MonkeyPatch, git: Git, commit: str, folder: str) -> list[TreeEntry]:
    with monkeypatch.context() as patch:
        patch.setattr(gitloose, "folder_entries", lambda *_: None)
        return git.list_tree(commit, folder)


def _no_git(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError(f"git was started: {args}")


@pytest.mark.parametrize("folder", FOLDERS + NOT_FOLDERS)
def test_a_loose_listing_is_what_git_lists(
    repo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    path, commit = repo
    git = Git(path)
    expected = _by_git(monkeypatch, git, commit, folder)
    assert (expected != []) == (folder in FOLDERS)
    monkeypatch.setattr(Git, "run", _no_git)
    assert git.list_tree(commit, folder) == expected


def test_modes_types_and_sizes_are_shown_as_ls_tree_shows_them(repo: tuple[Path, str]) -> None:
    path, commit = repo
    root = {entry.name: entry for entry in gitloose.folder_entries(path, commit, "") or []}
    assert (root["docs"].type, root["docs"].mode, root["docs"].size) == ("tree", "040000", None)
    assert (root["sub"].type, root["sub"].mode, root["sub"].size) == ("commit", "160000", None)
    assert (root["README.md"].type, root["README.md"].mode, root["README.md"].size) == ("blob", "100644", 9)
    bin_folder = {entry.name: entry for entry in gitloose.folder_entries(path, commit, "bin") or []}
    assert bin_folder["run"].mode == "100755" and bin_folder["link"].mode == "120000"
    assert list(root) == ["README.md", "bin", "docs-extra.txt", "docs", "sub", "ünï"], "the tree's own order"


def test_what_is_not_loose_or_not_plain_is_left_to_git(repo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    path, commit = repo
    git = Git(path)
    listed = git.list_tree(commit, "docs")
    assert gitloose.folder_entries(path, commit.upper(), "") is None, "only a full lower-case object name"
    _git(path, "tag", "-a", "-m", "t", "v1", commit)
    tag = _git(path, "rev-parse", "v1")
    assert gitloose.folder_entries(path, tag, "") is None, "a tag is peeled by git"
    assert git.list_tree(tag, "docs") == listed
    _git(path, "update-ref", "refs/replace/" + "2" * 40, commit)
    assert gitloose.folder_entries(path, commit, "") is None, "git reads replacement objects"
    _git(path, "update-ref", "-d", "refs/replace/" + "2" * 40)
    assert gitloose.folder_entries(path, commit, "") is not None
    _git(path, "gc", "--quiet", "--prune=now")
    assert gitloose.folder_entries(path, commit, "") is None, "packed objects are read by git"
    assert git.list_tree(commit, "docs") == listed


PATHS = ["README.md", "docs", "docs/a/b.txt", "bin/run", "bin/link", "sub", "ünï/naïve.txt", "missing", "docs/nope"]


def test_entries_at_paths_from_loose_objects_are_what_git_finds(
    repo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, commit = repo
    git = Git(path)
    with monkeypatch.context() as patch:
        patch.setattr(gitloose, "folder_entries", lambda *_: None)
        expected = treeops.entries_at(git, commit, PATHS)
    assert sorted(expected) == sorted(set(PATHS) - {"missing", "docs/nope"})
    with monkeypatch.context() as patch:
        patch.setattr(Git, "run", _no_git)
        assert treeops.entries_at(git, commit, PATHS) == expected
    assert treeops.entries_at(git, commit, ["docs/", "README.md"]) == {"README.md": expected["README.md"]}, (
        "a path that is not plain is left to git"
    )


WHO = Identity("Ada Lovelace", "ada@example.invalid", 1_700_000_000)
CHANGES: list[dict[str, tuple[str, bytes | str] | None]] = [
    {"new.txt": ("100644", b"new\n")},
    {"README.md": ("100644", b"changed\n")},
    {"README.md": None},
    {"docs": None},
    {"docs/a/b.txt": None},
    {"docs/guide.md": None, "docs/a/b.txt": None},
    {"deep/er/path/file.txt": ("100644", b"x")},
    {"README.md/inner.txt": ("100644", b"a file becomes a folder")},
    {"docs": ("100644", b"a folder becomes a file")},
    {"bin/run": ("100644", b"#!/bin/sh\necho hi\n")},
    {"tool": ("100755", b"#!/bin/sh\n"), "alias": ("120000", b"README.md")},
    {"copy.md": ("100644", "README")},
    {"missing/file": None, "README.md/x": None},
    {"docs": None, "docs/new.txt": ("100644", b"n")},
    {"README.md": None, "docs": None, "docs-extra.txt": None, "bin": None, "sub": None, "ünï": None},
]


def _write(git: Git, parent: str | None, changes: Mapping[str, tuple[str, bytes | str] | None]) -> str:
    return git.write_commit(parent, changes, "a change\n\nwith a body", author=WHO, committer=WHO)


@pytest.mark.parametrize("changes", CHANGES, ids=[", ".join(change) for change in CHANGES])
def test_a_commit_written_loose_is_the_one_fast_import_writes(
    repo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch, changes: dict[str, tuple[str, bytes | str] | None]
) -> None:
    path, commit = repo
    git = Git(path)
    readme = next(entry.sha for entry in git.list_tree(commit) if entry.name == "README.md")
    changes = {name: (entry[0], readme) if entry and entry[1] == "README" else entry for name, entry in changes.items()}
    with monkeypatch.context() as patch:
        patch.setattr(gitloose, "write_commit", lambda *_: None)
        expected = _write(git, commit, changes)
    gitcache.forget(path)
    with monkeypatch.context() as patch:
        patch.setattr(Git, "run", _no_git)
        assert _write(git, commit, changes) == expected
    assert _git(path, "fsck", "--strict", "--no-dangling") == ""


def test_a_first_commit_and_an_empty_tree_are_written_as_git_writes_them(
    repo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = repo
    git = Git(path)
    first: list[Mapping[str, tuple[str, bytes | str] | None]] = [{"a/b.txt": ("100644", b"b")}, {}]
    for changes in first:
        parent = None
        with monkeypatch.context() as patch:
            patch.setattr(gitloose, "write_commit", lambda *_: None)
            expected = _write(git, parent, changes)
        assert gitloose.write_commit(path, parent, changes, b"", b"") is not None
        assert _write(git, parent, changes) == expected


def test_a_commit_over_packed_objects_is_left_to_fast_import(repo: tuple[Path, str]) -> None:
    path, commit = repo
    _git(path, "update-ref", "refs/heads/main", commit)
    _git(path, "gc", "--quiet", "--prune=now")
    changes: dict[str, tuple[str, bytes | str] | None] = {"docs/new.txt": ("100644", b"n")}
    assert gitloose.write_commit(path, commit, changes, b"", b"") is None
    written = _write(Git(path), commit, changes)
    assert "new.txt" in _git(path, "ls-tree", "-r", "--name-only", written)
    assert gitloose.write_commit(path, commit, {"x": ("100644", "f" * 40)}, b"", b"") is None, "an unknown blob"
