"""Parsed feature files come back from the cache only while their file is unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_bdd import feature as bdd_feature

from conformance import feature_cache

FEATURE = """Feature: Cached
  Scenario: One
    Given a thing
"""


@pytest.fixture
def features(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A features directory, a cache directory of its own, and pytest-bdd's in-process cache left as it was."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    saved = dict(bdd_feature.features)
    directory = tmp_path / "features"
    directory.mkdir()
    (directory / "one.feature").write_text(FEATURE)
    yield directory
    bdd_feature.features.clear()
    bdd_feature.features.update(saved)


def parse(directory: Path) -> str:
    """Have pytest-bdd parse the file; its key in pytest-bdd's cache."""
    bdd_feature.get_feature(str(directory), "one.feature")
    return str((directory / "one.feature").resolve())


def test_an_unchanged_file_comes_from_the_cache(features: Path) -> None:
    name = parse(features)
    assert feature_cache.parsed_count(features) == 1
    assert feature_cache.store(features)
    bdd_feature.features.pop(name)

    assert feature_cache.preload(features) == 1
    assert [scenario.name for scenario in bdd_feature.features[name].scenarios.values()] == ["One"]


def test_a_changed_file_is_parsed_again(features: Path) -> None:
    name = parse(features)
    feature_cache.store(features)
    bdd_feature.features.pop(name)
    (features / "one.feature").write_text(FEATURE.replace("One", "Two, longer"))

    assert feature_cache.preload(features) == 0
    assert name not in bdd_feature.features


def test_an_unreadable_cache_is_not_used(features: Path) -> None:
    target = feature_cache.cache_file(features)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not a pickle")

    assert feature_cache.preload(features) == 0
