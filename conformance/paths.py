"""Where the kit's parts live, found from this package so the suite runs from any working directory."""

from __future__ import annotations

from pathlib import Path

__all__ = ["CLAUSES_FILE", "FEATURES_DIR", "KIT_ROOT", "SCHEMAS_DIR", "SPEC_FILE", "STEPS_DIR", "SUITE_DIR"]

KIT_ROOT = Path(__file__).resolve().parent.parent
FEATURES_DIR = KIT_ROOT / "features"
SCHEMAS_DIR = KIT_ROOT / "schemas"
STEPS_DIR = KIT_ROOT / "steps"
SUITE_DIR = KIT_ROOT / "suite"
CLAUSES_FILE = Path(__file__).resolve().parent / "clauses.yaml"
SPEC_FILE = KIT_ROOT.parent / "shared" / "spec" / "service-spec.md"
