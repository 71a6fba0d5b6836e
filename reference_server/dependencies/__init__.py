"""Issue dependencies and blocks: "A depends on B" is the same link as "B blocks A", across repositories."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
