"""Repositories over bare Git, and the single-file contents API."""

from . import contents, models, routes, store

__all__ = ["contents", "models", "routes", "store"]
