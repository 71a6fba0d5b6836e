"""Pinned issues and pull requests: pin, unpin, move, the pinned lists and whether another pin fits."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
