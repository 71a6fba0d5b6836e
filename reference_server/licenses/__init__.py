"""License detection: the SPDX licenses of a repository's license files on its default branch."""

from . import classifier, models, routes, store

__all__ = ["classifier", "models", "routes", "store"]
