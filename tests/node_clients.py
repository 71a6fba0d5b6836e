"""When a test of the official npm clients (pinned in tests/node) runs, and why it skips elsewhere.

CI installs Node and those packages (``./kit`` runs ``npm ci --prefix tests/node``); a developer machine
without them skips the tests, but under CI (``CI`` set) they never skip, so the gate cannot pass without them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

__all__ = ["NODE_DIR", "missing_node_client", "needs_node"]

NODE_DIR = Path(__file__).parent / "node"


def missing_node_client(*packages: str) -> str | None:
    """What is missing to run ``packages`` with ``node`` (None: nothing); a test under CI asserts it is None."""
    if shutil.which("node") is None:
        return "node is not installed"
    for package in packages:
        if not (NODE_DIR / "node_modules" / package).is_dir():
            return f"{package} is missing from tests/node/node_modules: run `npm ci --prefix tests/node`"
    return None


def needs_node(*packages: str) -> pytest.MarkDecorator:
    """Skip unless ``node`` and ``packages`` are installed; never skip under CI."""
    reason = None if os.environ.get("CI") else missing_node_client(*packages)
    return pytest.mark.skipif(reason is not None, reason=reason or "")
