"""Ref tips read from the ref files agree with git, and anything unusual is left to git."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference_server import gitrefs
from reference_server.gitcli import ZERO_SHA, Git, Identity, RefUpdateRejectedError

WHO = Identity("Ada", "ada@example.com", 1_700_000_000)


@pytest.fixture
def git(tmp_path: Path) -> Git:
    repo = Git(tmp_path / "repo.git")
    repo.init_bare("main")
    return repo


def _git_view(git: Git, prefix: str) -> dict[str, str]:
    out = git.run("for-each-ref", "--format=%(objectname) %(refname)", prefix).stdout.decode()
    return {ref[len(prefix) :]: sha for sha, _, ref in (line.partition(" ") for line in out.splitlines())}


def _commit(git: Git, branch: str, parent: str | None, content: bytes) -> str:
    """A commit on ``branch`` (created from ``parent`` when it does not exist yet)."""
    old = git.rev_parse(f"refs/heads/{branch}") or ZERO_SHA
    return git.commit(
        branch=branch, parent=parent, changes={"f": content}, message="m", author=WHO, committer=WHO, expected_old=old
    )


def _agree(git: Git) -> None:
    for prefix in ("refs/heads/", "refs/tags/"):
        read = gitrefs.read_refs(git.path, prefix)
        assert read == _git_view(git, prefix)
        assert list(read or {}) == list(_git_view(git, prefix)), "in git's order"


def test_loose_packed_and_mixed_refs_read_like_for_each_ref(git: Git) -> None:
    assert gitrefs.read_refs(git.path, "refs/heads/") == {}
    first = _commit(git, "main", None, b"1")
    _commit(git, "feature/deep/x", first, b"2")
    _commit(git, "Zeta", first, b"3")
    git.run("tag", "light", first)
    git.run("-c", "user.name=A", "-c", "user.email=a@x", "tag", "-a", "-m", "note", "annotated", first)
    _agree(git)
    git.run("pack-refs", "--all")
    assert not (git.path / "refs/heads/main").exists(), "now packed"
    _agree(git)
    second = _commit(git, "main", first, b"4")  # a loose ref shadows the packed one
    git.run("update-ref", "-d", "refs/heads/Zeta")  # deleting removes it from packed-refs
    _agree(git)
    assert gitrefs.read_ref(git.path, "refs/heads/main") == (True, second)
    assert gitrefs.read_ref(git.path, "refs/heads/feature/deep/x") == (True, git.rev_parse("feature/deep/x"))
    assert gitrefs.read_ref(git.path, "refs/heads/Zeta") == (True, None)
    _commit(git, "feature/new", first, b"5")
    assert gitrefs.read_ref(git.path, "refs/heads/feature") == (False, None), "a folder of refs is left to git"
    _agree(git)


@pytest.mark.parametrize("name", ["refs/heads/main~1", "refs/heads/main^", "refs/heads/main@{1}", "refs/heads/a..b"])
def test_revision_syntax_is_left_to_git(git: Git, name: str) -> None:
    first = _commit(git, "main", None, b"1")
    _commit(git, "main", first, b"2")
    assert gitrefs.read_ref(git.path, name) == (False, None)
    if name.endswith("~1"):
        assert git.rev_parse(name) == first, "git still answers it"


def test_a_symbolic_or_unreadable_store_is_left_to_git(git: Git) -> None:
    first = _commit(git, "main", None, b"1")
    git.run("symbolic-ref", "refs/heads/alias", "refs/heads/main")
    assert gitrefs.read_refs(git.path, "refs/heads/") is None
    assert gitrefs.read_ref(git.path, "refs/heads/alias") == (False, None)
    assert git.branches() == {"alias": first, "main": first}, "git answers instead"
    (git.path / "refs/heads/alias").unlink()
    (git.path / "packed-refs").write_text("garbage line\n")
    assert gitrefs.read_refs(git.path, "refs/heads/") is None
    (git.path / "reftable").mkdir()
    (git.path / "packed-refs").unlink()
    assert gitrefs.read_refs(git.path, "refs/heads/") is None
    assert gitrefs.read_ref(git.path, "refs/heads/main") == (False, None)


def test_lock_files_of_an_update_in_progress_are_not_refs(git: Git) -> None:
    first = _commit(git, "main", None, b"1")
    (git.path / "refs/heads/main.lock").write_text("0" * 40 + "\n")
    assert gitrefs.read_refs(git.path, "refs/heads/") == {"main": first}
    assert git.rev_parse("refs/heads/main") == first


def test_a_missing_repository_is_left_to_git(tmp_path: Path) -> None:
    assert gitrefs.read_refs(tmp_path / "gone.git", "refs/heads/") is None


def test_a_ref_moves_in_process_only_from_the_value_expected(git: Git) -> None:
    first = _commit(git, "main", None, b"1")
    second = _commit(git, "side", first, b"2")
    assert gitrefs.swap_ref(git.path, "refs/heads/main", second, ZERO_SHA) is False, "main exists"
    assert gitrefs.swap_ref(git.path, "refs/heads/main", second, second) is False, "main is not at side"
    assert git.rev_parse("refs/heads/main") == first, "a refused move writes nothing"
    assert gitrefs.swap_ref(git.path, "refs/heads/main", second, first) is True
    assert gitrefs.swap_ref(git.path, "refs/pull/1/head", first, ZERO_SHA) is True, "a new ref and its folders"
    git.run("pack-refs", "--all")
    assert gitrefs.swap_ref(git.path, "refs/heads/side", first, second) is True, "a packed ref is overridden"
    _agree(git)
    assert git.rev_parse("refs/heads/main") == second and git.rev_parse("refs/pull/1/head") == first
    assert git.run("fsck", "--no-progress").returncode == 0
    assert not list(git.path.rglob("*.lock"))


def test_what_git_does_more_is_left_to_git(git: Git) -> None:
    first = _commit(git, "main", None, b"1")
    second = _commit(git, "side", first, b"2")
    held = git.path / "refs/heads/main.lock"
    held.write_text("someone else's\n")
    assert gitrefs.swap_ref(git.path, "refs/heads/main", second, first) is None, "a lock someone else holds"
    held.unlink()
    assert gitrefs.swap_ref(git.path, "refs/heads/main/deeper", second, ZERO_SHA) is None, (
        "a file where a folder must be"
    )
    assert gitrefs.swap_ref(git.path, "refs/heads", second, ZERO_SHA) is None, "a folder of refs"
    (git.path / "logs/refs/heads").mkdir(parents=True)
    (git.path / "logs/refs/heads/main").write_text("")
    assert gitrefs.swap_ref(git.path, "refs/heads/main", second, first) is None, "a reflog to append"
    assert git.rev_parse("refs/heads/main") == first
    with pytest.raises(RefUpdateRejectedError):
        git.update_ref("refs/heads/main", second, second)
    git.update_ref("refs/heads/main", second, first)
    assert (
        git.rev_parse("refs/heads/main") == second
        and "reference-server" in (git.path / "logs/refs/heads/main").read_text()
    )


def test_a_lock_taken_by_another_writer_after_the_move_is_left_alone(git: Git, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _commit(git, "main", None, b"1")
    second = _commit(git, "side", first, b"2")
    lock = git.path / "refs/heads/main.lock"
    rename = Path.replace

    def rename_then_another_writer_locks(self: Path, target: Path) -> Path:
        moved = rename(self, target)
        lock.write_text("another writer's\n")
        return moved

    monkeypatch.setattr(Path, "replace", rename_then_another_writer_locks)
    assert gitrefs.swap_ref(git.path, "refs/heads/main", second, first) is True
    assert lock.read_text() == "another writer's\n"
