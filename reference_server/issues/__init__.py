"""Issues and the parts pull requests share with them: index, comments, timeline, assignees, lock."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
