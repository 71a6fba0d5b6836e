"""The Git layer against real bare repositories: plumbing commits, reads, refs and typed errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reference_server import gitcache
from reference_server.gitcli import (
    ZERO_SHA,
    CommitInfo,
    Git,
    GitError,
    Identity,
    RefUpdateRejectedError,
    valid_branch_name,
)

WHO = Identity("Ada", "ada@example.com", 1_700_000_000)


@pytest.fixture
def git(tmp_path: Path) -> Git:
    repo = Git(tmp_path / "owner" / "repo.git")
    repo.init_bare("main")
    return repo


def _commit(git: Git, changes: dict[str, bytes | None], parent: str | None, branch: str = "main") -> str:
    return git.commit(branch=branch, parent=parent, changes=changes, message="msg\n", author=WHO, committer=WHO)


def test_init_bare_points_head_at_the_default_branch_without_commits(git: Git) -> None:
    head = git.run("symbolic-ref", "HEAD").stdout.decode().strip()
    assert head == "refs/heads/main"
    assert git.branches() == {}
    assert git.is_empty()
    assert git.rev_parse("main") is None


def test_commit_creates_branch_and_content_is_readable(git: Git) -> None:
    sha = _commit(git, {"README.md": b"hello\n", ".gitea/workflows/ci.yml": b"on: push\n"}, None)
    assert git.branches() == {"main": sha}
    assert git.rev_parse("main") == sha
    assert git.rev_parse("refs/heads/main") == sha
    assert git.read_blob("main", "README.md") == b"hello\n"
    assert git.read_blob(sha, ".gitea/workflows/ci.yml") == b"on: push\n"
    assert git.read_blob("main", "missing.txt") is None
    assert git.read_blob("main", ".gitea") is None  # a directory is not a blob
    assert git.read_blob("nobranch", "README.md") is None


def test_list_tree_gives_entries_with_types_sizes_and_paths(git: Git) -> None:
    _commit(git, {"a.txt": b"12345", ".gitea/workflows/ci.yml": b"x", ".gitea/workflows/b.yaml": b"yy"}, None)
    root = {entry.name: entry for entry in git.list_tree("main", "")}
    assert set(root) == {"a.txt", ".gitea"}
    assert root["a.txt"].type == "blob" and root["a.txt"].size == 5 and root["a.txt"].path == "a.txt"
    assert root[".gitea"].type == "tree" and root[".gitea"].mode == "040000"
    workflows = git.list_tree("main", ".gitea/workflows")
    assert [(e.name, e.path, e.size) for e in workflows] == [
        ("b.yaml", ".gitea/workflows/b.yaml", 2),
        ("ci.yml", ".gitea/workflows/ci.yml", 1),
    ]
    assert git.list_tree("main", ".github/workflows") == []
    assert git.list_tree("main", "a.txt") == []
    assert git.list_tree("nobranch", "") == []


def test_commit_info_reports_identities_times_parents_and_message(git: Git) -> None:
    first = _commit(git, {"a": b"1"}, None)
    later = Identity("Bob", "bob@example.com", 1_700_000_100)
    second = git.commit(
        branch="main", parent=first, changes={"a": b"2"}, message="second\n\nbody\n", author=WHO, committer=later
    )
    info = git.commit_info(second)
    assert info.sha == second
    assert info.parents == (first,)
    assert (info.author_name, info.author_email, info.author_time) == ("Ada", "ada@example.com", 1_700_000_000)
    assert (info.committer_name, info.committer_email, info.committer_time) == ("Bob", "bob@example.com", 1_700_000_100)
    assert info.message == "second\n\nbody\n"
    assert git.commit_info(first).parents == ()
    with pytest.raises(GitError):
        git.commit_info("f" * 40)


def test_delete_and_keep_untouched_files(git: Git) -> None:
    first = _commit(git, {"keep": b"k", "drop/me.txt": b"d"}, None)
    second = _commit(git, {"drop/me.txt": None}, first)
    assert git.read_blob(second, "keep") == b"k"
    assert git.read_blob(second, "drop/me.txt") is None
    assert [e.name for e in git.list_tree(second, "")] == ["keep"]


def test_executable_mode_survives_an_update(git: Git) -> None:
    first = _commit(git, {"run.sh": b"echo 1\n"}, None)
    blob = git.hash_blob(b"echo 2\n")
    # make the file executable with plain git, then update it through the layer
    tree = git.run("mktree", input_bytes=f"100755 blob {blob}\trun.sh\n".encode()).stdout.decode().strip()
    env = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}
    exec_commit = git.run("commit-tree", tree, "-p", first, "-m", "chmod", env=env).stdout.decode().strip()
    git.update_ref("refs/heads/main", exec_commit, first)
    updated = _commit(git, {"run.sh": b"echo 3\n"}, exec_commit)
    assert git.stat(updated, "run.sh") is not None
    assert git.stat(updated, "run.sh").mode == "100755"  # type: ignore[union-attr]


def test_update_ref_detects_a_concurrent_change(git: Git) -> None:
    first = _commit(git, {"a": b"1"}, None)
    _commit(git, {"a": b"2"}, first)  # the branch moved on
    with pytest.raises(RefUpdateRejectedError):
        _commit(git, {"a": b"3"}, first)
    with pytest.raises(RefUpdateRejectedError):
        git.commit(
            branch="main", parent=None, changes={"b": b"x"}, message="m", author=WHO, committer=WHO,
            expected_old=ZERO_SHA,
        )  # fmt: skip


def test_resolve_ref_prefers_branches_then_tags_then_commits(git: Git) -> None:
    first = _commit(git, {"a": b"1"}, None)
    second = _commit(git, {"a": b"2"}, first)
    git.run("tag", "v1", first)
    git.run("tag", "-a", "v2", "-m", "annotated", second, env={"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"})
    assert git.resolve_ref("main") == ("branch", second)
    assert git.resolve_ref("v1") == ("tag", first)
    assert git.resolve_ref("v2") == ("tag", second)  # annotated tags are peeled to their commit
    assert git.resolve_ref(first) == ("commit", first)
    assert git.resolve_ref(first[:10]) == ("commit", first)
    assert git.resolve_ref("nope") is None
    assert git.resolve_ref("--output=/tmp/x") is None
    assert git.tags().keys() == {"v1", "v2"}


def test_last_commit_for_path(git: Git) -> None:
    first = _commit(git, {"a": b"1", "b": b"1"}, None)
    second = _commit(git, {"b": b"2"}, first)
    assert git.last_commit_for_path(second, "a") == first
    assert git.last_commit_for_path(second, "b") == second
    assert git.last_commit_for_path(second, "") == second


def test_stat_root_and_missing(git: Git) -> None:
    sha = _commit(git, {"dir/f": b"x"}, None)
    root = git.stat(sha, "")
    assert root is not None and root.type == "tree"
    directory = git.stat(sha, "dir")
    assert directory is not None and directory.type == "tree" and directory.path == "dir"
    assert git.stat(sha, "dir/missing") is None
    assert git.stat("f" * 40, "") is None


def test_environment_ignores_user_configuration(git: Git, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Leaked\n")
    monkeypatch.setenv("HOME", str(home))
    out = git.run("config", "--get", "user.name", check=False)
    assert out.returncode != 0 and out.stdout == b""


def test_failures_raise_a_typed_error_with_stderr(git: Git) -> None:
    with pytest.raises(GitError) as caught:
        git.run("cat-file", "-p", "f" * 40)
    assert caught.value.returncode != 0
    assert caught.value.command[:2] == ["cat-file", "-p"]
    assert caught.value.stderr


def test_git_directory_is_a_real_bare_repository(git: Git) -> None:
    _commit(git, {"a": b"1"}, None)
    out = subprocess.run(
        ["git", f"--git-dir={git.path}", "rev-parse", "--is-bare-repository"], capture_output=True, check=True
    )
    assert out.stdout.strip() == b"true"


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("main", True),
        ("feature/x-1", True),
        ("release-1.0", True),
        ("", False),
        ("-bad", False),
        ("a..b", False),
        ("a b", False),
        ("a~1", False),
        ("a:b", False),
        ("end/", False),
        ("x.lock", False),
        ("a/.hidden", False),
        ("@", False),
        ("a@{1}", False),
        ("a//b", False),
    ],
)
def test_valid_branch_name(name: str, valid: bool) -> None:
    assert valid_branch_name(name) is valid


def test_write_commit_stores_odd_paths_and_kept_blobs_without_moving_a_ref(git: Git) -> None:
    """fast-import's quoting: quotes, backslashes, spaces, newlines and non-ASCII paths come back as written."""
    base = _commit(git, {"keep.txt": b"kept\n", "x.sh": b"#!/bin/sh\n"}, None)
    kept = git.stat(base, "keep.txt")
    assert kept is not None
    odd = 'dir/a "quoted" b\\c d é.txt'
    entries: dict[str, tuple[str, bytes | str] | None] = {
        odd: ("100644", b"odd\n"),
        "dir/new\nline": ("100644", b"nl\n"),
        "copy.txt": ("100755", kept.sha),
        "x.sh": None,
    }
    new = git.write_commit(base, entries, "odd paths\n", author=WHO, committer=WHO)
    assert git.read_blob(new, odd) == b"odd\n"
    assert sorted(entry.name for entry in git.list_tree(new, "dir")) == ['a "quoted" b\\c d é.txt', "new\nline"]
    assert git.read_blob(new, "copy.txt") == b"kept\n"
    copied = git.stat(new, "copy.txt")
    assert copied is not None and copied.mode == "100755"
    assert git.read_blob(new, "x.sh") is None
    assert git.commit_info(new).parents == (base,)
    assert git.branches() == {"main": base}


