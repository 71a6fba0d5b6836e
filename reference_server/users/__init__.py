"""Accounts (users and organizations share one table, as in Gitea), passwords and access tokens."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
