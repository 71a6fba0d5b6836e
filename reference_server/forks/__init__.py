"""Forks, fork sync (Gitea's merge-upstream, Forgejo's sync_fork), migrations and pull mirrors."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
