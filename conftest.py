"""Root conftest: loads the conformance plugin and every step library of ``steps/``.

A new area adds ``steps/<area>.py`` and is picked up here without any edit. The shared vocabulary
(``steps.common``) comes first because the area libraries import it.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

import pytest

STEPS_DIR = Path(__file__).resolve().parent / "steps"

pytest.register_assert_rewrite("steps")

_AREA_STEPS = sorted(
    module.name for module in pkgutil.iter_modules([str(STEPS_DIR)]) if module.name not in ("common", "__init__")
)

pytest_plugins = ["conformance.plugin", "steps.common", *(f"steps.{name}" for name in _AREA_STEPS)]
