"""Scenario ids: ``<area>/<feature stem>::<scenario name>[<example row>]``, the names profiles, expectations
and reports use, from a collected scenario or by parsing feature files (the xdist controller collects nothing)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

from pytest_bdd.parser import FeatureParser

from .paths import FEATURES_DIR

__all__ = ["feature_scenario_ids", "scenario_id"]


def scenario_id(feature_filename: str, root: Path, name: str, row: str | None) -> str:
    """``<area>/<feature stem>::<scenario name>[<example row>]``, stable across runs and machines.

    The path is relative to the kit's ``features/`` (so ``<area>/<stem>``), or for a feature file
    elsewhere (a project's own suite) to the pytest root directory.
    """
    base = f"{_feature_part(feature_filename, root)}::{name}"
    return base if row is None else f"{base}[{row}]"


@cache
def _feature_part(feature_filename: str, root: Path) -> str:
    """``<area>/<feature stem>`` of a feature file, worked out once per file (resolving paths for each of a
    run's two thousand scenarios cost a second in every process)."""
    path = Path(feature_filename).resolve()
    for base_dir in (FEATURES_DIR, root.resolve()):
        if path.is_relative_to(base_dir):
            return path.relative_to(base_dir).as_posix().removesuffix(".feature")
    return path.name.removesuffix(".feature")


def feature_scenario_ids(feature_files: Iterable[Path], root: Path) -> set[str]:
    """Every scenario id (with and without example rows) of these feature files, by parsing them.

    The xdist controller collects nothing, so it checks profile and expectation ids against this.
    """
    ids: set[str] = set()
    for path in feature_files:
        feature = FeatureParser(str(path.parent), path.name).parse()
        for name, template in feature.scenarios.items():
            base = scenario_id(str(path), root, name, None)
            ids.add(base)
            for examples in template.examples:
                ids |= {f"{base}[{'-'.join(row.values())}]" for row in examples.as_contexts()}
    return ids