def test_write_commit_refuses_a_file_and_a_directory_at_one_path(git: Git) -> None:
    """Without the check fast-import would let the later entry win silently."""
    entries: dict[str, tuple[str, bytes | str] | None] = {"a": ("100644", b"1"), "a/b": ("100644", b"2")}
    with pytest.raises(GitError, match="a file and a directory"):
        git.write_commit(None, entries, "m\n", author=WHO, committer=WHO)


@pytest.mark.parametrize(
    ("message", "author"),
    [
        ("one line", WHO),
        ("subject\n\nbody\n\n\n", WHO),
        ("\n\nleading blank lines\n", WHO),
        ("   \n", WHO),
        ("", WHO),
        ("crlf\r\nline\r\n", WHO),
        ("ünïcode ✓\n", Identity("Zoë <z>", "zoe@\nexample.com", 1)),
        ("no name", Identity("", "anon@example.com", 2_000_000_000)),
    ],
)
def test_a_written_commit_is_remembered_exactly_as_git_reads_it(git: Git, message: str, author: Identity) -> None:
    parent = _commit(git, {"a.txt": b"a"}, None)
    written = git.write_commit(parent, {"b.txt": ("100644", b"b")}, message, author=author, committer=WHO)
    remembered = gitcache.recall(git.path, written)
    assert remembered is not None, "the commit the server wrote is known without asking git"
    gitcache.forget(git.path)
    assert gitcache.recall(git.path, written) is None
    assert git.commit_info(written) == remembered


