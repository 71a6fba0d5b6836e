"""What is remembered about a commit goes with its repository: forgotten when the repository is deleted or moved."""

from __future__ import annotations

from pathlib import Path

from reference_server import gitcache

SHA = "a" * 40


def test_derived_values_are_kept_per_repository_kind_and_commit(tmp_path: Path) -> None:
    first, second = tmp_path / "owner" / "one.git", tmp_path / "owner" / "two.git"
    gitcache.remember_derived(first, "workflows", SHA, ("ci.yml",))
    assert gitcache.recall_derived(first, "workflows", SHA) == ("ci.yml",)
    assert gitcache.recall_derived(second, "workflows", SHA) is None
    assert gitcache.recall_derived(first, "other", SHA) is None


def test_forgetting_an_owner_folder_drops_what_its_repositories_derived(tmp_path: Path) -> None:
    kept = tmp_path / "elsewhere" / "kept.git"
    gone = tmp_path / "owner" / "gone.git"
    gitcache.remember_derived(kept, "workflows", SHA, ())
    gitcache.remember_derived(gone, "workflows", SHA, ())
    gitcache.forget(tmp_path / "owner")
    assert gitcache.recall_derived(gone, "workflows", SHA) is None
    assert gitcache.recall_derived(kept, "workflows", SHA) == ()
