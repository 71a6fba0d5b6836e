"""Repository collaborators: users given read, write or admin access to one repository."""

from . import models, routes, store

__all__ = ["models", "routes", "store"]