def test_commit_info_answers_a_full_sha_from_memory_per_repository(git: Git, tmp_path: Path) -> None:
    sha = _commit(git, {"a.txt": b"a"}, None)
    first = git.commit_info(sha)
    gitcache.forget(git.path)
    assert git.commit_info(sha) == first and gitcache.recall(git.path, sha) == first
    other = Git(tmp_path / "other.git")
    other.init_bare("main")
    with pytest.raises(GitError):
        other.commit_info(sha)  # known in the first repository only: the other one is asked, and has no such commit
    git.remove()
    assert gitcache.recall(git.path, sha) is None


def test_forget_drops_a_repository_and_everything_below_a_folder(tmp_path: Path) -> None:
    info = CommitInfo("a" * 40, "b" * 40, (), WHO, WHO, "m\n")
    for name in ("owner/one.git", "owner/two.git", "owner2/one.git"):
        gitcache.remember(tmp_path / name, info)
    gitcache.forget(tmp_path / "owner")
    assert gitcache.recall(tmp_path / "owner/one.git", info.sha) is None
    assert gitcache.recall(tmp_path / "owner/two.git", info.sha) is None
    assert gitcache.recall(tmp_path / "owner2/one.git", info.sha) == info, (
        "a sibling whose name shares the prefix stays"
    )


def test_list_folders_lists_several_directories_in_one_call(git: Git) -> None:
    sha = _commit(
        git,
        {
            ".gitea/workflows/a.yml": b"1",
            ".gitea/workflows/deep/b.yml": b"22",
            ".github/workflows/c.yaml": b"333",
            "top.txt": b"x",
            "file/x": b"",
        },
        None,
    )
    listed = git.list_folders(sha, [".gitea/workflows", ".github/workflows", "missing", "top.txt"])
    assert [(entry.name, entry.path, entry.type, entry.size) for entry in listed[".gitea/workflows"]] == [
        ("a.yml", ".gitea/workflows/a.yml", "blob", 1),
        ("deep", ".gitea/workflows/deep", "tree", 0),
    ]
    assert [entry.path for entry in listed[".github/workflows"]] == [".github/workflows/c.yaml"]
    assert listed["missing"] == [] and listed["top.txt"] == []
    for folder in (".gitea/workflows", ".github/workflows"):
        assert listed[folder] == git.list_tree(sha, folder), "the same entries as one list_tree per folder"
    assert git.list_folders("no-such-rev", ["file"]) == {"file": []}


def test_commits_between_and_read_commits_agree_with_git_when_answered_from_memory(git: Git) -> None:
    from reference_server.repos import treeops

    base = _commit(git, {"a.txt": b"a"}, None)
    top = git.write_commit(base, {"b.txt": ("100644", b"b")}, "top\n", author=WHO, committer=WHO)
    remembered = (git.commits_between(base, top), treeops.read_commits(git, [top, base]))
    gitcache.forget(git.path)
    assert remembered == (git.commits_between(base, top), treeops.read_commits(git, [top, base]))
    assert remembered[0] == [top]
    assert git.commits_between(base, base) == []


def test_stream_yields_output_in_chunks_and_raises_before_any_output(git: Git) -> None:
    commit = _commit(git, {"a.txt": b"a" * 5000}, None)
    chunks = list(git.stream("cat-file", "blob", f"{commit}:a.txt", chunk=1024))
    assert b"".join(chunks) == b"a" * 5000 and len(chunks) >= 2
    with pytest.raises(GitError):
        next(git.stream("cat-file", "blob", "no-such-object"))
    stopped = git.stream("cat-file", "blob", f"{commit}:a.txt", chunk=10)
    assert next(stopped) == b"a" * 10
    stopped.close()  # the process is ended, not left running
