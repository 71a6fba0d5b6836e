"""The conformance harness: a pytest plugin that runs the kit's BDD suite against any Gitea-compatible target."""

from __future__ import annotations

from importlib import metadata

__all__ = ["__version__"]

try:
    __version__ = metadata.version("forge-conformance-kit")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a plain checkout
    __version__ = "0.0.0+unknown"
