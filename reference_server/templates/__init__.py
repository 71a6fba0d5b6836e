"""License, gitignore and label templates: listed and read by anyone, used when a repository is created."""

from . import models, repo_init, routes, store

__all__ = ["models", "repo_init", "routes", "store"]
