"""Activity feeds: what users did (repositories created and renamed, pushes, issues, pulls, comments),
recorded from the event bus and listed per user, repository, organization and team."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
