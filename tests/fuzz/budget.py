"""The fuzz budget: small and fixed in CI, larger from ``./kit fuzz --examples N`` (environment variables)."""

from __future__ import annotations

import os

__all__ = ["ALL_EDGE_STRINGS", "API_EXAMPLES", "PROTOCOL_EXAMPLES", "SEED"]

API_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "2"))
"""Examples per operation and generation mode (positive, negative) for the REST API."""
ALL_EDGE_STRINGS = os.environ.get("FUZZ_EDGE_STRINGS", "all" if API_EXAMPLES > 2 else "ci") == "all"
"""Every edge string through every JSON body (``./kit fuzz``), or CI's few (``edges.CI_EDGE_STRINGS``)."""
PROTOCOL_EXAMPLES = int(os.environ.get("FUZZ_PROTOCOL_EXAMPLES", str(max(API_EXAMPLES * 25, 50))))
"""Bodies per method of the artifact and runner protocols."""
SEED = int(os.environ.get("FUZZ_SEED", "20261122"))
"""Hypothesis' seed: the same seed sends the same requests, so a CI failure reproduces."""
