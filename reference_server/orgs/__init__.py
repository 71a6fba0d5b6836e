"""Organizations: accounts of type organization, with owners and members."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
