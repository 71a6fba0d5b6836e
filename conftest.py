"""Root conftest: loads the conformance plugin and every step library of ``steps/``.

A new area adds ``steps/<area>.py`` and is picked up here without any edit. The shared vocabulary
(``steps.common``) comes first because the area libraries import it.
"""

from __future__ import annotations

import pkgutil
import sys
from pathlib import Path

import pytest

STEPS_DIR = Path(__file__).resolve().parent / "steps"
LIBRARIES_NOT_REWRITTEN = ("faker",)
"""Packages pytest would assertion-rewrite only because their distribution declares a pytest plugin."""


def _leave_unrewritten(*packages: str) -> None:
    """Keep pytest from rewriting the asserts of libraries the suite merely uses.

    pytest rewrites every module of a distribution that declares a pytest plugin; Faker declares one,
    and rewriting the 300-odd modules ``import faker`` loads costs each pytest process about a second
    when bytecode is not cached (``PYTHONDONTWRITEBYTECODE``). The hook's set is private, so it is only
    touched when it is there (otherwise the suite is just slower to start).
    """
    for finder in sys.meta_path:
        marked = getattr(finder, "_must_rewrite", None)
        if isinstance(marked, set):
            marked.difference_update(packages)


_leave_unrewritten(*LIBRARIES_NOT_REWRITTEN)
pytest.register_assert_rewrite("steps")

_AREA_STEPS = sorted(
    module.name for module in pkgutil.iter_modules([str(STEPS_DIR)]) if module.name not in ("common", "__init__")
)

pytest_plugins = ["conformance.plugin", "steps.common", *(f"steps.{name}" for name in _AREA_STEPS)]
