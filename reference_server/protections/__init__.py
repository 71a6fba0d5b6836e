"""Branch and tag protection rules: their management over REST and their enforcement wherever a ref moves."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
