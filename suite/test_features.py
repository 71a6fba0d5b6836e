"""Binds every feature under ``features/`` to pytest: one test per scenario, no edit when features are added.

A feature file that does not parse becomes one failing test naming the file and the parser's
message, so one broken file never hides the rest of the suite.
"""

from __future__ import annotations

from pytest_bdd import scenarios
from pytest_bdd.exceptions import GherkinParseError

from conformance.paths import FEATURES_DIR
from conformance.results import UNPARSABLE_FEATURE


def _broken_feature(path: str, error: GherkinParseError) -> object:
    def test_feature_parses() -> None:
        raise AssertionError(f"{path} does not parse: {error}")

    setattr(test_feature_parses, UNPARSABLE_FEATURE, path)
    return test_feature_parses


for _feature_path in sorted(FEATURES_DIR.rglob("*.feature")):
    try:
        scenarios(str(_feature_path))
    except GherkinParseError as _error:
        _name = "test_unparsable_" + _feature_path.relative_to(FEATURES_DIR).with_suffix("").as_posix().replace(
            "/", "_"
        )
        globals()[_name] = _broken_feature(str(_feature_path.relative_to(FEATURES_DIR)), _error)
