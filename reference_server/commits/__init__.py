"""Commits: the commit list with its count headers, single commits and comparisons of two refs."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
