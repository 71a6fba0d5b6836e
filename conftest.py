"""Root conftest: loads the conformance plugin and every step library of ``steps/``.

A new area adds ``steps/<area>.py`` and is picked up here without any edit.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

STEPS_DIR = Path(__file__).resolve().parent / "steps"

pytest_plugins = [
    "conformance.plugin",
    *(f"steps.{module.name}" for module in pkgutil.iter_modules([str(STEPS_DIR)]) if not module.name.startswith("_")),
]
