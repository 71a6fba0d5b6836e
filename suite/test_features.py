"""Binds every feature under ``features/`` to pytest: one test per scenario, no edit when features are added."""

from __future__ import annotations

from pytest_bdd import scenarios

from conformance.paths import FEATURES_DIR

scenarios(str(FEATURES_DIR))
