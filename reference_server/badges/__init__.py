"""User badges: definitions configured on the server, assigned to users by site administrators (Gitea's admin API)."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
